import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Kysely, PostgresDialect, sql } from 'kysely';
import { afterEach, expect, it } from 'vitest';
import { PGlitePool } from './pglite-pool.js';
import { PGliteProcess } from './pglite-process.js';
import { pgliteWorkerScript } from './pglite-thread.js';

interface Schema {
  notes: { id: number; text: string };
}

const opened: PGliteProcess[] = [];
const dirs: string[] = [];
afterEach(async () => {
  await Promise.all(opened.splice(0).map((child) => child.close()));
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

function tempDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'pglite-process-'));
  dirs.push(dir);
  return dir;
}

async function start(dataDir?: string): Promise<{ child: PGliteProcess; db: Kysely<Schema> }> {
  const child = await PGliteProcess.create({ dataDir, numberTypes: [20] });
  opened.push(child);
  return { child, db: new Kysely<Schema>({ dialect: new PostgresDialect({ pool: new PGlitePool(child) }) }) };
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

it('answers from its own process: numbers, errors with their code, transactions, NOTIFY, a dump', {
  timeout: 60_000,
}, async () => {
  const { child, db } = await start(tempDir());
  expect(child.pid).not.toBe(process.pid);
  await sql`CREATE TABLE notes (id bigint PRIMARY KEY, text text NOT NULL)`.execute(db);
  await db.insertInto('notes').values({ id: 1, text: 'one' }).execute();
  await expect(db.insertInto('notes').values({ id: 1, text: 'again' }).execute()).rejects.toMatchObject({
    code: '23505',
  });
  const transaction = db.transaction().execute(async (trx) => {
    await trx.insertInto('notes').values({ id: 2, text: 'two' }).execute();
    throw new Error('roll back');
  });
  await expect(transaction).rejects.toThrow('roll back');
  expect(await db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 1, text: 'one' }]);

  const heard: string[] = [];
  const unlisten = await child.listen('jobs', (payload) => heard.push(payload));
  await sql`select pg_notify('jobs', 'first')`.execute(db);
  await expect.poll(() => heard).toEqual(['first']);
  await unlisten();

  await sql`checkpoint`.execute(db);
  const dump = await child.dumpDataDir('gzip');
  await child.close();
  const copy = await PGliteProcess.create({ dataDir: tempDir(), loadDataDir: await dump.bytes() });
  opened.push(copy);
  expect((await copy.query('select id, text from notes')).rows).toEqual([{ id: 1, text: 'one' }]);
});

it('keeps what it wrote across a restart, and its process ends on close', { timeout: 60_000 }, async () => {
  const dataDir = tempDir();
  const first = await start(dataDir);
  await sql`CREATE TABLE notes (id bigint PRIMARY KEY, text text NOT NULL)`.execute(first.db);
  await first.db.insertInto('notes').values({ id: 7, text: 'kept' }).execute();
  const pid = first.child.pid!;
  await first.db.destroy();
  expect(isAlive(pid)).toBe(false);
  await expect(first.child.query('select 1')).rejects.toThrow('closed');
  const second = await start(dataDir);
  expect(await second.db.selectFrom('notes').selectAll().execute()).toEqual([{ id: 7, text: 'kept' }]);
});

it('fails every request, and says so in `lost`, when its process is killed', {
  timeout: 60_000,
}, async () => {
  const { child } = await start();
  process.kill(child.pid!, 'SIGKILL');
  const lost = await child.lost;
  expect(lost.message).toMatch(/The embedded database's process \d+ stopped \(signal SIGKILL\)/);
  await expect(child.query('select 1')).rejects.toThrow('stopped');
});

it('ends with its parent, even one killed with SIGKILL', { timeout: 60_000 }, async () => {
  // A parent of our own to kill: it forks PGlite's process as PGliteProcess does, and says its pid.
  const parent = spawn(
    process.execPath,
    [
      '--input-type=module',
      '-e',
      `import { fork } from 'node:child_process';
       const child = fork(${JSON.stringify(pgliteWorkerScript())}, [], { serialization: 'advanced', execArgv: ['--liftoff-only'] });
       child.send({});
       child.on('message', (reply) => { if (reply.kind === 'ready') console.log(child.pid); });`,
    ],
    { stdio: ['ignore', 'pipe', 'inherit'] },
  );
  const pid = await new Promise<number>((resolve) =>
    parent.stdout.once('data', (chunk) => resolve(Number(String(chunk).trim()))),
  );
  expect(isAlive(pid)).toBe(true);
  parent.kill('SIGKILL');
  await expect.poll(() => isAlive(pid), { timeout: 10_000 }).toBe(false);
});
