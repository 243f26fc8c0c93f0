import { LineTypeSchema } from '@scrub/contract';
import { mappableFields } from '@scrub/sdk';
import { describe, expect, it } from 'vitest';
import packageJson from '../package.json' with { type: 'json' };
import { scrub, tempConfigDir } from '../test/harness.js';

const env = () => ({ SCRUB_CONFIG_DIR: tempConfigDir() });

describe('scrub', () => {
  it('prints the package version', async () => {
    const result = await scrub(['--version'], env());
    expect(result).toEqual({ code: 0, stdout: `${packageJson.version}\n`, stderr: '' });
  });

  it('prints help on stdout and exits 0 with --help', async () => {
    const result = await scrub(['--help'], env());
    expect(result.code).toBe(0);
    expect(result.stdout).toContain('plans');
    // Each resource's one name, with the old name kept beside it.
    for (const named of ['verify|check', 'suppression|dnc', 'account|whoami'])
      expect(result.stdout).toContain(named);
    expect(result.stdout).toContain('--api-url <url>');
    expect(result.stderr).toBe('');
  });

  it('shows help on stderr and exits 2 when no command is given', async () => {
    const result = await scrub([], env());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(result.stderr).toContain('Usage: scrub');
  });

  it('exits 2 with one error line for an unknown command or option', async () => {
    const command = await scrub(['plan'], env());
    expect(command.code).toBe(2);
    expect(command.stderr).toMatch(/^error: unknown command 'plan'/);
    expect(command.stderr).toContain('Did you mean plans?');

    const option = await scrub(['plans', '--colour'], env());
    expect(option.code).toBe(2);
    expect(option.stderr).toBe("error: unknown option '--colour'\n");
  });

  it('exits 2 when a required argument is missing', async () => {
    const result = await scrub(['config', 'get'], env());
    expect(result.code).toBe(2);
    expect(result.stderr).toBe("error: missing required argument 'key'\n");
  });

  it('writes errors as JSON on stderr with --json, keeping stdout for data', async () => {
    const result = await scrub(['--json', 'plans', '--type', 'monthly'], env());
    expect(result.code).toBe(2);
    expect(result.stdout).toBe('');
    expect(JSON.parse(result.stderr)).toEqual({
      error: { code: 'usage', message: '--type must be one of prepaid, postpaid, intro (got "monthly")' },
    });
  });

  it('refuses a malformed --api-url, --profile or SCRUB_API_URL with exit 2, naming the source', async () => {
    const flag = await scrub(['--api-url', 'localhost:8787', 'plans'], env());
    expect(flag.code).toBe(2);
    expect(flag.stderr).toContain('--api-url must be an http:// or https:// URL');

    const variable = await scrub(['plans'], { ...env(), SCRUB_API_URL: 'ftp://example.com' });
    expect(variable.code).toBe(2);
    expect(variable.stderr).toContain('SCRUB_API_URL must be an http:// or https:// URL');

    const profile = await scrub(['--profile', 'my.profile', 'config', 'list'], env());
    expect(profile.code).toBe(2);
    expect(profile.stderr).toContain('--profile must be letters, digits');
  });

  it("lists the contract's mappable fields in scrub bulk --help", async () => {
    const result = await scrub(['bulk', '--help'], env());
    const fields = /fields: ([\w, ]+)/.exec(result.stdout.replace(/\s+/g, ' '))?.[1];
    expect(fields?.trim().split(', ')).toEqual([...mappableFields]);
  });

  it("names the contract's line types in the help of --line-type", async () => {
    for (const command of ['bulk', 'export']) {
      const result = await scrub([command, '--help'], env());
      const types = /line types, comma-separated: ([\w, ]+)/.exec(result.stdout.replace(/\s+/g, ' '))?.[1];
      expect(types?.trim().split(', ').sort()).toEqual([...LineTypeSchema.options].sort());
    }
  });
});
