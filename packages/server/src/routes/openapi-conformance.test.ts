import { randomUUID } from 'node:crypto';
import { Ajv, type ValidateFunction } from 'ajv';
import addFormats from 'ajv-formats';
import fc from 'fast-check';
import type { InjectOptions, LightMyRequestResponse } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { TRACKED_HEADERS } from '../../test/answer-check.js';
import { createTestIdentity } from '../../test/id-tokens.js';
import { junk, objectWithOneBadField, valuesOf } from '../../test/json-schema-arbitrary.js';
import { createTestApp, type TestApp } from '../../test/test-app.js';

/**
 * The OpenAPI document against the service that serves it: for every operation of /openapi.json,
 * fast-check makes requests from the document's own schemas (valid ones, and ones with a field or
 * parameter made wrong) and sends them to an in-process server; every answer must be one the
 * operation declares, with a declared content type, a body its schema accepts, only declared
 * headers, and never a 500. Few runs per operation, so the whole sweep stays within seconds.
 */

type JsonSchema = Record<string, unknown>;
interface Parameter {
  name: string;
  in: 'path' | 'query' | 'header';
  required: boolean;
  schema: JsonSchema;
  $ref?: string;
}
interface Response {
  headers?: Record<string, unknown>;
  content?: Record<string, { schema: JsonSchema }>;
}
interface Operation {
  operationId: string;
  parameters?: Parameter[];
  requestBody?: { content: Record<string, { schema: JsonSchema }> };
  security: unknown[];
  responses: Record<string, Response>;
}
interface Call {
  path: string;
  method: string;
  operation: Operation;
}

/** Valid requests and invalid ones, per operation: enough to reach each kind of answer, quick in CI. */
const RUNS = { valid: 4, invalid: 3 };

let t: TestApp;
let document: { paths: Record<string, Record<string, Operation>>; components: { schemas: JsonSchema } };
let auth: Record<string, string>;
/** Objects that exist, so some requests reach past the 404: by path parameter name. */
const known: Record<string, string[]> = {};
const ajv = new Ajv({ strict: false, allErrors: true });
// A CommonJS module: its function is `default` to TypeScript's NodeNext, and there at run time too.
addFormats.default(ajv);
const validators = new Map<JsonSchema, ValidateFunction>();

beforeAll(async () => {
  const identity = await createTestIdentity();
  t = await createTestApp({}, { tokenVerifier: identity.verifier });
  // Listening: the built-in payment provider the service calls is served on its own port.
  await t.app.listen({ host: '127.0.0.1', port: 0 });
  auth = {
    authorization: `Bearer ${await identity.token({ sub: 'fuzz', email: 'fuzz@example.com', groups: ['Super Admin'] })}`,
  };
  document = (await t.app.inject({ method: 'GET', url: '/openapi.json' })).json();
  ajv.addSchema({ components: { schemas: document.components.schemas } }, 'scrub');
  // Someone else's account for the admin calls to find: not the caller's, which they could delete.
  const someone = `Bearer ${await identity.token({ sub: 'someone', email: 'someone@example.com' })}`;
  const user = (
    await t.app.inject({ method: 'GET', url: '/user', headers: { authorization: someone } })
  ).json();
  const job = (
    await t.app.inject({
      method: 'POST',
      url: '/bulk/jobs',
      headers: auth,
      payload: { file_name: 'leads.csv', phone_col: 'phone' },
    })
  ).json();
  Object.assign(known, {
    user_id: [user.userId],
    job_id: [job.job_id],
    file_reference: [job.file_reference],
    p: ['2015550123', '+1 (201) 555-0199'],
  });
}, 60_000);
afterAll(() => t?.close());

/** The operation's parameters, `$ref`s to the document's components resolved (only Idempotency-Key is one). */
function parametersOf(operation: Operation): Parameter[] {
  return (operation.parameters ?? []).map((p) =>
    p.$ref
      ? { name: 'Idempotency-Key', in: 'header', required: false, schema: { type: 'string', format: 'uuid' } }
      : p,
  );
}

function parameterValue(parameter: Parameter, bad: boolean): fc.Arbitrary<string | undefined> {
  const value = valuesOf(parameter.schema).map((v) => (Array.isArray(v) ? v.join(',') : String(v)));
  const fromKnown = known[parameter.name];
  const good = fromKnown ? fc.oneof({ arbitrary: fc.constantFrom(...fromKnown), weight: 3 }, value) : value;
  const chosen = bad
    ? fc.oneof(
        good,
        junk().map((j) => String(j)),
      )
    : good;
  if (parameter.in === 'path') return chosen.filter((v) => v !== '');
  return parameter.required ? chosen : fc.option(chosen, { nil: undefined });
}

/** One request to the operation: its path, query and headers filled in, and a body when it takes one. */
function requestOf({ path, method, operation }: Call, bad: boolean): fc.Arbitrary<InjectOptions> {
  const parameters = parametersOf(operation);
  const values = fc.record(
    Object.fromEntries(parameters.map((p) => [`${p.in}:${p.name}`, parameterValue(p, bad)])),
  );
  const json = operation.requestBody?.content['application/json']?.schema;
  const csv = operation.requestBody?.content['text/csv'] && !json;
  const body: fc.Arbitrary<unknown> = json
    ? bad
      ? fc.oneof(objectWithOneBadField(json), junk())
      : valuesOf(json)
    : csv
      ? fc.constantFrom('phone\n2015550123\n', 'name,phone\nA,(201) 555-0199\n', '', 'phone\n12\n')
      : fc.constant(undefined);
  return fc.tuple(values, body).map(([chosen, payload]) => {
    let url = path;
    const query = new URLSearchParams();
    const headers: Record<string, string> = operation.security.length > 0 ? { ...auth } : {};
    for (const [key, value] of Object.entries(chosen)) {
      if (value === undefined) continue;
      const [where, name] = key.split(':') as [string, string];
      if (where === 'path') url = url.replace(`{${name}}`, encodeURIComponent(value));
      if (where === 'query') query.set(name, value);
      // A key of its own: one reused with another request is refused (422), as it should be.
      if (where === 'header') headers[name.toLowerCase()] = randomUUID();
    }
    const search = query.toString();
    const request: InjectOptions = {
      method: method.toUpperCase() as 'GET',
      url: search ? `${url}?${search}` : url,
      headers,
    };
    if (csv)
      return { ...request, payload: payload as string, headers: { ...headers, 'content-type': 'text/csv' } };
    if (payload !== undefined)
      return {
        ...request,
        payload: JSON.stringify(payload),
        headers: { ...headers, 'content-type': 'application/json' },
      };
    return request;
  });
}

function validatorFor(schema: JsonSchema): ValidateFunction {
  let validate = validators.get(schema);
  if (!validate) {
    // Named schemas live in the document's components, added to Ajv as `scrub`.
    const refs = JSON.parse(JSON.stringify(schema).replaceAll('"#/components/', '"scrub#/components/'));
    validate = ajv.compile(refs);
    validators.set(schema, validate);
  }
  return validate;
}

/** What is wrong with an answer, as the document reads; empty when nothing is. */
function problemsWith(operation: Operation, res: LightMyRequestResponse): string[] {
  const declared = operation.responses[String(res.statusCode)];
  const said = `${res.statusCode} ${res.body.slice(0, 300)}`;
  if (res.statusCode >= 500 && res.statusCode !== 503) return [`a ${said}`];
  if (!declared) return [`an undeclared ${said}`];
  const problems: string[] = [];
  const type = String(res.headers['content-type'] ?? '').split(';')[0] ?? '';
  if (!(type in (declared.content ?? {}))) problems.push(`content type ${type} on ${said}`);
  const schema = declared.content?.['application/json']?.schema;
  if (schema && type === 'application/json') {
    const validate = validatorFor(schema);
    if (!validate(res.json()))
      problems.push(`a body its schema refuses (${ajv.errorsText(validate.errors)}): ${said}`);
  }
  for (const header of Object.keys(res.headers)) {
    if (TRACKED_HEADERS.has(header) && !(header in (declared.headers ?? {}))) {
      problems.push(`header ${header} undeclared on ${res.statusCode}`);
    }
  }
  return problems;
}

/** A number from a name (FNV-1a), for fast-check's seed. */
function seedOf(name: string): number {
  let hash = 0x811c9dc5;
  for (const char of name) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193);
  return hash | 0;
}

async function sweep(call: Call, bad: boolean, runs: number): Promise<string[]> {
  const found: string[] = [];
  await fc.assert(
    fc.asyncProperty(requestOf(call, bad), async (request) => {
      const res = await t.app.inject(request);
      for (const problem of problemsWith(call.operation, res)) {
        found.push(`${call.operation.operationId} (${request.method} ${request.url}): ${problem}`);
      }
    }),
    // A seed of each operation's own, the same every run: a failure is seen again as it was.
    { numRuns: runs, seed: seedOf(`${call.operation.operationId} ${bad}`) },
  );
  return found;
}

describe('/openapi.json against the service', () => {
  it('declares every answer to valid and invalid requests made from its own schemas', async () => {
    const calls: Call[] = Object.entries(document.paths).flatMap(([path, item]) =>
      Object.entries(item).map(([method, operation]) => ({ path, method, operation })),
    );
    expect(calls.length).toBeGreaterThan(60);
    const problems: string[] = [];
    for (const call of calls) {
      problems.push(...(await sweep(call, false, RUNS.valid)), ...(await sweep(call, true, RUNS.invalid)));
    }
    expect(problems).toEqual([]);
  }, 120_000);
});
