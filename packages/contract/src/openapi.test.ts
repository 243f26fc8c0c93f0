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
    const answer = verify?.responses['200']?.content['application/json']?.schema as {
      properties: { line_type: { enum: string[] } };
    };
    expect(answer.properties.line_type.enum).toEqual([...LINE_TYPES]);
    expect(verify?.responses['401']).toBeDefined();
  });

  it('says POST /verify takes JSON or a text/csv list', () => {
    const batch = paths['/verify']?.post as Operation & { requestBody: { content: Record<string, unknown> } };
    expect(Object.keys(batch.requestBody.content)).toEqual(['application/json', 'text/csv']);
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
});
