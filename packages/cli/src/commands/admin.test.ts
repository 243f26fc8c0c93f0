import { describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../../test/harness.js';

describe('scrub admin: usage', () => {
  const env = {
    SCRUB_CONFIG_DIR: tempConfigDir(),
    SCRUB_API_KEY: 'scrub_unused',
    SCRUB_API_URL: 'http://127.0.0.1:9',
  };

  it.each([
    [['credits', 'pat@example.com', '+10'], '--reason is required'],
    [['credits', 'pat@example.com', 'ten', '--reason', 'x'], 'the change must be +N or -N'],
    [['credits', 'pat@example.com', '+0', '--reason', 'x'], 'the change must be +N or -N'],
    [['users', '--role', 'Boss'], '--role must be one of User, Agency, Admin, Super Admin'],
    [['users', '--all', '--page', '2'], '--all lists every page: leave out --page'],
    [
      ['create', '--email', 'pat@example.com', '--type', 'owner'],
      '--type must be one of user, agency, admin, super_admin',
    ],
    [['create', '--email', 'pat@example.com'], 'scrub admin create needs a password'],
    [['edit', 'pat@example.com', '--agency', ' '], '--agency cannot be empty'],
    [['audit', '--user', 'pat'], '--user takes an account id'],
    [['refund', 'pat@example.com', '00000000-0000-4000-8000-000000000001', '--yes'], '--reason is required'],
    [['refund', 'pat@example.com', 'p-1', '--reason', 'x'], 'the purchase id'],
    [
      [
        'refund',
        'pat@example.com',
        '00000000-0000-4000-8000-000000000001',
        '--amount',
        '2.505',
        '--reason',
        'x',
      ],
      '--amount takes whole cents',
    ],
    [['as', 'pat@example.com'], "missing required argument 'command'"],
  ])('refuses %j with exit 2', async (args, message) => {
    const result = await scrub(['admin', ...args], env);
    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });

  it('lists its commands', async () => {
    const result = await scrub(['admin', '--help'], env);
    for (const name of [
      'users',
      'user',
      'create',
      'edit',
      'disable',
      'enable',
      'credits',
      'purchases',
      'refund',
      'audit',
      'as',
    ]) {
      expect(result.stdout).toMatch(new RegExp(`^  ${name} `, 'm'));
    }
  });
});
