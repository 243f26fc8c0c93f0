import { execFileSync } from 'node:child_process';
import { describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../../test/harness.js';

const env = () => ({ SCRUB_CONFIG_DIR: tempConfigDir() });

async function script(shell: string): Promise<string> {
  const result = await scrub(['completion', shell], env());
  expect(result.code).toBe(0);
  return result.stdout;
}

/** What bash offers after Tab on `line` (the cursor at its end), with the generated script loaded. */
function bashOffers(completion: string, line: string): string[] {
  const words = line.split(' ');
  const program = `${completion}
COMP_WORDS=(${words.map((word) => `'${word}'`).join(' ')}); COMP_CWORD=${words.length - 1}
_scrub_completion; printf '%s\\n' "\${COMPREPLY[@]}"`;
  return execFileSync('bash', ['-c', program], { encoding: 'utf8' }).split('\n').filter(Boolean);
}

describe('scrub completion', () => {
  it('completes commands, subcommands and each command’s own options in bash', async () => {
    const bash = await script('bash');
    expect(bashOffers(bash, 'scrub bu')).toEqual(['buy', 'bulk']);
    expect(bashOffers(bash, 'scrub admin us')).toEqual(['users', 'user']);
    expect(bashOffers(bash, 'scrub bulk leads.csv --phone')).toEqual(['--phone-col']);
    expect(bashOffers(bash, 'scrub --json verify --')).toContain('--csv');
    expect(bashOffers(bash, 'scrub --json verify --')).not.toContain('--phone-col');
    // An old name kept as an alias completes as its command does.
    expect(bashOffers(bash, 'scrub --json check --')).toContain('--csv');
    expect(bashOffers(bash, 'scrub dnc ex')).toEqual(['export']);
    // A file argument: nothing from the script, so bash's own file-name completion takes over.
    expect(bashOffers(bash, 'scrub bulk lea')).toEqual([]);
    expect(bash).toContain('complete -o default -o bashdefault -F _scrub_completion scrub');
  });

  it('gives zsh the same completions through its bash layer', async () => {
    const zsh = await script('zsh');
    expect(zsh).toContain('bashcompinit');
    expect(zsh).toContain(await script('bash'));
  });

  it('writes fish completions scoped to the command they belong to', async () => {
    const fish = await script('fish');
    expect(fish).toContain("complete -c scrub -f -n '__fish_use_subcommand' -a bulk -d");
    expect(fish).toMatch(
      /complete -c scrub -f -n '__fish_seen_subcommand_from admin; and not __fish_seen_subcommand_from [^']*users[^']*' -a users/,
    );
    expect(fish).toContain("complete -c scrub -n '__fish_seen_subcommand_from bulk' -l phone-col -r -d");
  });

  it('refuses a shell it does not know with exit 2, naming the choices', async () => {
    const result = await scrub(['completion', 'powershell'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toContain('Allowed choices are bash, zsh, fish');
  });
});
