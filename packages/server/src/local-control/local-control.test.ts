import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { tempDir } from '../../test/temp-dirs.js';
import { loadConfig, type ServerConfig } from '../config/config.js';
import { readOutboxOperation } from '../mail/outbox-operation.js';
import { startServer } from '../server.js';
import { openDatabase } from '../storage/database.js';
import {
  callLocalControl,
  findLocalControl,
  LOCAL_CONTROL_FILE,
  type LocalControl,
  type LocalOperation,
  runLocalOperation,
} from './local-control.js';

const dataDirConfig = (): ServerConfig =>
  loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-control-'), SCRUB_PORT: '0' });

const readChannel = (config: ServerConfig) =>
  JSON.parse(readFileSync(join(config.dataDir, LOCAL_CONTROL_FILE), 'utf8')) as LocalControl;

/** A pid no process has any more. */
const deadPid = () => spawnSync(process.execPath, ['-e', '']).pid!;

/** A local port nothing listens on. */
async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const { port } = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

describe('the local control channel', () => {
  it('is a 0600 file with the address, pid and a random token while the server runs, gone after', async () => {
    const config = dataDirConfig();
    const server = await startServer(config, false);
    const file = join(config.dataDir, LOCAL_CONTROL_FILE);
    try {
      expect(statSync(file).mode & 0o777).toBe(0o600);
      const channel = readChannel(config);
      expect(channel.pid).toBe(process.pid);
      expect(channel.token).toMatch(/^[\w-]{43}$/); // 32 random bytes
      expect(findLocalControl(config.dataDir)).toEqual(channel);
      expect(await (await fetch(`${channel.url}/health`)).json()).toMatchObject({ status: 'ok' });
    } finally {
      await server.close();
    }
    expect(existsSync(file)).toBe(false);
    expect(findLocalControl(config.dataDir)).toBeNull();
  });

  it('answers only to its token: anyone else gets the 404 of a path that does not exist', async () => {
    const config = dataDirConfig();
    const server = await startServer(config, false);
    try {
      const { url, token } = readChannel(config);
      const wrong = `${token.slice(0, -1)}${token.endsWith('A') ? 'B' : 'A'}`;
      const grant = { email: 'x@example.com', credits: 5, note: null };
      for (const headers of [{}, { 'x-scrub-local-token': wrong }, { 'x-scrub-local-token': '' }]) {
        const outbox = await fetch(`${url}/_local/outbox`, { headers });
        expect(outbox.status).toBe(404);
        expect(await outbox.json()).toMatchObject({
          error: { code: 'not_found', message: 'No such endpoint: GET /_local/outbox' },
        });
        const granted = await fetch(`${url}/_local/credits/grant`, {
          method: 'POST',
          headers: { ...headers, 'content-type': 'application/json' },
          body: JSON.stringify(grant),
        });
        expect(granted.status).toBe(404);
        expect(await granted.json()).toMatchObject({
          error: { code: 'not_found', message: 'No such endpoint: POST /_local/credits/grant' },
        });
      }
      // Not even a malformed body is looked at without the token.
      const garbage = await fetch(`${url}/_local/credits/grant`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: '{',
      });
      expect(garbage.status).toBe(404);

      const own = { 'x-scrub-local-token': token };
      const outbox = await fetch(`${url}/_local/outbox?limit=5`, { headers: own });
      expect(outbox.status).toBe(200);
      expect(await outbox.json()).toEqual([]);
      const invalid = await fetch(`${url}/_local/credits/grant`, {
        method: 'POST',
        headers: { ...own, 'content-type': 'application/json' },
        body: JSON.stringify({ ...grant, credits: 0 }),
      });
      expect(invalid.status).toBe(400);
    } finally {
      await server.close();
    }
  });

  it('is ignored when its server died (dead pid), or is missing or malformed: the database is opened directly', async () => {
    const config = dataDirConfig();
    const file = join(config.dataDir, LOCAL_CONTROL_FILE);
    expect(findLocalControl(config.dataDir)).toBeNull();
    writeFileSync(file, '{"url":');
    expect(findLocalControl(config.dataDir)).toBeNull();
    writeFileSync(file, JSON.stringify({ url: 'http://127.0.0.1:9', token: 'stale', pid: deadPid() }));
    expect(findLocalControl(config.dataDir)).toBeNull();
    expect(await runLocalOperation(config, readOutboxOperation, { limit: 5 })).toEqual([]);
  });

  it('falls back to the database when nothing answers at the address (a reused pid)', async () => {
    const config = dataDirConfig();
    writeFileSync(
      join(config.dataDir, LOCAL_CONTROL_FILE),
      JSON.stringify({ url: `http://127.0.0.1:${await closedPort()}`, token: 'stale', pid: process.pid }),
    );
    expect(findLocalControl(config.dataDir)).not.toBeNull();
    expect(await runLocalOperation(config, readOutboxOperation, { limit: 5 })).toEqual([]);
  });

  it('says so when the running server does not offer the operation (an older server)', async () => {
    const config = dataDirConfig();
    const server = await startServer(config, false);
    try {
      const unknown: LocalOperation<Record<string, never>, unknown> = {
        method: 'GET',
        path: '/nothing',
        input: z.object({}),
        run: async () => null,
      };
      await expect(callLocalControl(readChannel(config), unknown, {})).rejects.toThrow(
        /^The running scrub-server \(process \d+, http:\/\/127\.0\.0\.1:\d+\) does not offer GET \/nothing on its operator channel: it is probably an older version\./,
      );
      await expect(runLocalOperation(config, unknown, {})).rejects.toThrow(/does not offer GET \/nothing/);
    } finally {
      await server.close();
    }
  });

  it('is not used on PostgreSQL, even beside a live channel: every process opens the database itself', async () => {
    const config = dataDirConfig();
    const server = await startServer(config, false);
    try {
      const postgres: ServerConfig = { ...config, database: { kind: 'postgres', url: 'postgres://unused' } };
      let opened = 0;
      const mails = await runLocalOperation(
        postgres,
        readOutboxOperation,
        { limit: 1 },
        {
          open: () => {
            opened++;
            return openDatabase({ kind: 'pglite', dataDir: null });
          },
        },
      );
      expect(mails).toEqual([]);
      expect(opened).toBe(1);
    } finally {
      await server.close();
    }
  });

  it('does not exist on a server without an embedded database on disk', async () => {
    const config = loadConfig(
      { SCRUB_DATA_DIR: tempDir('scrub-control-'), SCRUB_PORT: '0' },
      { database: { kind: 'pglite', dataDir: null } },
    );
    const server = await startServer(config, false);
    try {
      expect(existsSync(join(config.dataDir, LOCAL_CONTROL_FILE))).toBe(false);
      expect((await fetch(`${server.url}/_local/outbox`)).status).toBe(404);
    } finally {
      await server.close();
    }
  });
});
