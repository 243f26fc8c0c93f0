import { existsSync, readdirSync, readFileSync, utimesSync } from 'node:fs';
import { join } from 'node:path';
import { ListObjectsV2Command, PutObjectCommand, S3Client } from '@aws-sdk/client-s3';
import type { Logger } from 'pino';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabases } from '../../test/databases.js';
import {
  exchangeNumbers,
  fullListText,
  RELEASED_TODAY,
  writeFixture,
} from '../../test/reference-data-fixtures.js';
import { startS3TestServer } from '../../test/s3-test-server.js';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp } from '../../test/test-app.js';
import { loadRegistryInboxSettings } from '../config/registry-inbox-settings.js';
import { Mailer } from '../mail/mailer.js';
import { readHistory, readStatus } from '../reference-data/data-status.js';
import { DatasetStore } from '../reference-data/dataset-store.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import { FolderInbox } from './folder-inbox.js';
import { InboxClaims } from './inbox-claims.js';
import type { InboxFolder } from './inbox-folder.js';
import { RegistryInbox, type RegistryInboxOptions } from './registry-inbox.js';

// Each test its own numbers: the inbox knows a file by its bytes, in a database the tests share.
const numbers = exchangeNumbers(201234, 5);
const others = exchangeNumbers(201555, 5);
const thirds = exchangeNumbers(201556, 5);
const YESTERDAY = new Date(Date.now() - 86_400_000).toISOString().slice(0, 10);

function inboxOf(
  database: DatabaseHandle,
  folder: InboxFolder,
  dataDir: string,
  ftcAccount: string | null = null,
) {
  return new RegistryInbox(inboxOptions(database, folder, dataDir, ftcAccount));
}

function inboxOptions(
  database: DatabaseHandle,
  folder: InboxFolder,
  dataDir: string,
  ftcAccount: string | null = null,
): RegistryInboxOptions {
  return {
    folder,
    store: new DatasetStore(dataDir),
    claims: new InboxClaims(database.db, 3600_000),
    mailer: new Mailer({ db: database.db, logger: false, from: 'scrub@example.com', smtpUrl: null }),
    to: ['ops@example.com'],
    logger: false,
    pollMs: 3600_000,
    ftcAccount,
    settleMs: 0,
  };
}

async function federal(dataDir: string) {
  const rows = await readStatus(new DatasetStore(dataDir));
  return rows.find((row) => row.dataset === 'federal')!;
}

describe.each(testDatabases())('the registry inbox on $kind', (kind) => {
  let database: DatabaseHandle & { url?: string };
  beforeAll(async () => {
    database = await kind.open();
    await migrateToLatest(database.db);
  });
  afterAll(() => database?.close());

  const mails = async () =>
    database.db
      .selectFrom('mail_outbox')
      .select(['to_address', 'subject', 'text_body'])
      .where('kind', '=', 'dnc_inbox_rejected')
      .orderBy('id')
      .execute();

  it('imports a file once: the same file dropped again, and two workers racing, import nothing more', async () => {
    const dataDir = tempDir('scrub-data-');
    const dir = tempDir('scrub-inbox-');
    writeFixture(dir, `ftc-full-${YESTERDAY}.txt`, fullListText(numbers));
    // A second process: on PostgreSQL its own connection, as another machine would have.
    const other =
      kind.kind === 'postgres' ? await openDatabase({ kind: 'postgres', url: database.url! }) : database;
    try {
      const one = inboxOf(database, new FolderInbox(dir), dataDir);
      const two = inboxOf(other, new FolderInbox(dir), dataDir);
      const [a, b] = await Promise.all([one.look(), two.look()]);
      expect([...a.imported, ...b.imported]).toEqual([`ftc-full-${YESTERDAY}.txt`]);
      expect(readdirSync(join(dir, 'imported'))).toEqual([`ftc-full-${YESTERDAY}.txt`]);

      // Dropped again under another name (the same bytes): not imported twice.
      writeFixture(dir, `ftc-full-${RELEASED_TODAY}.txt`, fullListText(numbers));
      const again = await one.look();
      expect(again.imported).toEqual([]);
      expect(again.rejected).toEqual([`ftc-full-${RELEASED_TODAY}.txt`]);
      expect(
        readFileSync(join(dir, 'rejected', `ftc-full-${RELEASED_TODAY}.txt.reason.txt`), 'utf8'),
      ).toContain('was imported already');
      const history = await readHistory(new DatasetStore(dataDir));
      expect(history).toHaveLength(1);
      expect(history[0]).toMatchObject({ dataset: 'federal', via: 'inbox', released_on: YESTERDAY });
      expect((await federal(dataDir)).counts.numbers).toBe(5);
    } finally {
      if (other !== database) await other.close();
    }
  });

  it('rejects a file with a bad row mid-file: moved aside with its reason, admins mailed, the previous list still answering', async () => {
    const dataDir = tempDir('scrub-data-');
    const dir = tempDir('scrub-inbox-');
    const inbox = inboxOf(database, new FolderInbox(dir), dataDir);
    writeFixture(dir, `ftc-full-${YESTERDAY}.txt`, fullListText(others));
    await inbox.look();
    const before = await federal(dataDir);

    const bad = `ftc-full-${RELEASED_TODAY}.txt`;
    writeFixture(dir, bad, `${fullListText(others.slice(0, 2))}201,12X4567\n${fullListText([2012349999])}`);
    const look = await inbox.look();
    expect(look.rejected).toEqual([bad]);
    expect(existsSync(join(dir, bad))).toBe(false);
    const reason = readFileSync(join(dir, 'rejected', `${bad}.reason.txt`), 'utf8');
    expect(reason).toContain('line 3');
    expect(await federal(dataDir)).toMatchObject({
      version: before.version,
      counts: before.counts,
      released_on: YESTERDAY,
    });
    expect((await mails()).at(-1)).toMatchObject({
      to_address: 'ops@example.com',
      subject: `Registry inbox: ${bad} was not imported`,
    });

    // A name that does not say what the file is, and a date that is no date: moved aside too.
    writeFixture(dir, 'registry.txt', fullListText(others.slice(2)));
    writeFixture(dir, 'ftc-full-2026-02-30.txt', fullListText(others.slice(1)));
    const names = await inbox.look();
    expect(names.rejected.sort()).toEqual(['ftc-full-2026-02-30.txt', 'registry.txt']);
    expect(readFileSync(join(dir, 'rejected', 'registry.txt.reason.txt'), 'utf8')).toContain(
      'ftc-full-YYYY-MM-DD',
    );
    expect((await federal(dataDir)).version).toBe(before.version);
  });

  it('records the FTC subscription account number from the name, else SCRUB_FTC_ACCOUNT, and shows it', async () => {
    const dataDir = tempDir('scrub-data-');
    const dir = tempDir('scrub-inbox-');
    const inbox = inboxOf(database, new FolderInbox(dir), dataDir, 'ORG-777');
    writeFixture(dir, `ftc-full-${YESTERDAY}-san-A1B2C3.txt`, fullListText(thirds));
    await inbox.look();
    expect(await federal(dataDir)).toMatchObject({ ftc_account: 'A1B2C3' });

    // A change file without one in its name: the setting's.
    writeFixture(dir, `ftc-changes-${RELEASED_TODAY}.txt`, '201,2349999,A\n');
    expect((await inbox.look()).imported).toEqual([`ftc-changes-${RELEASED_TODAY}.txt`]);
    expect(await federal(dataDir)).toMatchObject({ ftc_account: 'ORG-777', released_on: RELEASED_TODAY });
    const history = await readHistory(new DatasetStore(dataDir));
    expect(history.map((entry) => [entry.kind, entry.via, entry.ftc_account])).toEqual([
      ['ftc-changes', 'inbox', 'ORG-777'],
      ['ftc', 'inbox', 'A1B2C3'],
    ]);
    const row = await database.db
      .selectFrom('registry_inbox_files')
      .select(['name', 'state', 'ftc_account'])
      .where('name', '=', `ftc-changes-${RELEASED_TODAY}.txt`)
      .executeTakeFirstOrThrow();
    expect(row).toEqual({
      name: `ftc-changes-${RELEASED_TODAY}.txt`,
      state: 'imported',
      ftc_account: 'ORG-777',
    });
  });

  it('leaves a file still being written for a later look, and stops promptly', async () => {
    const dataDir = tempDir('scrub-data-');
    const dir = tempDir('scrub-inbox-');
    // The default settling time: a file changed in the last minute waits.
    const inbox = new RegistryInbox({
      ...inboxOptions(database, new FolderInbox(dir), dataDir),
      settleMs: undefined,
    });
    writeFixture(dir, `ftc-full-${YESTERDAY}.txt.part`, fullListText(numbers));
    writeFixture(dir, `state-TX-${YESTERDAY}.csv`, 'phone\n2012345678\n');
    expect(await inbox.look()).toEqual({
      imported: [],
      rejected: [],
      waiting: [`state-TX-${YESTERDAY}.csv`],
    });
    const old = new Date(Date.now() - 120_000);
    utimesSync(join(dir, `state-TX-${YESTERDAY}.csv`), old, old);
    expect((await inbox.look()).imported).toEqual([`state-TX-${YESTERDAY}.csv`]);
    expect(
      (await readStatus(new DatasetStore(dataDir))).find((row) => row.dataset === 'state:TX')?.counts.numbers,
    ).toBe(1);

    inbox.start();
    const started = Date.now();
    await inbox.stop();
    expect(Date.now() - started).toBeLessThan(2000);

    // An inbox that cannot be read: each look fails and is logged, the process goes on.
    const logged: string[] = [];
    const logger = { warn: (_: unknown, message: string) => logged.push(message) } as unknown as Logger;
    const broken = new RegistryInbox({
      ...inboxOptions(database, new FolderInbox('/dev/null/inbox'), dataDir),
      logger,
      pollMs: 10,
    });
    broken.start();
    await new Promise((resolve) => setTimeout(resolve, 100));
    await broken.stop();
    expect(logged.length).toBeGreaterThan(1);
    expect(logged[0]).toBe('could not look at the registry inbox; will try again');
  });
});

/** s3rver signs a bucket's listing as `/bucket`, where S3 and the SDK sign `/bucket/`: sign as it does. */
function signListingsAsS3rver(client: S3Client): void {
  type Args = { request: { path: string; query?: Record<string, unknown> } };
  const unslash = (next: (args: Args) => Promise<unknown>) => async (args: Args) => {
    if (args.request.query?.['list-type'] !== undefined)
      args.request.path = args.request.path.replace(/\/$/, '');
    return next(args);
  };
  type Middleware = Parameters<S3Client['middlewareStack']['addRelativeTo']>[0];
  client.middlewareStack.addRelativeTo(unslash as unknown as Middleware, {
    relation: 'before',
    toMiddleware: 'httpSigningMiddleware',
  });
}

describe('the registry inbox on S3', () => {
  it('imports an object dropped under the prefix and moves it to imported/, a bad one to rejected/ with its reason', async () => {
    const s3 = await startS3TestServer();
    const database = await testDatabases()[0]!.open();
    const client = new S3Client({
      region: 'us-east-1',
      endpoint: s3.endpoint,
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey: s3.secretAccessKey },
      requestChecksumCalculation: 'WHEN_REQUIRED',
      responseChecksumValidation: 'WHEN_REQUIRED',
    });
    process.env.AWS_ACCESS_KEY_ID = s3.accessKeyId;
    process.env.AWS_SECRET_ACCESS_KEY = s3.secretAccessKey;
    try {
      const settings = loadRegistryInboxSettings({
        SCRUB_DNC_INBOX: `s3://${s3.bucket}/registry/`,
        SCRUB_S3_REGION: 'us-east-1',
        SCRUB_S3_ENDPOINT: s3.endpoint,
        SCRUB_S3_FORCE_PATH_STYLE: 'true',
      });
      const target = settings.target!;
      expect(target).toMatchObject({ kind: 's3', bucket: s3.bucket, prefix: 'registry/' });
      const { S3Inbox, s3ClientOf } = await import('./s3-inbox.js');
      const s3Target = target as Extract<typeof target, { kind: 's3' }>;
      const inboxClient = s3ClientOf(s3Target);
      signListingsAsS3rver(inboxClient);
      const dataDir = tempDir('scrub-data-');
      const inbox = inboxOf(database, new S3Inbox(s3Target, inboxClient), dataDir);
      const put = (key: string, body: string) =>
        client.send(new PutObjectCommand({ Bucket: s3.bucket, Key: key, Body: body }));
      await put(`registry/ftc-full-${YESTERDAY}-san-99.txt`, fullListText(numbers));
      await put('registry/ftc-full-someday.txt', fullListText(numbers));
      const look = await inbox.look();
      expect(look).toMatchObject({
        imported: [`ftc-full-${YESTERDAY}-san-99.txt`],
        rejected: ['ftc-full-someday.txt'],
      });
      signListingsAsS3rver(client);
      const keys = (await client.send(new ListObjectsV2Command({ Bucket: s3.bucket }))).Contents?.map(
        (o) => o.Key,
      ).sort();
      expect(keys).toEqual([
        `registry/imported/ftc-full-${YESTERDAY}-san-99.txt`,
        'registry/rejected/ftc-full-someday.txt',
        'registry/rejected/ftc-full-someday.txt.reason.txt',
      ]);
      expect(await federal(dataDir)).toMatchObject({ ftc_account: '99', counts: { numbers: 5 } });
      await inbox.stop();
    } finally {
      client.destroy();
      delete process.env.AWS_ACCESS_KEY_ID;
      delete process.env.AWS_SECRET_ACCESS_KEY;
      await database.close();
      await s3.close();
    }
  });
});

describe('the registry inbox in the app', () => {
  it('is watched by a process that runs the bulk worker, every SCRUB_DNC_INBOX_POLL_SECONDS, and stops with the app', async () => {
    const dataDir = tempDir('scrub-data-');
    const dir = tempDir('scrub-inbox-');
    const settings = loadRegistryInboxSettings({ SCRUB_DNC_INBOX: dir, SCRUB_DNC_INBOX_POLL_SECONDS: '1' });
    const t = await createTestApp({ dataDir, registryInbox: settings });
    try {
      const name = `ftc-full-${YESTERDAY}.txt`;
      writeFixture(dir, name, fullListText(exchangeNumbers(201557, 3)));
      const old = new Date(Date.now() - 120_000);
      utimesSync(join(dir, name), old, old);
      const deadline = Date.now() + 15_000;
      while (!existsSync(join(dir, 'imported', name)) && Date.now() < deadline) {
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
      expect(await federal(dataDir)).toMatchObject({ counts: { numbers: 3 }, released_on: YESTERDAY });
    } finally {
      const started = Date.now();
      await t.close();
      expect(Date.now() - started).toBeLessThan(5000);
    }
  });
});

describe('the registry inbox settings', () => {
  it('read a folder or an S3 prefix, the polling interval and the account number, and refuse what they cannot use', () => {
    expect(loadRegistryInboxSettings({})).toEqual({ target: null, pollSeconds: 300, ftcAccount: null });
    expect(
      loadRegistryInboxSettings({
        SCRUB_DNC_INBOX: 's3://ftc-files/registry',
        AWS_REGION: 'us-east-1',
        SCRUB_FTC_ACCOUNT: '42',
      }),
    ).toEqual({
      target: {
        kind: 's3',
        bucket: 'ftc-files',
        prefix: 'registry/',
        region: 'us-east-1',
        endpoint: null,
        forcePathStyle: false,
      },
      pollSeconds: 300,
      ftcAccount: '42',
    });
    expect(() => loadRegistryInboxSettings({ SCRUB_DNC_INBOX: 's3://ftc-files/x' })).toThrow(
      /needs a region/,
    );
    expect(() => loadRegistryInboxSettings({ SCRUB_DNC_INBOX: 's3://A_B' })).toThrow(
      /not s3:\/\/<bucket>\/<prefix>/,
    );
    expect(() => loadRegistryInboxSettings({ SCRUB_DNC_INBOX_POLL_SECONDS: '0' })).toThrow(/from 1 to 86400/);
    expect(() => loadRegistryInboxSettings({ SCRUB_FTC_ACCOUNT: 'a b' })).toThrow(/SCRUB_FTC_ACCOUNT/);
  });
});
