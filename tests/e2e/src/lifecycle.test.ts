import { describe, expect, it } from 'vitest';
import { scrub, scrubServer, startServer, tempDir } from './harness.js';

async function plansAt(url: string): Promise<unknown> {
  const response = await fetch(`${url}/plans`);
  expect(response.status).toBe(200);
  return response.json();
}

describe('stopping and starting scrub-server', () => {
  // One story rather than three tests: each start of the server costs seconds.
  it('exits 0 on SIGTERM, then the CLI names the address it cannot reach, and a restart on the same data serves the same catalogue', async () => {
    const dataDir = tempDir('data-');
    const first = await startServer(dataDir);
    const before = await plansAt(first.url);
    expect(await first.stop()).toEqual({ code: 0, signal: null });

    const unreachable = await scrub(['plans', '--api-url', first.url]);
    expect(unreachable.code).toBe(1);
    expect(unreachable.stdout).toBe('');
    expect(unreachable.stderr).toMatch(new RegExp(`^error: Could not reach ${first.url}: .*--api-url`));

    // The database stayed on disk, migrated: the next start reuses it rather than starting over.
    expect(await scrubServer(['migrate'], dataDir)).toMatchObject({
      code: 0,
      stdout: 'The database is up to date.\n',
    });

    const second = await startServer(dataDir);
    expect(await plansAt(second.url)).toEqual(before);
    expect(await second.stop()).toEqual({ code: 0, signal: null });
  });
});
