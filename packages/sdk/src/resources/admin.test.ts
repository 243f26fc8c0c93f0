import type { ManagedUser } from '@scrub/contract';
import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from '../client.js';
import { InsufficientCreditsError, PermissionDeniedError } from '../errors.js';

const BASE = 'http://scrub.test';
const scrub = () =>
  new Scrub({
    baseURL: BASE,
    apiKey: null,
    defaultHeaders: { authorization: 'Bearer admin' },
    maxRetries: 0,
  });
const user = (n: number): ManagedUser => ({
  user_id: `id-${n}`,
  full_name: '',
  email: `u${n}@example.com`,
  role_name: 'User',
  avatar: null,
  credits: n,
  status: 'active',
  created_at: '2026-01-01T00:00:00.000Z',
  last_sign_in_at: null,
  agency: null,
});

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('admin.users', () => {
  it('lists one page, or every user of every page with for await', async () => {
    const scope = nock(BASE)
      .get('/admin/users')
      .query({ page: '1', search: 'u', role: 'User' })
      .reply(200, { users: [user(1), user(2)], page: 1, total_pages: 2, total_users_count: 3 })
      .get('/admin/users')
      .query({ page: '2', search: 'u', role: 'User' })
      .reply(200, { users: [user(3)], page: 2, total_pages: 2, total_users_count: 3 });
    const emails: string[] = [];
    for await (const u of scrub().admin.users.list({ search: 'u', role: 'User' })) emails.push(u.email);
    expect(emails).toEqual(['u1@example.com', 'u2@example.com', 'u3@example.com']);
    scope.done();
  });

  it('awaits one page with its fields', async () => {
    nock(BASE)
      .get('/admin/users')
      .query({ page: '1' })
      .reply(200, { users: [user(1)], page: 1, total_pages: 1, total_users_count: 1 });
    const page = await scrub().admin.users.list();
    expect(page.total_users_count).toBe(1);
    expect(page.hasNextPage()).toBe(false);
    expect(JSON.parse(JSON.stringify(page))).toEqual({
      users: [user(1)],
      page: 1,
      total_pages: 1,
      total_users_count: 1,
    });
  });

  it('creates, updates, disables, enables and resets passwords on the contract paths', async () => {
    const scope = nock(BASE)
      .post('/admin/users', { le: 'a@b.co', lp: 'Pw-123456', lp_confirm: 'Pw-123456', ut: 'user' })
      .reply(201, user(1))
      .put('/admin/users/a%40b.co', { lp: '' })
      .reply(200, { message: 'User updated successfully' })
      .delete('/admin/users/id-1')
      .reply(200, { message: 'User deleted successfully' })
      .post('/admin/users/id-1/enable')
      .reply(200, { message: 'User enabled successfully' })
      .put('/admin/users/id-1/password', { password: 'Pw-654321', confirm_password: 'Pw-654321' })
      .reply(200, { message: 'Password reset successfully' })
      .get('/admin/users/id-1/purchases')
      .query(true)
      .reply(200, { purchases: [] });
    const users = scrub().admin.users;
    await users.create({ le: 'a@b.co', lp: 'Pw-123456', lp_confirm: 'Pw-123456', ut: 'user' });
    await users.update('a@b.co', { lp: '' });
    await users.disable('id-1');
    await users.enable('id-1');
    await users.resetPassword('id-1', 'Pw-654321');
    expect(await users.purchases('id-1')).toEqual({ purchases: [] });
    scope.done();
  });

  it('adjusts credits with a reason and maps the refusals to error classes', async () => {
    nock(BASE)
      .post('/admin/users/id-1/credits', { plan_credits: -5, reason: 'refund' })
      .reply(402, {
        error: { code: 'insufficient_credits', message: 'Not enough credits' },
        message: 'Not enough credits',
        credits_required: 5,
        credits_available: 1,
      })
      .post('/admin/users/id-2/credits', { plan_credits: 5, reason: 'gift' })
      .reply(403, { error: { code: 'forbidden', message: 'Access Denied' }, message: 'Access Denied' });
    await expect(scrub().admin.users.adjustCredits('id-1', -5, 'refund')).rejects.toBeInstanceOf(
      InsufficientCreditsError,
    );
    await expect(scrub().admin.users.adjustCredits('id-2', 5, 'gift')).rejects.toBeInstanceOf(
      PermissionDeniedError,
    );
  });

  it('acts as a user: the token goes as the bearer of a client of its own', async () => {
    nock(BASE).post('/admin/users/id-1/act-as').reply(200, {
      token: 'act.as.token',
      expires_at: '2026-01-01T00:15:00.000Z',
      user_id: 'id-1',
      email: 'u1@example.com',
    });
    const admin = scrub();
    const token = await admin.admin.users.actAs('id-1');
    const scope = nock(BASE, { reqheaders: { authorization: 'Bearer act.as.token' } })
      .get('/credits')
      .reply(200, {
        credits: 1,
        credits_remaining: 1,
        has_unlimited: false,
        user_plan: { plan_reference: null, plan_status: 'active', plan_name: 'Pay as you go' },
        subscription_status: 'none',
      });
    await admin.admin.users.asUser(token).credits.get();
    scope.done();
  });
});

describe('admin.audit', () => {
  it('walks the audit log page by page', async () => {
    const entry = (id: string) => ({
      id,
      at: '2026-01-01T00:00:00.000Z',
      actor_id: 'a',
      actor_email: 'boss@example.com',
      subject_id: null,
      subject_email: null,
      action: 'user.create',
      detail: {},
      request_id: null,
    });
    nock(BASE)
      .get('/admin/audit')
      .query({ page: '1' })
      .reply(200, { entries: [entry('2')], page: 1, total_pages: 2, total_entries_count: 2 })
      .get('/admin/audit')
      .query({ page: '2' })
      .reply(200, { entries: [entry('1')], page: 2, total_pages: 2, total_entries_count: 2 });
    const ids: string[] = [];
    for await (const e of scrub().admin.audit.list()) ids.push(e.id);
    expect(ids).toEqual(['2', '1']);
  });
});
