import { Scrub } from '@scrub/sdk';
import { accountWithApiKey, startLocalServer } from '@scrub/test-support/local-server';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, scrub, tempConfigDir } from '../../test/harness.js';

describe('scrub files delete against the real server', () => {
  let server: RunningServer;

  beforeAll(async () => {
    server = await startLocalServer();
  }, 120_000);
  afterAll(() => server?.close());

  it('asks first, deletes with --yes, shows the file as deleted; its download then says when and why', async () => {
    const apiKey = await accountWithApiKey(server, {
      sub: 'cli-file-delete',
      email: 'clifiledelete@example.com',
      credits: 10,
    });
    const sdk = new Scrub({ baseURL: server.url, apiKey });
    const created = await sdk.bulk.create({
      file_name: 'leads.csv',
      phone_col: 'Phone',
      csv_content: 'Name,Phone\nAnn,201-234-0001\n',
    });
    await sdk.bulk.submit(created.job_id);
    const job = await sdk.bulk.wait(created.job_id);
    const env = { SCRUB_CONFIG_DIR: tempConfigDir(), SCRUB_API_URL: server.url, SCRUB_API_KEY: apiKey };

    const listed = await scrub(['files'], env);
    expect(listed.stdout).toMatch(new RegExp(`${job.file_reference}\\t\\d{4}-\\d\\d-\\d\\d\\n`));

    const unasked = await scrub(['files', 'delete', job.file_reference], env);
    expect(unasked.code).toBe(2);
    expect(unasked.stderr).toContain('pass --yes');

    const deleted = await scrub(['files', 'delete', job.file_reference, '--yes'], env);
    expect(deleted.code, deleted.stderr).toBe(0);
    expect(deleted.stdout).toContain('Deleted the upload and result of leads.csv');

    const after = await scrub(['files'], env);
    expect(after.stdout).toMatch(new RegExp(`${job.file_reference}\\tdeleted \\d{4}-\\d\\d-\\d\\d\\n`));
    const download = await scrub(['export', job.file_reference], env);
    expect(download.code).not.toBe(0);
    expect(download.stderr).toContain('its owner deleted it');
  }, 60_000);
});
