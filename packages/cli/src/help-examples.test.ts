import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../test/harness.js';
import { Context } from './context.js';
import { commandPath, HELP_EXAMPLES } from './help-examples.js';
import { processIO } from './io.js';
import { createProgram, run } from './program.js';

function everyCommand(command: Command): Command[] {
  return [command, ...command.commands.flatMap(everyCommand)];
}

const program = createProgram(new Context(processIO(), () => ({ input: false }), run));
const paths = everyCommand(program).map(commandPath);

describe('help examples', () => {
  it('has examples for every command and subcommand, and none for a command that does not exist', () => {
    expect(paths.filter((path) => !HELP_EXAMPLES[path])).toEqual([]);
    expect(Object.keys(HELP_EXAMPLES).filter((path) => !paths.includes(path))).toEqual([]);
  });

  it('shows only examples of the command itself (or its subcommands)', () => {
    for (const [path, examples] of Object.entries(HELP_EXAMPLES)) {
      const words = path === 'scrub' ? [] : path.split(' ');
      for (const example of examples) {
        // The words after `scrub`, global options (and their values) left out.
        const typed = example
          .slice(example.indexOf('scrub'))
          .replace(/--(profile|api-url) \S+/g, '')
          .split(/\s+/)
          .filter((word) => !word.startsWith('-'));
        expect(`${example} -> ${typed.slice(0, words.length + 1).join(' ')}`).toBe(
          `${example} -> ${['scrub', ...words].join(' ')}`,
        );
      }
    }
  });

  it('ends `scrub <command> --help` with them', async () => {
    const result = await scrub(['bulk', '--help'], { SCRUB_CONFIG_DIR: tempConfigDir() });
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('Examples:\n  $ scrub bulk leads.csv --phone-col Phone\n');
    const sub = await scrub(['admin', 'credits', '--help'], { SCRUB_CONFIG_DIR: tempConfigDir() });
    expect(sub.stdout).toContain('$ scrub admin credits sam@example.com +1000');
  });
});
