import { describe, expect, it, vi } from 'vitest';
import {
  exchangeNumbers,
  fullListText,
  RELEASED_TODAY,
  writeFixture,
} from '../../test/reference-data-fixtures.js';
import { tempDir } from '../../test/temp-dirs.js';
import { ensureProfile } from '../account/profiles.js';
import { dataCommand } from '../commands/data.js';
import { loadConfig } from '../config/config.js';
import { startServer } from '../server.js';
import { dncFor } from './reference-data.js';

describe('scrub-server data import beside a running server', () => {
  it('the server switches to each new version within seconds, and /health names the shared ones', async () => {
    const config = loadConfig({ SCRUB_DATA_DIR: tempDir('scrub-data-'), SCRUB_PORT: '0' });
    const numbers = exchangeNumbers(201234, 4);
    const server = await startServer(config, false);
    try {
      const health = async () =>
        ((await (await fetch(`${server.url}/health`)).json()) as { reference_data: Record<string, string> })
          .reference_data;
      expect(await health()).toMatchObject({ exchange: 'sample-v1' });
      expect(await health()).not.toHaveProperty('dnc:federal');

      // The command as an operator runs it: it reaches the server only through the data directory.
      const file = writeFixture(tempDir('scrub-files-'), 'dnc.txt', fullListText(numbers));
      const command = dataCommand({
        config: () => config,
        open: () => Promise.reject(new Error('no database needed')),
        out: () => {},
        err: () => {},
        color: false,
      });
      await command.parseAsync(
        ['import', 'ftc', file, '--version', '2025-06-01', '--released', RELEASED_TODAY],
        { from: 'user' },
      );

      await vi.waitFor(async () => expect(await health()).toMatchObject({ 'dnc:federal': '2025-06-01' }), {
        timeout: 10_000,
        interval: 200,
      });
      expect(server.referenceData.current().dnc.has(numbers[0]!)).toBe(true);

      // The server holds the embedded database: the account is looked up through its operator channel.
      const profile = await ensureProfile(server.database.db, {
        sub: 'owner',
        email: 'owner@example.com',
        name: null,
        role: 'User',
      });
      const own = writeFixture(tempDir('scrub-files-'), 'mine.csv', `${numbers[3]}\n`);
      await command.parseAsync(['import', 'internal', own, '--account', 'owner@example.com'], {
        from: 'user',
      });
      await vi.waitFor(
        () => expect(dncFor(server.referenceData.current(), profile.id).has(numbers[3]!)).toBe(true),
        {
          timeout: 10_000,
          interval: 200,
        },
      );
    } finally {
      await server.close();
    }
  });
});
