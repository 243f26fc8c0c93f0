import type { AddressInfo } from 'node:net';
import { Writable } from 'node:stream';
import pino from 'pino';
import { SMTPServer } from 'smtp-server';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { Mailer, readOutbox } from './mailer.js';

let database: DatabaseHandle;
beforeEach(async () => {
  database = await openDatabase({ kind: 'pglite', dataDir: null });
  await migrateToLatest(database.db);
});
afterEach(() => database.close());

function capturingLogger() {
  const lines: Record<string, unknown>[] = [];
  const logger = pino(
    { level: 'info' },
    new Writable({
      write(chunk, _encoding, done) {
        lines.push(JSON.parse(String(chunk)));
        done();
      },
    }),
  );
  return { logger, lines };
}

const mail = (to: string, code = '123456') => ({
  kind: 'confirm_sign_up' as const,
  to,
  secret: code,
  subject: `Your Scrub verification code: ${code}`,
  text: `Your Scrub verification code: ${code}\n`,
  html: `<p>${code}</p>`,
});

/** A real SMTP server on a loopback port, keeping what it receives. */
async function smtpServer() {
  const received: { from: string; to: string[]; raw: string }[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS'],
    logger: false,
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => {
        raw += chunk.toString('utf8');
      });
      stream.on('end', () => {
        received.push({
          from: session.envelope.mailFrom ? session.envelope.mailFrom.address : '',
          to: session.envelope.rcptTo.map((r) => r.address),
          raw,
        });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    close: () => new Promise<void>((r) => server.close(() => r())),
  };
}

describe('the mailer', () => {
  it('without SMTP keeps every mail, code included, in the outbox (the delivery), and logs it without the code', async () => {
    const { logger, lines } = capturingLogger();
    const mailer = new Mailer({ db: database.db, logger, from: 'Scrub <no-reply@test>', smtpUrl: null });
    const stored = await mailer.send(mail('Jane@Example.com'));
    expect(stored).toMatchObject({
      delivery: 'stored',
      to_address: 'Jane@Example.com',
      kind: 'confirm_sign_up',
    });
    expect(stored.subject).toBe('Your Scrub verification code: 123456');
    expect(lines.at(-1)?.msg).toContain('"Your Scrub verification code: [code in the outbox]"');
    expect(JSON.stringify(lines)).not.toContain('123456');
    expect(lines.at(-1)?.msg).toContain('scrub-server mail --to Jane@Example.com --last');
    await mailer.close();
  });

  it('with SMTP sends through it, marks the mail sent, and keeps the code out of the log', async () => {
    const smtp = await smtpServer();
    const { logger, lines } = capturingLogger();
    const mailer = new Mailer({ db: database.db, logger, from: 'Scrub <no-reply@test>', smtpUrl: smtp.url });
    try {
      await mailer.send(mail('jane@example.com', '654321'));
      await mailer.idle();
      expect(smtp.received).toHaveLength(1);
      expect(smtp.received[0]).toMatchObject({ from: 'no-reply@test', to: ['jane@example.com'] });
      expect(smtp.received[0]?.raw).toContain('Subject: Your Scrub verification code: 654321');
      const [row] = await readOutbox(database.db, { to: 'jane@example.com', limit: 1 });
      expect(row).toMatchObject({ delivery: 'sent', delivery_error: null });
      // The outbox (and so the database's write-ahead log) never held the code.
      expect(JSON.stringify(row)).not.toContain('654321');
      expect(row?.subject).toBe('Your Scrub verification code: [code sent by e-mail; not kept]');
      expect(row?.sent_at).toBeInstanceOf(Date);
      expect(JSON.stringify(lines)).not.toContain('654321');
    } finally {
      await mailer.close();
      await smtp.close();
    }
  });

  it('a mail server that cannot be reached marks the mail failed, with the reason, and the sender is not held up', async () => {
    const smtp = await smtpServer();
    await smtp.close();
    const mailer = new Mailer({
      db: database.db,
      logger: false,
      from: 'Scrub <no-reply@test>',
      smtpUrl: smtp.url,
    });
    const stored = await mailer.send(mail('jane@example.com'));
    expect(stored.delivery).toBe('sending');
    await mailer.close();
    const [row] = await readOutbox(database.db, { limit: 1 });
    expect(row?.delivery).toBe('failed');
    expect(row?.delivery_error).toMatch(/ECONNREFUSED|connect/i);
  });

  it('reads the outbox oldest first, the newest few, by address in any case', async () => {
    const mailer = new Mailer({ db: database.db, logger: false, from: 'x@test', smtpUrl: null });
    for (const [to, code] of [
      ['a@example.com', '000001'],
      ['B@example.com', '000002'],
      ['a@example.com', '000003'],
      ['a@example.com', '000004'],
    ] as const) {
      await mailer.send(mail(to, code));
    }
    const codes = (rows: { subject: string }[]) => rows.map((r) => r.subject.slice(-6));
    expect(codes(await readOutbox(database.db, { limit: 10 }))).toEqual([
      '000001',
      '000002',
      '000003',
      '000004',
    ]);
    expect(codes(await readOutbox(database.db, { to: 'A@EXAMPLE.COM', limit: 2 }))).toEqual([
      '000003',
      '000004',
    ]);
    expect(codes(await readOutbox(database.db, { to: 'b@example.com', limit: 10 }))).toEqual(['000002']);
  });
});
