import { existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { loadEmbeddedDatabase, openDatabase } from '../storage/database.js';
import { DATABASE_FILE, MANIFEST_FILE, Manifest } from './backup-manifest.js';
import { backupOperation } from './backup-operation.js';
import { restoreBackup, verifyBackup } from './restore-backup.js';
import { writeBackup } from './write-backup.js';

const dump = new Blob([Buffer.from('the database, as one tarball')]);
const source = (dataDir: string) => ({ dataDir, dumpDatabase: async () => dump });
const later = () => Date.now() + 60_000;

/** A data directory as a running embedded service leaves it. */
function dataDirWithFiles(): string {
  const dir = tempDir('scrub-backup-data-');
  for (const [path, text] of Object.entries({
    'files/uploads/a.csv': 'phone\n2012345678\n',
    'files/.meta/uploads/a.csv.json': '{"contentType":"text/csv"}',
    'files/.upload-signing-key': 'secret',
    'files/.tmp/123.abc-partial': 'half a file',
    'proof/keys.json': '{"keys":[]}',
    'identity/keys.json': '{"keys":[]}',
    'pglite/PG_VERSION': '17',
    'pglite.lock': '123',
    'local-control.json': '{}',
  })) {
    mkdirSync(join(dir, path, '..'), { recursive: true });
    writeFileSync(join(dir, path), text);
  }
  return dir;
}

const manifestOf = (backup: string) =>
  Manifest.parse(JSON.parse(readFileSync(join(backup, MANIFEST_FILE), 'utf8')));

describe('writeBackup', () => {
  it("copies the dump and the data directory's files, not the live database, locks, channel or partial writes", async () => {
    const dataDir = dataDirWithFiles();
    const backup = join(tempDir('scrub-backup-'), 'one');
    const summary = await writeBackup(source(dataDir), backup, later());
    expect(manifestOf(backup).files.map((file) => file.path)).toEqual([
      DATABASE_FILE,
      'data/files/.meta/uploads/a.csv.json',
      'data/files/.upload-signing-key',
      'data/files/uploads/a.csv',
      'data/identity/keys.json',
      'data/proof/keys.json',
    ]);
    expect(summary).toMatchObject({ destination: backup, database_bytes: dump.size, files: 5, vanished: [] });
    expect(readFileSync(join(backup, 'data/files/uploads/a.csv'), 'utf8')).toBe('phone\n2012345678\n');
    expect(await verifyBackup(backup)).toEqual(manifestOf(backup));
  });

  it('refuses a destination that holds files, or lies inside the data directory', async () => {
    const dataDir = dataDirWithFiles();
    const full = tempDir('scrub-backup-');
    writeFileSync(join(full, 'other'), 'x');
    await expect(writeBackup(source(dataDir), full, later())).rejects.toThrow(/already holds files/);
    await expect(writeBackup(source(dataDir), join(dataDir, 'backup'), later())).rejects.toThrow(
      /inside the data directory/,
    );
    await expect(writeBackup(source(dataDir), 'relative', later())).rejects.toThrow(/absolute path/);
  });

  it('leaves nothing behind when the database cannot be dumped', async () => {
    const dataDir = dataDirWithFiles();
    const parent = tempDir('scrub-backup-');
    const failing = {
      dataDir,
      dumpDatabase: async () => {
        throw new Error('The database stayed busy');
      },
    };
    await expect(writeBackup(failing, join(parent, 'one'), later())).rejects.toThrow(/stayed busy/);
    expect(readdirSync(parent)).toEqual([]);
  });
});

describe('the backup operation (what the operator channel runs)', () => {
  it("answers a failure with its reason, not as the server's own fault", async () => {
    const dataDir = dataDirWithFiles();
    const busy = Object.assign(new Error('The database stayed busy until the deadline.'), {
      name: 'DatabaseBusy',
    });
    const operation = backupOperation({ dataDir, dumpDatabase: () => Promise.reject(busy) });
    const input = { destination: join(tempDir('scrub-backup-'), 'one'), timeout_seconds: 5 };
    await expect(operation.run(null as never, input)).rejects.toMatchObject({
      code: 'service_unavailable',
      message: 'The database stayed busy until the deadline.',
    });
    const file = join(tempDir('scrub-backup-'), 'a-file');
    writeFileSync(file, 'x');
    const unwritable = backupOperation(source(dataDir)).run(null as never, {
      destination: join(file, 'one'),
      timeout_seconds: 5,
    });
    await expect(unwritable).rejects.toMatchObject({
      code: 'internal_error',
      message: /^The backup failed: ENOTDIR/,
    });
  });
});

describe('restoreBackup', () => {
  async function backupOf(): Promise<string> {
    const backup = join(tempDir('scrub-backup-'), 'one');
    await writeBackup(source(dataDirWithFiles()), backup, later());
    return backup;
  }

  it('refuses a backup whose files were changed, lost or named outside it, and writes nothing', async () => {
    const changed = await backupOf();
    writeFileSync(join(changed, 'data/proof/keys.json'), '{"keys":["other"]}');
    const target = join(tempDir('scrub-restore-'), 'data');
    await expect(restoreBackup(changed, target)).rejects.toThrow(
      /is not a whole Scrub backup: data\/proof\/keys.json differs\. Nothing was restored/,
    );

    const lost = await backupOf();
    rmSync(join(lost, 'data/files/uploads/a.csv'));
    await expect(restoreBackup(lost, target)).rejects.toThrow(/data\/files\/uploads\/a.csv is missing/);

    const escaping = await backupOf();
    const manifest = manifestOf(escaping);
    manifest.files[1]!.path = 'data/../../../etc/passwd';
    writeFileSync(join(escaping, MANIFEST_FILE), JSON.stringify(manifest));
    await expect(restoreBackup(escaping, target)).rejects.toThrow(/a relative path inside the backup/);

    await expect(restoreBackup(tempDir('scrub-not-a-backup-'), target)).rejects.toThrow(
      /has no manifest.json/,
    );
    expect(existsSync(target)).toBe(false);
  });

  it('refuses a data directory that is not empty, unless forced', async () => {
    const backup = await backupOf();
    const target = tempDir('scrub-restore-');
    writeFileSync(join(target, 'something'), 'x');
    await expect(restoreBackup(backup, target)).rejects.toThrow(/is not empty.*--force/);
    expect(readdirSync(target)).toEqual(['something']);
  });
});

describe('the embedded database, dumped and loaded', () => {
  it('waits for a transaction to end, within a deadline, and loads as it stood', async () => {
    const dataDir = join(tempDir('scrub-dump-'), 'pglite');
    const database = await openDatabase({ kind: 'pglite', dataDir });
    try {
      await sql`create table notes (text text)`.execute(database.db);
      await sql`insert into notes values ('kept')`.execute(database.db);
      let finish!: () => void;
      const open = database.db.transaction().execute(async (trx) => {
        await sql`insert into notes values ('not yet committed')`.execute(trx);
        await new Promise<void>((resolve) => {
          finish = resolve;
        });
      });
      await expect(database.dumpEmbedded!(Date.now() + 200)).rejects.toThrow(/stayed busy/);
      const copy = database.dumpEmbedded!(Date.now() + 60_000);
      finish();
      await open;
      const restored = join(tempDir('scrub-dump-'), 'pglite');
      await loadEmbeddedDatabase(restored, await copy);
      const reopened = await openDatabase({ kind: 'pglite', dataDir: restored });
      try {
        const { rows } = await sql<{ text: string }>`select text from notes order by text`.execute(
          reopened.db,
        );
        expect(rows.map((row) => row.text)).toEqual(['kept', 'not yet committed']);
      } finally {
        await reopened.close();
      }
      await expect(loadEmbeddedDatabase(restored, await copy)).rejects.toThrow(/already holds a database/);
    } finally {
      await database.close();
    }
  }, 60_000);
});
