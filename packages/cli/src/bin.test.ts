import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { tempConfigDir } from '../test/harness.js';

const bin = join(dirname(fileURLToPath(import.meta.url)), '..', 'dist', 'bin.js');

describe('the built scrub binary', () => {
  it('runs through its shebang and returns real exit codes', () => {
    expect(existsSync(bin), `${bin} is missing: build first (pnpm build)`).toBe(true);
    expect(readFileSync(bin, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node');

    // The shebang finds `node` on PATH: put the Node running the tests first.
    const env = {
      PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`,
      SCRUB_CONFIG_DIR: tempConfigDir(),
    };
    const version = spawnSync(bin, ['--version'], { env, encoding: 'utf8' });
    expect(version.status).toBe(0);
    expect(version.stdout).toBe(`${packageJson.version}\n`);

    const usage = spawnSync(bin, ['config', 'get', 'colour'], { env, encoding: 'utf8' });
    expect(usage.status).toBe(2);
    expect(usage.stderr).toContain('error: unknown key "colour"');
  });

  it("keeps its modules' compiled code for the next start, unless told not to", () => {
    // Node's compile cache lives in the temporary directory, which TMPDIR moves.
    const tmp = tempConfigDir();
    const env = { PATH: `${dirname(process.execPath)}:${process.env.PATH ?? ''}`, TMPDIR: tmp };
    const cached = () => readdirSync(tmp, { recursive: true }).length;

    const off = spawnSync(bin, ['--version'], { env: { ...env, NODE_DISABLE_COMPILE_CACHE: '1' } });
    expect(off.status).toBe(0);
    expect(cached()).toBe(0);

    const on = spawnSync(bin, ['--version'], { env });
    expect(on.status).toBe(0);
    // The program's modules, loaded after the cache was enabled, are among the files kept.
    expect(cached()).toBeGreaterThan(3);
  });
});
