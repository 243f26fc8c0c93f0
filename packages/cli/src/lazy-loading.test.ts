import { describe, expect, it, vi } from 'vitest';
import { scrub, tempConfigDir } from '../test/harness.js';

// Each heavy module notes when it is loaded, then loads as it is.
const { loaded, noting } = vi.hoisted(() => {
  const loaded = new Set<string>();
  const noting = (name: string) => async (original: () => Promise<unknown>) => {
    loaded.add(name);
    return original();
  };
  return { loaded, noting };
});
vi.mock('@scrub/sdk', noting('@scrub/sdk'));
vi.mock('zod', noting('zod'));
vi.mock('conf', noting('conf'));
vi.mock('cli-table3', noting('cli-table3'));
vi.mock('@scrub/engine/preview', noting('@scrub/engine/preview'));

const env = () => ({ SCRUB_CONFIG_DIR: tempConfigDir() });

describe('loading on demand', () => {
  it.each([[['--help']], [['--version']], [['bulk', '--help']], [['config', 'set', '--help']]])(
    'scrub %j loads neither the SDK, zod, conf, cli-table3 nor the engine',
    async (args) => {
      loaded.clear();
      const result = await scrub(args, env());

      expect(result.code).toBe(0);
      expect([...loaded]).toEqual([]);
    },
  );

  it('loads what a command needs when it runs', async () => {
    loaded.clear();
    const result = await scrub(['config', 'list'], env());

    expect(result.code, result.stderr).toBe(0);
    expect([...loaded].sort()).toEqual(['conf', 'zod']);
  });

  it('sends a request given its URL and key by variables without loading conf first', async () => {
    loaded.clear();
    // Nothing listens there: the call fails once it has been sent, which is all this needs.
    const result = await scrub(['--json', 'account'], {
      ...env(),
      SCRUB_API_URL: 'http://127.0.0.1:9',
      SCRUB_API_KEY: 'scrub_test_key',
    });

    expect(result.stderr).toContain('Could not reach http://127.0.0.1:9');
    expect([...loaded]).not.toContain('conf');
  });
});
