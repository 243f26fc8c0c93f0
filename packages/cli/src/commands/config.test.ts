import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { beforeEach, describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../../test/harness.js';
import { maskSecret } from '../actions/config.js';

const API_KEY = 'sk_test_4f9a7c2e8b1d6a3f';

describe('scrub config', () => {
  let dir: string;
  let env: NodeJS.ProcessEnv;
  beforeEach(() => {
    dir = tempConfigDir();
    env = { SCRUB_CONFIG_DIR: dir };
  });

  it('sets, gets and lists settings in a file only its owner can read', async () => {
    expect(await scrub(['config', 'set', 'api_url', 'https://scrub.example.com'], env)).toEqual({
      code: 0,
      stdout: '',
      stderr: '',
    });
    expect((await scrub(['config', 'set', 'output', 'table'], env)).code).toBe(0);

    expect(await scrub(['config', 'get', 'api_url'], env)).toEqual({
      code: 0,
      stdout: 'https://scrub.example.com\n',
      stderr: '',
    });
    expect((await scrub(['config', 'list'], env)).stdout).toBe(
      'api_url=https://scrub.example.com\noutput=table\n',
    );
    expect(JSON.parse((await scrub(['--json', 'config', 'list'], env)).stdout)).toEqual({
      api_url: 'https://scrub.example.com',
      output: 'table',
    });

    const file = join(dir, 'config.json');
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      profiles: { default: { api_url: 'https://scrub.example.com', output: 'table' } },
    });
  });

  it('exits 2 for an unknown key, listing the valid ones', async () => {
    for (const args of [
      ['config', 'set', 'colour', 'blue'],
      ['config', 'get', 'colour'],
    ]) {
      const result = await scrub(args, env);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe('error: unknown key "colour"; valid keys: api_url, api_key, output\n');
    }
  });

  it('exits 2 for a bad value and saves nothing', async () => {
    const url = await scrub(['config', 'set', 'api_url', 'not a url'], env);
    expect(url.code).toBe(2);
    expect(url.stderr).toContain('api_url must be an http:// or https:// URL');

    const output = await scrub(['config', 'set', 'output', 'yaml'], env);
    expect(output.code).toBe(2);
    expect(output.stderr).toBe('error: output must be "table" or "json" (got "yaml")\n');

    expect((await scrub(['config', 'list'], env)).stdout).toBe('');
  });

  it('exits 1 when getting a setting that is not set', async () => {
    const result = await scrub(['config', 'get', 'api_url'], env);
    expect(result.code).toBe(1);
    expect(result.stderr).toBe('error: api_url is not set in profile "default"\n');
  });

  it('refuses an API key on the command line', async () => {
    const result = await scrub(['config', 'set', 'api_key', API_KEY], env);
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('secrets never go on the command line');
    expect(result.stderr).toContain('scrub config set api_key -');
    expect(result.stderr).toContain('SCRUB_API_KEY');
    expect(result.stderr).not.toContain(API_KEY);
    expect((await scrub(['config', 'list'], env)).stdout).toBe('');
  });

  it('reads the API key from stdin and never prints it whole', async () => {
    expect((await scrub(['config', 'set', 'api_key', '-'], env, { stdin: `${API_KEY}\n` })).code).toBe(0);

    const masked = 'sk_t…6a3f';
    expect(maskSecret(API_KEY)).toBe(masked);
    expect((await scrub(['config', 'get', 'api_key'], env)).stdout).toBe(`${masked}\n`);
    expect((await scrub(['config', 'list'], env)).stdout).toBe(`api_key=${masked}\n`);
    expect(JSON.parse(readFileSync(join(dir, 'config.json'), 'utf8')).profiles.default.api_key).toBe(API_KEY);
  });

  it('will not read the API key from a terminal, nor accept an empty one', async () => {
    const terminal = await scrub(['config', 'set', 'api_key', '-'], env, { stdinIsTTY: true });
    expect(terminal.code).toBe(2);
    expect(terminal.stderr).toContain('stdin, which is a terminal');

    const empty = await scrub(['config', 'set', 'api_key', '-'], env, { stdin: '\n' });
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('api_key is empty');
  });

  it('keeps profiles apart, chosen by --profile or SCRUB_PROFILE', async () => {
    await scrub(['config', 'set', 'api_url', 'http://localhost:1111'], env);
    await scrub(['--profile', 'ci', 'config', 'set', 'api_url', 'http://localhost:2222'], env);

    expect((await scrub(['config', 'get', 'api_url'], env)).stdout).toBe('http://localhost:1111\n');
    expect((await scrub(['--profile', 'ci', 'config', 'get', 'api_url'], env)).stdout).toBe(
      'http://localhost:2222\n',
    );
    expect((await scrub(['config', 'get', 'api_url'], { ...env, SCRUB_PROFILE: 'ci' })).stdout).toBe(
      'http://localhost:2222\n',
    );
  });

  it("follows the profile's output setting, which --json overrides", async () => {
    await scrub(['config', 'set', 'output', 'json'], env);
    expect(JSON.parse((await scrub(['config', 'get', 'output'], env)).stdout)).toEqual({
      profile: 'default',
      key: 'output',
      value: 'json',
    });
  });
});
