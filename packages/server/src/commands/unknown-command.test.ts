import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { Command, CommanderError } from 'commander';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { handleError, throwInsteadOfExiting } from './handle-error.js';
import { refuseUnknownCommand } from './unknown-command.js';

/** scrub-server's shape: a default `start`, and other commands. */
function program() {
  let errors = '';
  const started: string[][] = [];
  const root = new Command('scrub-server')
    .enablePositionalOptions()
    .addCommand(
      new Command('start').option('--quiet').action(function (this: Command) {
        started.push(this.args);
      }),
      { isDefault: true },
    )
    .addCommand(new Command('migrate'))
    .addCommand(new Command('data').alias('reference-data'))
    .configureOutput({ writeErr: (text) => (errors += text), writeOut: () => {} });
  for (const command of root.commands) command.configureOutput({ writeErr: (text) => (errors += text) });
  throwInsteadOfExiting(root);
  const run = async (...args: string[]) => {
    try {
      refuseUnknownCommand(root, args);
      await root.parseAsync(args, { from: 'user' });
      return 0;
    } catch (error) {
      return handleError(error, { write: () => {} });
    }
  };
  return { run, started, errors: () => errors };
}

describe('scrub-server <unknown command>', () => {
  it('answers "unknown command" with the list of commands, and exits 2', async () => {
    const cli = program();
    expect(await cli.run('backup', 'x')).toBe(2);
    expect(cli.errors()).toBe(
      "error: unknown command 'backup'\nCommands: start, migrate, data. See scrub-server --help.\n",
    );
    expect(cli.started).toEqual([]);
  });

  it('keeps no command meaning start, with its options, and known commands and aliases', async () => {
    const cli = program();
    expect(await cli.run()).toBe(0);
    expect(await cli.run('--quiet')).toBe(0);
    expect(await cli.run('start', '--quiet')).toBe(0);
    expect(cli.started).toHaveLength(3);
    expect(await cli.run('reference-data')).toBe(0);
    expect(await cli.run('--help')).toBe(0);
    // start itself still refuses what it does not take.
    expect(await cli.run('start', 'extra')).toBe(2);
    expect(cli.errors()).toMatch(/too many arguments for 'start'/);
  });

  it('throws a usage error commander made, which the funnel turns into exit 2', () => {
    const root = new Command('x').addCommand(new Command('start'), { isDefault: true });
    root.configureOutput({ writeErr: () => {} });
    throwInsteadOfExiting(root);
    expect(() => refuseUnknownCommand(root, ['nope'])).toThrow(CommanderError);
  });
});

const bin = join(import.meta.dirname, '..', '..', 'dist', 'bin.js');

describe.runIf(existsSync(bin))('scrub-server <unknown command> (built)', () => {
  it('refuses it before starting anything', () => {
    const dataDir = tempDir('scrub-unknown-');
    const run = spawnSync(process.execPath, [bin, 'bakup', 'x'], {
      env: { ...process.env, SCRUB_DATA_DIR: dataDir, SCRUB_PORT: '0' },
      encoding: 'utf8',
    });
    expect(run.status).toBe(2);
    expect(run.stderr).toMatch(/^error: unknown command 'bakup'\nCommands: start, migrate, /);
    expect(run.stderr).toMatch(/, backup, restore\. See scrub-server --help\.\n$/);
    expect(run.stdout).toBe('');
  });
});
