import { Validator } from '@seriousme/openapi-schema-validator';
import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { openApiDocument } from './openapi.js';
import { defineRoute } from './route-spec.js';
import { routes } from './routes.js';
import { LINE_TYPES } from './verify.js';

type Operation = {
  operationId: string;
  parameters?: { name: string; in: string; required: boolean }[];
  security: Record<string, string[]>[];
  requestBody?: unknown;
  responses: Record<string, { content: Record<string, { schema: Record<string, unknown> }> }>;
};
type Paths = Record<string, Record<string, Operation>>;

const document = openApiDocument({ version: '1.2.3', serverUrl: 'http://localhost:8787' });
const paths = document.paths as Paths;
const components = document.components as {
  schemas: Record<string, Record<string, unknown>>;
  headers: Record<string, unknown>;
};
const schemas = components.schemas;

type Parameter = { name: string; in: string; schema: Record<string, unknown>; explode?: boolean };
const parameter = (path: string, method: string, name: string) =>
  (paths[path]?.[method]?.parameters as Parameter[] | undefined)?.find((p) => p.name === name);
function operationAt(path: string, method: string): Operation {
  const found = paths[path]?.[method];
  if (!found) throw new Error(`No ${method} ${path} in the document`);
  return found;
}
const bodyProperty = (path: string, method: string, name: string) =>
  (
    operationAt(path, method).requestBody as {
      content: { 'application/json': { schema: { properties: Record<string, Record<string, unknown>> } } };
    }
  ).content['application/json'].schema.properties[name];

describe('the OpenAPI document', () => {
  it('is a valid OpenAPI 3.1 document', async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(document));
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe('3.1');
    // The same check refuses a document with a broken operation, so the pass above means something.
    const broken = structuredClone(document) as { paths: Paths };
    (broken.paths['/verify'] as Record<string, unknown>).get = { responses: 'none' };
    expect((await new Validator().validate(broken)).valid).toBe(false);
  });

  it('has every route of the contract, named as the SDK and the route table name it', () => {
    const operations = Object.values(paths).flatMap((item) =>
      Object.entries(item).map(([method, op]) => `${op.operationId} ${method.toUpperCase()}`),
    );
    const expected = Object.entries(routes).map(([name, route]) => `${name} ${route.method}`);
    expect(operations.sort()).toEqual(expected.sort());
  });

  it('says how to call /verify: p required, the key in a header, a bearer token or the k parameter', () => {
    const verify = paths['/verify']?.get;
    expect(verify?.parameters?.find((p) => p.name === 'p')).toMatchObject({ in: 'query', required: true });
    expect(verify?.parameters?.find((p) => p.name === 'k')).toMatchObject({ in: 'query', required: false });
    expect(verify?.security).toEqual([{ apiKey: [] }, { bearerToken: [] }, { apiKeyInQuery: [] }]);
    expect(verify?.responses['200']?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/VerifyResult',
    });
    expect(schemas.LineType).toMatchObject({ enum: [...LINE_TYPES] });
    expect(verify?.responses['401']).toBeDefined();
  });

  it('says POST /verify takes JSON or a text/csv list, and answers JSON, CSV or NDJSON', () => {
    const batch = paths['/verify']?.post as Operation & { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(batch.requestBody.content)).toEqual(['application/json', 'text/csv']);
    // Its answer: JSON, or with Accept, CSV or NDJSON.
    expect(Object.keys(batch.responses['200']?.content ?? {})).toEqual([
      'application/json',
      'text/csv',
      'application/x-ndjson',
    ]);
    const single = paths['/bulk/jobs']?.post as Operation & {
      requestBody: { content: Record<string, unknown> };
    };
    expect(Object.keys(single.requestBody.content)).toEqual(['application/json']);
  });

  it('describes downloads as files, public routes without security, and path parameters as required', () => {
    const download = paths['/files/{file_reference}/result']?.get;
    expect(Object.keys(download?.responses['200']?.content ?? {})).toContain('text/csv');
    expect(download?.security).toEqual([]);
    expect(download?.parameters?.find((p) => p.name === 'file_reference')).toMatchObject({
      in: 'path',
      required: true,
    });
    expect(paths['/admin/users']?.get?.security).toEqual([{ bearerToken: [] }]);
    expect(paths['/admin/users']?.get?.responses['403']).toBeDefined();
  });

  it("documents the seed's aliases: filename and *_col on POST /bulk/jobs, per_page on GET /files", () => {
    type Body = {
      content: Record<string, { schema: { properties: Record<string, { description?: string }> } }>;
    };
    const requestBody = paths['/bulk/jobs']?.post?.requestBody as Body | undefined;
    const body = requestBody?.content['application/json']?.schema.properties ?? {};
    expect(body.filename?.description).toMatch(/Alias of file_name/);
    expect(body.first_name_col?.description).toMatch(/Alias of mapping.first_name/);
    expect(body.dob_col).toBeDefined();
    const perPage = paths['/files']?.get?.parameters?.find((p) => p.name === 'per_page');
    expect(perPage).toMatchObject({ in: 'query', required: false });
  });

  it('leaves out routes written down but not served yet', () => {
    const table = {
      served: defineRoute({ method: 'GET', path: '/a', auth: 'none', summary: 'A', response: z.object({}) }),
      later: defineRoute({ method: 'GET', path: '/b', auth: 'none', summary: 'B', planned: true }),
    };
    expect(Object.keys(openApiDocument({ version: '1' }, table).paths)).toEqual(['/a']);
  });

  it("lists every answer an operation can give: each route's declared refusals beside those of its kind", () => {
    const purchase = paths['/payment']?.post?.responses ?? {};
    expect(Object.keys(purchase).sort()).toEqual(
      ['200', '400', '401', '402', '403', '404', '409', '413', '415', '422', '429', '500', '503'].sort(),
    );
    expect(JSON.stringify(purchase['403'])).toContain('`plan_paused`');
    expect(JSON.stringify(purchase['402'])).toContain('`card_declined`');
    expect(paths['/files/{file_reference}/result']?.get?.responses['409']).toBeDefined();
    expect(paths['/payment/links/{grant}']?.get?.responses['410']).toBeDefined();
    // A public GET takes no credentials and no body: no 401, 413 or 415.
    expect(Object.keys(paths['/plans']?.get?.responses ?? {})).toEqual(['200', '400', '429', '500']);
    for (const item of Object.values(paths)) {
      for (const operation of Object.values(item)) {
        for (const [status, answer] of Object.entries(operation.responses)) {
          if (Number(status) >= 400) {
            expect(answer.content['application/json']?.schema).toEqual({
              $ref: '#/components/schemas/ErrorEnvelope',
            });
          }
        }
      }
    }
  });

  it('declares the headers: Idempotency-Key on requests; request id, rate limits, Retry-After and Scrub-Job-Id on answers', () => {
    type Answer = { headers: Record<string, unknown> };
    const answer = (path: string, method: string, status: string) =>
      (operationAt(path, method).responses[status] as unknown as Answer).headers;
    expect(Object.keys(components.headers).sort()).toEqual(
      [
        'IdempotentReplayed',
        'RateLimit',
        'RateLimitPolicy',
        'RequestId',
        'RetryAfter',
        'ScrubJobId',
        'ScrubCreditsDeducted',
        'ScrubCreditsRemaining',
      ].sort(),
    );
    expect(answer('/verify', 'post', '200')).toHaveProperty('scrub-credits-deducted');
    expect(answer('/verify', 'post', '200')).toHaveProperty('scrub-credits-remaining');
    expect(answer('/verify', 'post', '402')).not.toHaveProperty('scrub-credits-deducted');
    expect(Object.keys(answer('/verify', 'get', '200'))).toEqual([
      'x-request-id',
      'ratelimit',
      'ratelimit-policy',
    ]);
    expect(answer('/verify', 'get', '429')).toHaveProperty('retry-after');
    expect(answer('/bulk/jobs', 'post', '503')).toHaveProperty('retry-after');
    expect(answer('/bulk/jobs/stream', 'post', '200')).toHaveProperty('scrub-job-id');
    expect(answer('/payment', 'post', '200')).toHaveProperty('idempotent-replayed');
    expect(answer('/payment', 'post', '402')).toHaveProperty('idempotent-replayed');
    const takesKey = (path: string, method: string) =>
      JSON.stringify(paths[path]?.[method]?.parameters ?? []).includes(
        '#/components/parameters/IdempotencyKey',
      );
    expect(takesKey('/payment', 'post')).toBe(true);
    expect(takesKey('/verify', 'get')).toBe(false);
    expect(takesKey('/bulk/jobs/stream', 'post')).toBe(false);
  });

  it('names the resources, so generated clients get readable types', () => {
    for (const name of [
      'VerifyResult',
      'Job',
      'CreatedJob',
      'FileView',
      'FileList',
      'Plan',
      'UserInfo',
      'WebhookEndpoint',
    ]) {
      expect(schemas[name], name).toBeDefined();
    }
    expect(paths['/bulk/jobs/{job_id}']?.get?.responses['200']?.content['application/json']?.schema).toEqual({
      $ref: '#/components/schemas/Job',
    });
    // Every reference resolves.
    for (const ref of JSON.stringify(document).matchAll(/"#\/components\/schemas\/(\w+)"/g)) {
      expect(schemas[ref[1] as string], ref[1]).toBeDefined();
    }
  });

  it("holds the service's rules: e-mail and URL formats, lists of known values, bounded numbers, known keys", () => {
    expect(bodyProperty('/contact', 'post', 'email')).toMatchObject({ format: 'email' });
    expect(bodyProperty('/admin/users', 'post', 'le')).toMatchObject({ format: 'email' });
    expect(bodyProperty('/admin/users/{user_id}', 'put', 'le')).toMatchObject({ format: 'email' });
    expect(bodyProperty('/files/{file_reference}/email', 'post', 'to')).toMatchObject({
      items: { format: 'email' },
    });
    expect(bodyProperty('/webhook-endpoints', 'post', 'url')).toMatchObject({ format: 'uri' });
    expect(parameter('/files', 'get', 'line_type')).toMatchObject({
      explode: false,
      schema: { type: 'array', items: { enum: ['all', ...LINE_TYPES] } },
    });
    expect(parameter('/bulk/jobs/stream', 'post', 'columns')).toMatchObject({
      explode: false,
      schema: { type: 'array', items: { enum: ['timezone', 'callable_now', 'line_type_source'] } },
    });
    expect(parameter('/bulk/jobs/stream', 'post', 'header_row')?.schema).toMatchObject({
      minimum: 0,
      maximum: 1,
    });
    expect(bodyProperty('/bulk/jobs', 'post', 'mapping')).toMatchObject({ additionalProperties: false });
    for (const [path, item] of Object.entries(paths)) {
      for (const operation of Object.values(item)) {
        for (const p of (operation.parameters ?? []) as unknown as Parameter[]) {
          if (p.in === 'path' && p.schema.format !== 'uuid')
            expect(p.schema.maxLength, `${path} ${p.name}`).toBeLessThanOrEqual(100);
        }
      }
    }
  });
});
