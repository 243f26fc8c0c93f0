import type { z } from 'zod';
import { ErrorEnvelopeSchema } from './errors.js';
import { type JsonSchema, OpenApiSchemas } from './openapi-schemas.js';
import { ANSWER_HEADERS, answerHeaders, routeErrorStatuses } from './route-answers.js';
import { MAX_PATH_PARAM_LENGTH, pathParamNames, type RouteSpec } from './route-spec.js';
import { routes } from './routes.js';
import type { OpenApiDocument } from './service.js';

/**
 * The contract as an OpenAPI 3.1 document, so integrators in any language can generate a client.
 * Written from the same route table the server serves and the SDK calls, never by hand: a route
 * added to the contract is in the document the next time it is built (tested).
 */

export interface OpenApiOptions {
  /** The service's version (`info.version`). */
  version: string;
  /** Where the API is served (`servers[0].url`), when known. */
  serverUrl?: string;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/**
 * Path or query parameters: one entry per property of the route's object schema. A list (an array)
 * travels as one comma-separated value (`columns=timezone,callable_now`).
 */
function parameters(
  schemas: OpenApiSchemas,
  schema: z.ZodType | undefined,
  where: 'path' | 'query',
): JsonSchema[] {
  if (!schema) return [];
  const object = schemas.of(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
      ...(rest.type === 'array' ? { style: 'form', explode: false } : {}),
      schema: rest,
    };
  });
}

/** Who may call the route, in OpenAPI's terms: any one of the listed schemes. */
function security(route: RouteSpec): JsonSchema[] | undefined {
  if (route.auth === 'none') return [];
  if (route.auth !== 'user') return [{ bearerToken: [] }];
  const schemes: JsonSchema[] = [{ apiKey: [] }, { bearerToken: [] }];
  if (route.apiKeyInQuery) schemes.push({ apiKeyInQuery: [] });
  return schemes;
}

/** The headers an answer carries, as references to `components/headers`. */
function headers(route: RouteSpec, status: number): JsonSchema {
  const refs: JsonSchema = {};
  for (const header of answerHeaders(route, status)) {
    refs[ANSWER_HEADERS[header].name] = { $ref: `#/components/headers/${header}` };
  }
  return refs;
}

/** Every refusal the route can give (route-answers.ts), one answer per status naming its codes. */
function errorResponses(route: RouteSpec): Record<string, JsonSchema> {
  const answers: Record<string, JsonSchema> = {};
  for (const [status, codes] of routeErrorStatuses(route)) {
    answers[String(status)] = {
      description: `An error: \`error.code\` is ${codes.map((code) => `\`${code}\``).join(', ')}`,
      headers: headers(route, status),
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  return answers;
}

/** The answer's other formats (`answerFormats`), asked for with `Accept`. */
const LINES_ANSWER = {
  'text/csv': {
    schema: {
      type: 'string',
      description:
        'A header line, then one line per result (null as an empty cell, lists joined by `|`); the credits in the `Scrub-Credits-*` headers.',
    },
  },
  'application/x-ndjson': {
    schema: {
      type: 'string',
      description:
        "One result per line, each as the JSON answer's; the credits in the `Scrub-Credits-*` headers.",
    },
  },
} as const;

/** The answer when all goes well: JSON in the route's response schema, or a file. */
function successResponse(schemas: OpenApiSchemas, route: RouteSpec): JsonSchema {
  const common = { headers: headers(route, route.status ?? 200) };
  if (route.response) {
    return {
      description: 'Success',
      ...common,
      content: {
        'application/json': { schema: schemas.of(route.response, 'output') },
        ...(route.csvAnswer ? { 'text/csv': { schema: { type: 'string' } } } : {}),
        ...Object.fromEntries((route.answerFormats ?? []).map((type) => [type, LINES_ANSWER[type]])),
      },
    };
  }
  return {
    description: route.streamBody
      ? 'The result CSV, streamed as the file arrives; the job id in the `Scrub-Job-Id` header'
      : 'The file, as a download',
    ...common,
    content: {
      'text/csv': { schema: { type: 'string' } },
      'application/octet-stream': { schema: { type: 'string' } },
    },
  };
}

/** The request's body: JSON (or a CSV list beside it), or a CSV file streamed. */
function requestBody(schemas: OpenApiSchemas, route: RouteSpec): JsonSchema | undefined {
  if (route.streamBody) {
    return {
      required: true,
      content: {
        'text/csv': {
          schema: {
            type: 'string',
            description: 'The CSV file, streamed: the answer starts before it has all arrived.',
          },
        },
      },
    };
  }
  if (!route.body) return undefined;
  const csv = {
    'text/csv': {
      schema: {
        type: 'string',
        description: 'One phone number per line; a first line without a digit is a header.',
      },
    },
  };
  return {
    required: true,
    content: {
      'application/json': { schema: schemas.of(route.body, 'input') },
      ...(route.csvBody ? csv : {}),
    },
  };
}

function operation(schemas: OpenApiSchemas, name: string, route: RouteSpec): JsonSchema {
  // Path parameters come from the path itself when the route has no schema for them.
  const pathParameters = route.params
    ? parameters(schemas, route.params, 'path')
    : pathParamNames(route.path).map((param) => ({
        name: param,
        in: 'path',
        required: true,
        schema: { type: 'string', minLength: 1, maxLength: MAX_PATH_PARAM_LENGTH },
      }));
  const idempotent = route.method !== 'GET' && !route.streamBody;
  const allParameters = [
    ...pathParameters,
    ...parameters(schemas, route.query, 'query'),
    ...(idempotent ? [{ $ref: '#/components/parameters/IdempotencyKey' }] : []),
  ];
  const body = requestBody(schemas, route);
  return {
    operationId: name,
    summary: route.summary,
    tags: [route.resource ?? 'service'],
    ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
    ...(body ? { requestBody: body } : {}),
    security: security(route),
    responses: { [String(route.status ?? 200)]: successResponse(schemas, route), ...errorResponses(route) },
  };
}

/** `components/headers`: every response header the API sends. */
function headerComponents(): Record<string, JsonSchema> {
  const components: Record<string, JsonSchema> = {};
  for (const [name, { description }] of Object.entries(ANSWER_HEADERS)) {
    components[name] = { description, schema: { type: 'string' } };
  }
  return components;
}

const SECURITY_SCHEMES = {
  apiKey: { type: 'apiKey', in: 'header', name: 'x-api-key', description: 'The account API key' },
  apiKeyInQuery: {
    type: 'apiKey',
    in: 'query',
    name: 'k',
    description: 'The API key as the `k` query parameter (GET /verify and GET /credits only)',
  },
  bearerToken: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'An ID token from the identity provider (Amazon Cognito, or the built-in one)',
  },
};

const IDEMPOTENCY_KEY_PARAMETER = {
  name: 'Idempotency-Key',
  in: 'header',
  required: false,
  description:
    'Makes a retry of this call safe: the same key with the same request is answered what the first was (`Idempotent-Replayed: true`).',
  schema: { type: 'string', minLength: 1, maxLength: 255, pattern: '^[\\x21-\\x7e]+$' },
};

/** The OpenAPI 3.1 document of every route the service serves (planned routes are left out). */
export function openApiDocument(
  options: OpenApiOptions,
  table: Record<string, RouteSpec> = routes,
): OpenApiDocument {
  const schemas = new OpenApiSchemas();
  schemas.of(ErrorEnvelopeSchema, 'output');
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, route] of Object.entries(table)) {
    if (route.planned) continue;
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(schemas, name, route);
    paths[route.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scrub API',
      version: options.version,
      description:
        'US phone numbers: line type (mobile, landline, voip, toll free, invalid) and do-not-call status, one at a time or in bulk files. Errors share one envelope: `{error: {code, message, request_id}}`. A method a path does not serve answers 405 `method_not_allowed` with `Allow`; an unknown path 404.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    paths,
    components: {
      schemas: schemas.named,
      headers: headerComponents(),
      parameters: { IdempotencyKey: IDEMPOTENCY_KEY_PARAMETER },
      securitySchemes: SECURITY_SCHEMES,
    },
  };
}
