import { CreatedExistingFileSchema } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { tempDir } from '../../test/temp-dirs.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { ensureProfile } from '../account/profiles.js';
import { rotateApiKey } from '../auth/api-keys.js';

let t: TestApp;
let accounts = 0;

beforeAll(async () => {
  t = await createTestApp({ dataDir: tempDir(), blobStore: { kind: 'local', dir: `${tempDir()}/files` } });
});
afterAll(() => t?.close());

async function account() {
  accounts++;
  const email = `mailer${accounts}@example.com`;
  const { id } = await ensureProfile(t.database.db, {
    sub: `mailer-${accounts}`,
    email,
    name: '',
    role: 'User',
  });
  const { api_key } = await rotateApiKey(t.database.db, id);
  return { email, headers: { 'x-api-key': api_key } };
}

/** A completed file, the quickest way: an existing file sent inline is stored at once. */
async function completedFile(headers: Record<string, string>): Promise<string> {
  const res = await t.app.inject({
    method: 'POST',
    url: '/files/existing',
    headers,
    payload: {
      file_name: 'callable.csv',
      phone_col: 'Phone',
      line_type_col: 'Type',
      csv_content: 'Phone,Type\n(201) 234-5678,mobile\n',
    },
  });
  expect(res.statusCode, res.body).toBe(201);
  return CreatedExistingFileSchema.parse(res.json()).file_reference;
}

const emailFile = (reference: string, headers: Record<string, string>, payload: unknown = {}) =>
  t.app.inject({ method: 'POST', url: `/files/${reference}/email`, headers, payload: payload as object });

const mailsTo = (address: string) =>
  t.database.db
    .selectFrom('mail_outbox')
    .select(['subject', 'text_body'])
    .where('kind', '=', 'file_shared')
    .where('to_address', '=', address)
    .execute();

describe('POST /files/{file_reference}/email (Export: Email)', () => {
  it("mails the file's links to the account's own address, with the filters in the result link", async () => {
    const { email, headers } = await account();
    const reference = await completedFile(headers);

    const res = await emailFile(reference, headers, { line_type: 'mobile,voip', dnc: '0' });

    expect(res.statusCode, res.body).toBe(200);
    expect(res.json()).toEqual({ message: `Sent to ${email}.`, sent_to: [email] });
    const [mail, ...more] = await mailsTo(email);
    expect(more).toEqual([]);
    expect(mail?.subject).toBe('Scrubbed file: callable.csv');
    expect(mail?.text_body).toContain(`/files/${reference}/result?line_type=mobile%2Cvoip&dnc=0`);
    expect(mail?.text_body).toContain('only rows with line type mobile or voip and DNC 0, clean');
    expect(mail?.text_body).toContain(`/fileinfo?file_reference=${reference}`);
  });

  it('sends one mail to each address given, once each', async () => {
    const { headers } = await account();
    const reference = await completedFile(headers);

    const res = await emailFile(reference, headers, {
      to: ['Team@Example.com', 'team@example.com ', 'b@example.com'],
    });

    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().sent_to).toEqual(['team@example.com', 'b@example.com']);
    expect(await mailsTo('team@example.com')).toHaveLength(1);
  });

  it("refuses another account's file as unknown, and sends nothing", async () => {
    const owner = await account();
    const reference = await completedFile(owner.headers);
    const stranger = await account();

    const res = await emailFile(reference, stranger.headers, { to: ['someone@example.com'] });

    expect(res.statusCode).toBe(404);
    expect(res.json().error.message).toBe('No file found');
    expect(await mailsTo('someone@example.com')).toEqual([]);
  });

  it('says what is wrong with the addresses', async () => {
    const { headers } = await account();
    const reference = await completedFile(headers);

    const bad = await emailFile(reference, headers, { to: ['not-an-address'] });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('is not an e-mail address');

    const many = await emailFile(reference, headers, {
      to: ['1', '2', '3', '4', '5', '6'].map((n) => `${n}@example.com`),
    });
    expect(many.statusCode).toBe(400);
    expect(many.body).toContain('takes at most 5 addresses');
  });

  it('answers Results not ready for a file still waiting for its upload', async () => {
    const { headers } = await account();
    const created = await t.app.inject({
      method: 'POST',
      url: '/files/existing',
      headers,
      payload: { file_name: 'later.csv', phone_col: 'Phone', line_type_col: 'Type' },
    });
    const reference = CreatedExistingFileSchema.parse(created.json()).file_reference;

    const res = await emailFile(reference, headers);

    expect(res.statusCode).toBe(409);
    expect(res.json().error.message).toBe('Results not ready');
  });
});
