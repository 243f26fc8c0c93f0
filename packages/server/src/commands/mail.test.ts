import { existsSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { Mailer } from '../mail/mailer.js';
import { startServer } from '../server.js';
import { migrateToLatest, openDatabase } from '../storage/database.js';
import { mailCommand } from './mail.js';

function dataDirConfig(): ServerConfig {
  const dir = tempDir('scrub-mail-');
  return loadConfig({ SCRUB_DATA_DIR: dir, SCRUB_PORT: '0' });
}

async function run(config: ServerConfig, args: string[]) {
  let out = '';
  let err = '';
  const command = mailCommand({
    config: () => config,
    out: (t) => {
      out += t;
    },
    err: (t) => {
      err += t;
    },
  });
  command.exitOverride();
  await command.parseAsync(args, { from: 'user' });
  return { out, err };
}

async function sendSome(config: ServerConfig) {
  const database = await openDatabase(config.database);
  try {
    await migrateToLatest(database.db);
    const mailer = new Mailer({
      db: database.db,
      logger: false,
      from: 'Scrub <no-reply@test>',
      smtpUrl: null,
    });
    for (const [to, code] of [
      ['jane@example.com', '111111'],
      ['joe@example.com', '222222'],
      ['jane@example.com', '333333'],
    ] as const) {
      await mailer.send({
        kind: 'confirm_sign_up',
        to,
        subject: `Your Scrub verification code: ${code}`,
        text: `Your Scrub verification code: ${code}\n\nHello,\n`,
      });
    }
  } finally {
    await database.close();
  }
}

describe('scrub-server mail', () => {
  it('prints the outbox for people: who, when, subject and text, oldest first', async () => {
    const config = dataDirConfig();
    await sendSome(config);
    const { out, err } = await run(config, []);
    expect(err).toContain('the outbox is the delivery, so it keeps verification and reset codes readable');
    expect(
      out.match(/^#\d+ {2}\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2} UTC {2}confirm_sign_up {2}\(stored\)$/gm),
    ).toHaveLength(3);
    expect(out.indexOf('111111')).toBeLessThan(out.indexOf('333333'));
    expect(out).toContain('To:      joe@example.com');
  });

  it('--to EMAIL --last: only the newest mail to that address; --json for scripts', async () => {
    const config = dataDirConfig();
    await sendSome(config);
    expect((await run(config, ['--to', 'JANE@example.com', '--last'])).out).toContain(
      'Subject: Your Scrub verification code: 333333',
    );
    const json = JSON.parse((await run(config, ['--to', 'jane@example.com', '--last', '--json'])).out);
    expect(json).toMatchObject({ to: 'jane@example.com', kind: 'confirm_sign_up', delivery: 'stored' });
    expect(/code: (\d{6})/.exec(json.subject)?.[1]).toBe('333333');
    const all = JSON.parse((await run(config, ['--json', '--limit', '2'])).out);
    expect(all.map((m: { subject: string }) => m.subject.slice(-6))).toEqual(['222222', '333333']);
  });

  it('--last fails when nothing was sent to the address yet', async () => {
    const config = dataDirConfig();
    await sendSome(config);
    await expect(run(config, ['--to', 'nobody@example.com', '--last'])).rejects.toThrow(
      'No mail to nobody@example.com in the outbox yet.',
    );
    expect((await run(config, ['--to', 'nobody@example.com'])).err).toContain(
      'No mail to nobody@example.com',
    );
  });

  it('reads through the running server, which holds the embedded database, and only with its token', async () => {
    const config = dataDirConfig();
    const server = await startServer(config, false);
    const channel = join(config.dataDir, 'local-control.json');
    try {
      expect(statSync(channel).mode & 0o777).toBe(0o600);
      await server.app.inject({
        method: 'POST',
        url: '/identity',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': 'AWSCognitoIdentityProviderService.SignUp',
        },
        payload: {
          ClientId: config.localIdentity.clientId,
          Username: 'new@example.com',
          Password: 'Good-Password-1',
        },
      });
      const json = JSON.parse((await run(config, ['--to', 'new@example.com', '--last', '--json'])).out);
      expect(json.subject).toMatch(/^Your Scrub verification code: \d{6}$/);
      const stranger = await fetch(`${server.url}/_local/outbox`, {
        headers: { 'x-scrub-local-token': 'guess' },
      });
      expect(stranger.status).toBe(404);
    } finally {
      await server.close();
    }
    expect(existsSync(channel)).toBe(false);
  });
});
