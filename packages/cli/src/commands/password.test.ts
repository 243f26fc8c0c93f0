import { latestCode, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

let server: RunningServer;

beforeAll(async () => {
  server = await startLocalServer();
});
afterAll(() => server?.close());

const PASSWORD = 'Correct-Horse-9';
let counter = 0;
const newEmail = () => `pw${++counter}.${Date.now()}@example.com`;
const freshEnv = (): NodeJS.ProcessEnv => ({ SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url });

async function account(env: NodeJS.ProcessEnv): Promise<string> {
  const email = newEmail();
  await scrub(['signup', '--email', email, '--password-stdin'], env, { stdin: PASSWORD });
  await scrub(['confirm', '--email', email, '--code', await latestCode(server, email)], env);
  return email;
}

const login = (env: NodeJS.ProcessEnv, email: string, password: string) =>
  scrub(['login', '--email', email, '--password-stdin'], env, { stdin: password });

describe('scrub password forgot and reset', () => {
  it('e-mails a code, sets the new password with it, and the old one stops working', async () => {
    const env = freshEnv();
    const email = await account(env);

    const forgot = await scrub(['password', 'forgot', '--email', email], env);
    expect(forgot).toMatchObject({ code: 0, stdout: '' });
    expect(forgot.stderr).toContain('Password reset code has been sent to your email address.');

    const reset = await scrub(
      ['password', 'reset', '--email', email, '--code', await latestCode(server, email), '--password-stdin'],
      env,
      { stdin: 'New-Horse-10\n' },
    );
    expect(reset.code, reset.stderr).toBe(0);
    expect(reset.stderr).toContain('Password Changed Successfully!');

    expect((await login(env, email, PASSWORD)).code).toBe(3);
    expect((await login(env, email, 'New-Horse-10')).code).toBe(0);
  });

  it('asks twice for the new password at a terminal, and refuses two that differ', async () => {
    const env = freshEnv();
    const email = await account(env);
    await scrub(['password', 'forgot', '--email', email], env);
    const code = await latestCode(server, email);

    const mismatch = await scrub(['password', 'reset', '--email', email, '--code', code], env, {
      answers: ['New-Horse-10', 'New-Horse-01'],
    });
    expect(mismatch.prompts).toEqual(['New password', 'Confirm new password']);
    expect(mismatch).toMatchObject({
      code: 2,
      stderr: 'error: Please make sure Password and Confirm Password match.\n',
    });

    const weak = await scrub(
      ['password', 'reset', '--email', email, '--code', code, '--password-stdin'],
      env,
      {
        stdin: 'weak',
      },
    );
    expect(weak.code).toBe(1);
    expect(weak.stderr).toContain('Password did not conform with policy');
  });
});

describe('scrub password change', () => {
  it('changes the signed-in password, reading the current and the new one from stdin', async () => {
    const env = freshEnv();
    const email = await account(env);
    await login(env, email, PASSWORD);

    const wrong = await scrub(['password', 'change', '--password-stdin'], env, {
      stdin: 'Wrong-Horse-9\nNew-Horse-11\n',
    });
    expect(wrong).toMatchObject({ code: 3, stderr: 'error: Incorrect username or password.\n' });

    const change = await scrub(['password', 'change', '--password-stdin'], env, {
      stdin: `${PASSWORD}\nNew-Horse-11\n`,
    });
    expect(change).toMatchObject({ code: 0, stdout: '', stderr: 'Password Updated Successfully\n' });
    expect((await login(freshEnv(), email, 'New-Horse-11')).code).toBe(0);
  });

  it('asks at a terminal; needs a session; wants two lines on stdin', async () => {
    const env = freshEnv();
    const email = await account(env);
    expect((await scrub(['password', 'change', '--password-stdin'], env, { stdin: 'a\nb\n' })).code).toBe(3);

    await login(env, email, PASSWORD);
    const oneLine = await scrub(['password', 'change', '--password-stdin'], env, { stdin: PASSWORD });
    expect(oneLine).toMatchObject({
      code: 2,
      stderr: 'error: --password-stdin needs 2 lines here: the current password, then the new one\n',
    });

    const asked = await scrub(['password', 'change'], env, {
      answers: [PASSWORD, 'New-Horse-12', 'New-Horse-12'],
    });
    expect(asked.code, asked.stderr).toBe(0);
    expect(asked.prompts).toEqual(['Current password', 'New password', 'Confirm new password']);
  });
});
