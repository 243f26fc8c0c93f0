import { type RouteSpec, routes } from '@scrub/contract';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createTestIdentity } from '../../test/id-tokens.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';
import { permits } from '../auth/access.js';
import type { CredentialKind } from '../auth/principal.js';

/** Who calls: each role with an ID token, a user's API key, an admin's act-as token, and nobody. */
interface Caller {
  name: string;
  headers: Record<string, string>;
  /** What the access table is asked about; null: no credentials. */
  as: { role: 'User' | 'Agency' | 'Admin' | 'Super Admin'; via: CredentialKind } | null;
}

const SOME_ID = '00000000-0000-4000-8000-000000000000';
const concrete = (path: string) => path.replace(/\{\w+\}/g, SOME_ID);
const all = Object.entries(routes) as [string, RouteSpec][];

let t: TestApp;
const callers: Caller[] = [{ name: 'nobody', headers: {}, as: null }];
let bearer: (role: string, groups: string[]) => Promise<Record<string, string>>;

beforeAll(async () => {
  const id = await createTestIdentity();
  t = await createTestApp({}, { tokenVerifier: id.verifier });
  bearer = async (role: string, groups: string[]) => {
    const headers = {
      authorization: `Bearer ${await id.token({ sub: `sweep-${role}`, email: `${role}@sweep.example`, groups })}`,
    };
    expect((await t.app.inject({ method: 'GET', url: '/user', headers })).statusCode).toBe(200);
    return headers;
  };
  const user = await bearer('user', []);
  const superAdmin = await bearer('super', ['Super Admin']);
  callers.push(
    { name: 'User', headers: user, as: { role: 'User', via: 'token' } },
    { name: 'Agency', headers: await bearer('agency', ['Agency']), as: { role: 'Agency', via: 'token' } },
    { name: 'Admin', headers: await bearer('admin', ['Admin']), as: { role: 'Admin', via: 'token' } },
    { name: 'Super Admin', headers: superAdmin, as: { role: 'Super Admin', via: 'token' } },
  );
  // The key's own account: a Super Admin whose token is not among the callers, so only the sweep's
  // own rotation (with the key) replaces it.
  const keyholder = await bearer('keyholder', ['Super Admin']);
  const key = (await t.app.inject({ method: 'PUT', url: '/apikey', headers: keyholder })).json().api_key;
  callers.push({
    name: "a Super Admin's API key",
    headers: { 'x-api-key': key },
    as: { role: 'Super Admin', via: 'api_key' },
  });
  const userId = (await t.app.inject({ method: 'GET', url: '/user', headers: user })).json().userId;
  const act = await t.app.inject({
    method: 'POST',
    url: `/admin/users/${userId}/act-as`,
    headers: superAdmin,
  });
  callers.push({
    name: 'an act-as token',
    headers: { authorization: `Bearer ${act.json().token}` },
    as: { role: 'User', via: 'act_as' },
  });
}, 60_000);
afterAll(() => t.close());

/** Whether the access table lets this caller through; planned routes are served to nobody. */
function allowed(route: RouteSpec, caller: Caller): boolean {
  if (route.planned) return false;
  if (route.auth === 'none') return true;
  if (route.ownerOnly && caller.as?.via === 'act_as') return false;
  return caller.as !== null && permits(route.auth, { profileId: '', sub: '', email: '', ...caller.as });
}

describe('the role sweep: every contract route, every kind of caller', () => {
  it('answers 2xx only to callers the access table admits, and 401/403/404 to the rest', async () => {
    const unexpected: string[] = [];
    for (const [name, route] of all) {
      for (const caller of callers) {
        const withBody = route.method !== 'GET' && route.method !== 'DELETE';
        const res = await t.app.inject({
          method: route.method,
          url: concrete(route.path),
          headers: { ...caller.headers, ...(withBody ? { 'content-type': 'application/json' } : {}) },
          ...(withBody ? { payload: '{}' } : {}),
        });
        const ok = res.statusCode >= 200 && res.statusCode < 300;
        // Rotating with the key replaces it: the sweep goes on with the new one.
        if (ok && name === 'rotateApiKey' && caller.as?.via === 'api_key') {
          caller.headers = { 'x-api-key': res.json().api_key };
        }
        const refused = [401, 403, 404].includes(res.statusCode);
        if (allowed(route, caller)) {
          if ([401, 403].includes(res.statusCode))
            unexpected.push(`${name} refused ${caller.name}: ${res.statusCode}`);
        } else if (ok || !refused) {
          unexpected.push(`${name} answered ${res.statusCode} to ${caller.name}`);
        }
      }
    }
    expect(unexpected).toEqual([]);
  });

  it('walks every route of the contract, admin ones included', () => {
    const admin = all.filter(([, r]) => r.resource === 'admin').map(([n]) => n);
    expect(admin).toContain('adminListAudit');
    expect(all.length).toBeGreaterThan(30);
  });

  it.each([
    ['Agency', '/admin/audit'],
    ['User', '/admin/users'],
    ['Admin', '/admin/audit'],
    ["a Super Admin's API key", '/admin/users'],
    ['an act-as token', '/admin/users'],
  ])('%s gets 403 on GET %s', async (callerName, url) => {
    const caller = callers.find((c) => c.name === callerName);
    const res = await t.app.inject({ method: 'GET', url, headers: caller?.headers ?? {} });
    expect(res.statusCode).toBe(403);
  });
});

describe('an Agency: its own clients only', () => {
  it("gets 2xx on its own client, 404 on a non-client and on another Agency's client", async () => {
    const agency = callers.find((c) => c.name === 'Agency')?.headers ?? {};
    const idOf = async (headers: Record<string, string>) =>
      (await t.app.inject({ method: 'GET', url: '/user', headers })).json().userId as string;
    const [own, other, otherAgency, stranger] = await Promise.all([
      bearer('own-client', []).then(idOf),
      bearer('other-client', []).then(idOf),
      bearer('other-agency', ['Agency']).then(idOf),
      bearer('stranger', []).then(idOf),
    ]);
    const link = (client: string, agencyId: string) =>
      t.database.db.updateTable('profiles').set({ agency_id: agencyId }).where('id', '=', client).execute();
    await link(own, await idOf(agency));
    await link(other, otherAgency);
    const statuses = async (userId: string) => {
      const answers = await Promise.all(
        [
          ['GET', `/admin/users/${userId}`],
          ['GET', `/admin/users/${userId}/purchases`],
          ['POST', `/admin/users/${userId}/act-as`],
        ].map(([method, url]) => t.app.inject({ method: method as 'GET' | 'POST', url, headers: agency })),
      );
      return answers.map((res) => res.statusCode);
    };
    expect(await statuses(own)).toEqual([200, 200, 200]);
    expect(await statuses(other)).toEqual([404, 404, 404]);
    expect(await statuses(stranger)).toEqual([404, 404, 404]);
    const list = (await t.app.inject({ method: 'GET', url: '/admin/users', headers: agency })).json();
    expect(list.users.map((u: { user_id: string }) => u.user_id)).toEqual([own]);
  });
});
