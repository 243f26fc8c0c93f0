import { describe, expect, it } from 'vitest';
import { type RunResult, type ScrubOptions, scrub, scrubServer, startServer, tempDir } from './harness.js';

const BOSS = 'boss@example.com';
const PASSWORD = 'Correct-Horse-9';
const withPassword = { input: `${PASSWORD}\n` };

const json = (result: RunResult) => JSON.parse(result.stdout);

describe('the admin area, on the built binaries', () => {
  // One story: every step needs the one before.
  it('the first admin runs accounts: create, credits, act as, disable, enable; an Agency sees its client; others get 403', async () => {
    // No worker: a submitted job stays queued, so disabling its owner has a queued job to fail.
    const server = await startServer(tempDir('data-'), {
      SCRUB_ADMIN_EMAILS: BOSS,
      SCRUB_BULK_WORKER: 'false',
    });
    const at = ['--api-url', server.url];
    const cli = (dir: string) => (args: string[], options?: ScrubOptions) =>
      scrub([...at, ...args], dir, options);
    const boss = cli(tempDir('boss-'));

    // The first admin signs up like anyone; the verified address makes them Super Admin.
    expect(await boss(['signup', '--email', BOSS, '--password-stdin'], withPassword)).toMatchObject({
      code: 0,
    });
    const mail = await scrubServer(['mail', '--to', BOSS, '--last'], server.dataDir);
    const code = /^Subject: Your Scrub verification code: (\d{6})$/m.exec(mail.stdout)?.[1] ?? '';
    expect(await boss(['confirm', '--email', BOSS, '--code', code])).toMatchObject({ code: 0 });
    expect(await boss(['login', '--email', BOSS, '--password-stdin'], withPassword)).toMatchObject({
      code: 0,
    });

    const create = (email: string, type: string) =>
      boss(['admin', 'create', '--email', email, '--type', type, '--password-stdin', '--json'], withPassword);
    const created = await create('pat@example.com', 'user');
    expect(created, 'scrub admin create').toMatchObject({ code: 0 });
    expect(json(created)).toMatchObject({ email: 'pat@example.com', role_name: 'User', status: 'active' });
    expect((await create('agent@example.com', 'agency')).code).toBe(0);

    const grant = await boss(['admin', 'credits', 'pat@example.com', '+10', '--reason', 'welcome']);
    expect(grant, 'scrub admin credits').toMatchObject({ code: 0, stdout: '10\n' });

    // Acting as Pat: the check is Pat's, paid by Pat, and the audit log says who did it.
    const check = await boss(['admin', 'as', 'pat@example.com', '--', 'verify', '2012345678', '--json']);
    expect(check, `scrub admin as -- check: ${check.stderr}`).toMatchObject({ code: 0 });
    expect(json(check)).toMatchObject({ phone_number: expect.any(String), credits_remaining: 9 });
    const audit = json(await boss(['admin', 'audit', '--json']));
    expect(audit.entries).toContainEqual(
      expect.objectContaining({
        action: 'act_as.request',
        actor_email: BOSS,
        subject_email: 'pat@example.com',
        detail: expect.objectContaining({ path: '/verify', status: 200 }),
      }),
    );
    expect(audit.entries).toContainEqual(
      expect.objectContaining({ action: 'credits.adjust', actor_email: BOSS }),
    );

    // An act-as token cannot act as someone else.
    const chained = await boss([
      'admin',
      'as',
      'pat@example.com',
      '--',
      'admin',
      'as',
      'agent@example.com',
      '--',
      'whoami',
    ]);
    expect(chained.code, chained.stderr).toBe(1);
    expect(chained.stderr).toContain('Access Denied');

    // Pat: a session, a key, and a queued job of 3 numbers.
    const pat = cli(tempDir('pat-'));
    expect(
      await pat(['login', '--email', 'pat@example.com', '--password-stdin'], withPassword),
    ).toMatchObject({ code: 0 });
    const key = (await pat(['key', 'rotate', '--yes'])).stdout.trim();
    const withKey = { env: { SCRUB_API_KEY: key } };
    const csv = 'Phone\n2012345678\n2012345679\n2012345680\n';
    const bulk = await pat(['bulk', '-', '--phone-col', 'Phone', '--json'], { input: csv });
    expect(bulk, 'scrub bulk').toMatchObject({ code: 0 });
    const jobId = json(bulk).job_id as string;
    expect(json(await pat(['credits', '--json'], withKey)).credits).toBe(6);

    // A plain user gets 403 on admin routes; an Agency sees its own client only, and no one else.
    expect((await pat(['admin', 'users'])).stderr).toContain('Access Denied');
    const client = await boss(
      [
        'admin',
        'create',
        '--email',
        'client@example.com',
        '--agency',
        'agent@example.com',
        '--password-stdin',
      ],
      withPassword,
    );
    expect(client, 'scrub admin create --agency').toMatchObject({ code: 0 });
    const agent = cli(tempDir('agent-'));
    expect(
      await agent(['login', '--email', 'agent@example.com', '--password-stdin'], withPassword),
    ).toMatchObject({ code: 0 });
    const clients = await agent(['admin', 'users', '--all', '--json']);
    expect(
      clients.stdout
        .trim()
        .split('\n')
        .map((line) => JSON.parse(line).email),
    ).toEqual(['client@example.com']);
    const notClient = await agent(['admin', 'user', 'pat@example.com']);
    expect(notClient.code).not.toBe(0);
    expect(notClient.stderr).toContain('No account for pat@example.com');
    expect((await agent(['admin', 'credits', 'client@example.com', '+5', '--reason', 'x'])).stderr).toContain(
      'Access Denied',
    );

    // Disabled: the key and the session stop at once; the queued job fails and gives its credits back.
    expect(await boss(['admin', 'disable', 'pat@example.com'])).toMatchObject({ code: 0 });
    expect((await pat(['credits'], withKey)).code).toBe(3);
    expect((await pat(['credits'])).code).toBe(3);
    const info = json(await boss(['admin', 'user', 'pat@example.com', '--json']));
    expect(info).toMatchObject({ status: 'disabled', credits: 9 });

    // Enabled again: the key works, and the job is failed, refunded.
    expect(await boss(['admin', 'enable', 'pat@example.com'])).toMatchObject({ code: 0 });
    expect(json(await pat(['credits', '--json'], withKey)).credits).toBe(9);
    const job = json(await pat(['jobs', 'show', jobId, '--json'], withKey));
    expect(job).toMatchObject({ status: 'failed', credits_charged: 3, credits_reversed: 3 });
  }, 120_000);
});
