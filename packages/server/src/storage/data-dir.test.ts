import { chmodSync, lstatSync, mkdirSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { secureDataDir } from './data-dir.js';

const modeOf = (path: string) => (lstatSync(path).mode & 0o777).toString(8);

describe('the data directory', () => {
  it('is created owner-only when missing', () => {
    const dir = join(tempDir(), 'a', 'data');
    secureDataDir(dir);
    expect(modeOf(dir)).toBe('700');
  });

  it('is not created when the setup keeps nothing there', () => {
    const dir = join(tempDir(), 'unused');
    secureDataDir(dir, { create: false });
    expect(() => lstatSync(dir)).toThrow(/ENOENT/);
  });

  it('has everything under it made owner-only: 0700 directories, 0600 files, however deep', () => {
    const dir = tempDir();
    chmodSync(dir, 0o755);
    let deep = dir;
    for (let i = 0; i < 50; i++) {
      deep = join(deep, `d${i}`);
      mkdirSync(deep, { mode: 0o777 });
      chmodSync(deep, 0o777);
      writeFileSync(join(deep, 'f'), 'x');
      chmodSync(join(deep, 'f'), 0o666);
    }
    symlinkSync('/etc/hostname', join(dir, 'link'));
    secureDataDir(dir);
    const paths = [dir, ...readdirSync(dir, { recursive: true }).map((p) => join(dir, String(p)))];
    const modes = new Set(paths.filter((p) => !lstatSync(p).isSymbolicLink()).map(modeOf));
    expect(modes).toEqual(new Set(['700', '600']));
    expect(modeOf('/etc/hostname')).not.toBe('600');
  });

  it.each(['777', '775', '757', '773'])('is refused when others can write to it (mode %s)', (mode) => {
    const dir = tempDir();
    chmodSync(dir, Number.parseInt(mode, 8));
    expect(() => secureDataDir(dir)).toThrow(
      new RegExp(`${dir} can be written by other users \\(mode ${mode}\\).*chmod -R go-rwx ${dir}`),
    );
    expect(modeOf(dir)).toBe(mode);
  });

  it('is refused when it is a file', () => {
    const file = join(tempDir(), 'file');
    writeFileSync(file, '');
    expect(() => secureDataDir(file)).toThrow(/is not a directory/);
  });
});
