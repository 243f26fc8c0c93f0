import { ErrorEnvelopeSchema, pathFor, pathParamNames, type RouteSpec, routes } from '@scrub/contract';
import type { InjectOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { createTestIdentity, type TestIdentity } from '../test/id-tokens.js';
import { createTestApp, type TestApp } from '../test/test-app.js';
import { applyLedgerEntry } from './account/ledger.js';
import { ensureProfile } from './account/profiles.js';
import { rotateApiKey } from './auth/api-keys.js';

/**
 * The bad-input suite: malformed phones, JSON, CSV files, headers, tokens and paths sent to every
 * route of the contract, each answered with a clear 4xx in the error envelope and never a 5xx.
 * Most cases are generated from the route table and its schemas, so a new route is covered the day
 * it is written. One server for the whole file.
 */

interface Case {
  name: string;
  request: InjectOptions;
}

let t: TestApp;
let id: TestIdentity;
let userToken: string;
let adminToken: string;
let apiKey: string;

const served = Object.entries(routes).filter(([, r]) => !('planned' in r && r.planned)) as [
  string,
  RouteSpec,
][];
const withAuth = served.filter(([, r]) => r.auth !== 'none');

beforeAll(async () => {
  id = await createTestIdentity();
  t = await createTestApp({}, { tokenVerifier: id.verifier });
  userToken = await id.token({ sub: 'bad-input-user', email: 'user@bad-input.test' });
  adminToken = await id.token({
    sub: 'bad-input-admin',
    email: 'admin@bad-input.test',
    groups: ['Super Admin'],
  });
  const profile = await ensureProfile(t.database.db, {
    sub: 'bad-input-key',
    email: 'key@bad-input.test',
    name: '',
    role: 'User',
  });
  await applyLedgerEntry(t.database.db, { profileId: profile.id, delta: 5, kind: 'grant' });
  apiKey = (await rotateApiKey(t.database.db, profile.id)).api_key;
});
afterAll(() => t?.close());

/** The credentials a route admits, so that the input, not the caller, is what gets refused. */
function credentialsFor(route: RouteSpec): Record<string, string> {
  if (route.auth === 'none') return {};
  return { authorization: `Bearer ${route.auth === 'user' ? userToken : adminToken}` };
}

const samplePath = (route: RouteSpec, value = 'x') =>
  pathFor(route.path, Object.fromEntries(pathParamNames(route.path).map((n) => [n, value])));

/** What a field of an object schema is, under optional, default and nullable. */
function kindOf(schema: z.ZodType): { type: string; maxLength?: number } {
  let inner: z.ZodType = schema;
  for (;;) {
    if (inner instanceof z.ZodOptional || inner instanceof z.ZodNullable || inner instanceof z.ZodDefault) {
      inner = inner.unwrap() as z.ZodType;
    } else if (inner instanceof z.ZodPipe) {
      inner = inner.in as z.ZodType;
    } else break;
  }
  if (inner instanceof z.ZodString) return { type: 'string', maxLength: inner.maxLength ?? undefined };
  return { type: inner.def.type };
}

function shapeOf(schema: z.ZodType | undefined): Record<string, z.ZodType> {
  let inner = schema;
  while (inner instanceof z.ZodPipe) inner = inner.in as z.ZodType;
  return inner instanceof z.ZodObject ? (inner.shape as Record<string, z.ZodType>) : {};
}

async function badTokens(): Promise<[string, string][]> {
  const person = { sub: 'bad-input-user', email: 'user@bad-input.test' };
  return [
    ['an empty bearer', ''],
    ['a bearer that is not a JWT', 'not-a-jwt'],
    ['a bearer of three dots', '...'],
    ['a bearer of base64 junk', 'eyJhbGciOiJSUzI1NiJ9.eyJzdWIiOiJ4In0.c2ln'],
    ['an unsigned token (alg none)', id.unsignedToken(person)],
    ['an HS256 token', await id.hmacToken(person)],
    ['an expired token', await id.token(person, { expiresIn: -3600 })],
    ['a token signed by another key', await id.token(person, { foreignKey: true })],
    ['an access token', await id.token(person, { tokenUse: 'access' })],
    ['a token of another issuer', await id.token(person, { issuer: 'https://evil.example/pool' })],
    ['a token issued an hour from now', await id.token(person, { issuedAt: 3600 })],
    ['an API key as bearer', apiKey],
  ];
}

function tokenCases(tokens: [string, string][]): Case[] {
  const cases: Case[] = [];
  for (const [name, route] of withAuth) {
    const url = samplePath(route);
    const method = route.method;
    cases.push({ name: `${method} ${route.path} with no credentials`, request: { method, url } });
    cases.push({
      name: `${method} ${route.path} with a malformed API key`,
      request: { method, url, headers: { 'x-api-key': 'scrub_short' } },
    });
    cases.push({
      name: `${method} ${route.path} with Authorization: Basic`,
      request: { method, url, headers: { authorization: 'Basic dXNlcjpwYXNz' } },
    });
    // Every bad token on the first route and on every admin route.
    if (name !== withAuth[0]?.[0] && route.auth === 'user') continue;
    for (const [what, token] of tokens) {
      cases.push({
        name: `${method} ${route.path} with ${what}`,
        request: { method, url, headers: { authorization: `Bearer ${token}` } },
      });
    }
  }
  return cases;
}

function pathCases(): Case[] {
  const cases: Case[] = [];
  const badSegments = ['x'.repeat(5000), '%00', '%E0%A4%A', '%ZZ', '..%2F..%2Fetc', '%2e%2e', 'a%20b'];
  for (const [, route] of served) {
    const headers = credentialsFor(route);
    cases.push({
      name: `${route.method} ${route.path}/ (trailing slash)`,
      request: { method: route.method, url: `${samplePath(route)}/`, headers },
    });
    if (pathParamNames(route.path).length === 0) continue;
    for (const segment of badSegments) {
      cases.push({
        name: `${route.method} ${route.path} with the segment ${segment.slice(0, 20)}`,
        request: { method: route.method, url: samplePath(route, segment), headers },
      });
    }
  }
  for (const url of [
    '/nope',
    '/nope/',
    '/plans/x',
    '//plans',
    '/verify/',
    '/%',
    '/%E0%A4%A',
    '/files/',
    '/admin/',
  ]) {
    cases.push({ name: `GET ${url}`, request: { method: 'GET', url } });
  }
  return cases;
}

function queryCases(): Case[] {
  const cases: Case[] = [];
  for (const [, route] of served) {
    const shape = shapeOf(route.query);
    const headers = credentialsFor(route);
    for (const [field, schema] of Object.entries(shape)) {
      if (field === 'k') continue;
      const { type, maxLength } = kindOf(schema);
      const values = ['%00'];
      if (type === 'number') values.push('abc', '-1', '1e999');
      if (type === 'enum') values.push('not-a-value');
      if (type === 'string' && maxLength !== undefined) values.push('a'.repeat(maxLength + 1));
      for (const value of values) {
        const query = `${field}=${value}`;
        cases.push({
          name: `${route.method} ${route.path}?${query.slice(0, 30)}`,
          request: { method: route.method, url: `${samplePath(route)}?${query}`, headers },
        });
      }
    }
  }
  return cases;
}

/** /verify requests that are no request for a number: refused before anything is looked up. */
const badPhoneQueries = [
  '',
  'p=',
  `p=${'1'.repeat(300)}`,
  'p=%00',
  'p=2015550123%00',
  'p=2015550123&p=2015550124',
  'q=2015550123',
  'p[]=2015550123',
];

function phoneCases(): Case[] {
  return badPhoneQueries.map((query) => ({
    name: `GET /verify?${query.slice(0, 30)}`,
    request: { method: 'GET', url: `/verify?${query}`, headers: { 'x-api-key': apiKey } },
  }));
}

/** Text that is no US number: an answer (`invalid`, with the reason), never a charge. */
const notUsNumbers = [
  ' ',
  'abc',
  '123',
  '12345678901234567890',
  '+44 20 7946 0958',
  '+1',
  '2015550123'.repeat(5),
  "=cmd|'/c calc'!A1",
  '<script>',
  '911',
  '0000000000',
];

function deepJson(depth: number): string {
  return `${'['.repeat(depth)}${']'.repeat(depth)}`;
}

function bodyCases(): Case[] {
  const cases: Case[] = [];
  const json = { 'content-type': 'application/json' };
  const raw: [string, Record<string, string>, string][] = [
    ['invalid JSON', json, '{"a":'],
    ['a JSON array', json, '[1,2,3]'],
    ['a JSON string', json, '"text"'],
    ['JSON null', json, 'null'],
    ['an empty JSON body', json, ''],
    ['JSON nested 8,000 deep', json, deepJson(8000)],
    ['an object nested 200 deep', json, `${'{"a":'.repeat(200)}1${'}'.repeat(200)}`],
    ['a text/plain body', { 'content-type': 'text/plain' }, 'hello'],
    ['an XML body', { 'content-type': 'application/xml' }, '<a/>'],
    ['a form body', { 'content-type': 'application/x-www-form-urlencoded' }, 'a=1'],
    ['a multipart body', { 'content-type': 'multipart/form-data; boundary=x' }, '--x--'],
    ['a bad content type', { 'content-type': '///' }, '{}'],
    ['a NUL in a JSON key', json, '{"a\\u0000":1}'],
  ];
  for (const [, route] of served) {
    if (route.method === 'GET') continue;
    const url = samplePath(route);
    const headers = credentialsFor(route);
    for (const [what, type, payload] of raw) {
      // A route without a body takes none, so only the ones that fail on any route apply.
      if (
        !route.body &&
        !['invalid JSON', 'JSON nested 8,000 deep', 'a text/plain body', 'an XML body'].includes(what)
      )
        continue;
      cases.push({
        name: `${route.method} ${route.path} with ${what}`,
        request: { method: route.method, url, headers: { ...headers, ...type }, payload },
      });
    }
    for (const [field, schema] of Object.entries(shapeOf(route.body))) {
      const { type } = kindOf(schema);
      cases.push({
        name: `${route.method} ${route.path} with ${field} a nested array`,
        request: { method: route.method, url, headers, payload: { [field]: [[[]]] } },
      });
      if (type === 'string') {
        cases.push({
          name: `${route.method} ${route.path} with ${field} 70,000 characters long`,
          request: { method: route.method, url, headers, payload: { [field]: 'a'.repeat(70_000) } },
        });
      }
    }
  }
  return cases;
}

/** CSV files the inline variant of POST /bulk/jobs cannot scrub: refused before any credit is taken. */
function csvCases(): Case[] {
  const files: [string, string, string | number][] = [
    ['an empty file', '', 'phone'],
    ['a header only', 'phone\n', 'phone'],
    ['a missing phone column', 'name,city\nann,nyc\n', 'phone'],
    ['a column index past the last', 'phone\n2015550123\n', 7],
    ['blank lines only', '\n\n\n', 'phone'],
    ['a NUL byte', 'phone\n2015550123\u0000\n', 'phone'],
    ['an unclosed quote', 'phone\n"2015550123\n', 'phone'],
  ];
  return files.map(([what, csv, phoneCol]) => ({
    name: `POST /bulk/jobs with ${what}`,
    request: {
      method: 'POST',
      url: '/bulk/jobs',
      headers: { 'x-api-key': apiKey },
      payload: { file_name: 'leads.csv', phone_col: phoneCol, csv_content: csv },
    },
  }));
}

/** The routes outside the contract that answer in the API's envelope: upload URLs and the payment webhook. */
function offContractCases(): Case[] {
  const upload = '/uploads/uploads/abc.csv';
  const csv = { 'content-type': 'text/csv' };
  return [
    ['PUT an upload URL without its signature', 'PUT', upload, csv, 'Phone\n'],
    [
      'PUT an upload URL with a forged signature',
      'PUT',
      `${upload}?expires=9999999999&max_bytes=10&content_type=text%2Fcsv&signature=AAAA`,
      csv,
      'Phone\n',
    ],
    [
      'PUT an upload URL with an expiry in the past',
      'PUT',
      `${upload}?expires=1&max_bytes=10&content_type=text%2Fcsv&signature=AAAA`,
      csv,
      'x',
    ],
    ['PUT an upload URL with a key that climbs out', 'PUT', '/uploads/..%2F..%2Fetc%2Fpasswd', csv, 'x'],
    ['PUT an upload URL with a NUL in the key', 'PUT', '/uploads/a%00b', csv, 'x'],
    [
      'POST the webhook without a signature',
      'POST',
      '/webhooks/stripe',
      { 'content-type': 'application/json' },
      '{}',
    ],
    [
      'POST the webhook with a forged signature',
      'POST',
      '/webhooks/stripe',
      { 'content-type': 'application/json', 'stripe-signature': 't=1,v1=00' },
      '{}',
    ],
    [
      'POST the webhook with no body',
      'POST',
      '/webhooks/stripe',
      { 'stripe-signature': 't=1,v1=00' },
      undefined,
    ],
  ].map(([name, method, url, headers, payload]) => ({
    name: name as string,
    request: {
      method: method as 'PUT',
      url: url as string,
      headers: headers as Record<string, string>,
      payload: payload as string,
    },
  }));
}

function headerCases(): Case[] {
  return [
    ['an Idempotency-Key of 5,000 characters', { 'idempotency-key': 'k'.repeat(5000) }],
    ['two API keys', { 'x-api-key': [apiKey, apiKey] }],
    ['an API key with spaces inside', { 'x-api-key': `scrub_ ${'a'.repeat(40)}` }],
    ['an API key of 10,000 characters', { 'x-api-key': `scrub_${'a'.repeat(10_000)}` }],
    ['a bearer of 10,000 characters', { authorization: `Bearer ${'a'.repeat(10_000)}` }],
    ['a bearer with a comma', { authorization: 'Bearer a,b' }],
  ].map(([what, headers]) => ({
    name: `PUT /apikey with ${what as string}`,
    request: { method: 'PUT', url: '/apikey', headers: headers as Record<string, string> },
  }));
}

let cases: Case[] = [];
beforeAll(async () => {
  cases = [
    ...tokenCases(await badTokens()),
    ...pathCases(),
    ...queryCases(),
    ...phoneCases(),
    ...bodyCases(),
    ...csvCases(),
    ...headerCases(),
    ...offContractCases(),
  ];
});

describe('bad input', () => {
  it('covers at least 200 malformed requests over every served route', () => {
    expect(cases.length).toBeGreaterThanOrEqual(200);
    console.info(`bad-input suite: ${cases.length} malformed requests`);
    for (const [, route] of served) {
      expect(cases.some((c) => c.name.startsWith(`${route.method} ${route.path}`))).toBe(true);
    }
  });

  it('answers every one with a 4xx in the error envelope, never a 5xx', async () => {
    const failures: string[] = [];
    for (const c of cases) {
      const res = await t.app.inject(c.request);
      const parsed = ErrorEnvelopeSchema.safeParse(
        (() => {
          try {
            return res.json();
          } catch {
            return undefined;
          }
        })(),
      );
      const ok =
        res.statusCode >= 400 &&
        res.statusCode < 500 &&
        parsed.success &&
        parsed.data.error.request_id === res.headers['x-request-id'] &&
        parsed.data.error.message.length > 0;
      if (!ok) failures.push(`${c.name}: ${res.statusCode} ${res.body.slice(0, 160)}`);
    }
    expect(failures).toEqual([]);
  });

  it.each(notUsNumbers)('answers %s on /verify as invalid, and takes no credit', async (phone) => {
    const res = await t.app.inject({
      method: 'GET',
      url: `/verify?p=${encodeURIComponent(phone)}`,
      headers: { 'x-api-key': apiKey },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json()).toMatchObject({ line_type: 'invalid', credits_deducted: 0, credits_remaining: 5 });
  });
});
