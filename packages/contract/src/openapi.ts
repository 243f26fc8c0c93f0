import { z } from 'zod';
import { ErrorEnvelopeSchema, errorStatus } from './errors.js';
import { pathParamNames, type RouteSpec } from './route-spec.js';
import { routes } from './routes.js';
import type { OpenApiDocument } from './service.js';

/**
 * The contract as an OpenAPI 3.1 document, so integrators in any language can generate a client.
 * Written from the same route table the server serves and the SDK calls, never by hand: a route
 * added to the contract is in the document the next time it is built (tested).
 */

type JsonSchema = Record<string, unknown>;
type Io = 'input' | 'output';

export interface OpenApiOptions {
  /** The service's version (`info.version`). */
  version: string;
  /** Where the API is served (`servers[0].url`), when known. */
  serverUrl?: string;
}

const ERROR_REF = { $ref: '#/components/schemas/ErrorEnvelope' };

/** A zod schema as JSON Schema 2020-12 (OpenAPI 3.1's dialect), its `$schema` line dropped. */
function jsonSchema(schema: z.ZodType, io: Io): JsonSchema {
  const { $schema: _, ...rest } = z.toJSONSchema(schema, { io, unrepresentable: 'any' }) as JsonSchema;
  return rest;
}

/** Path or query parameters: one entry per property of the route's object schema. */
function parameters(schema: z.ZodType | undefined, where: 'path' | 'query'): JsonSchema[] {
  if (!schema) return [];
  const object = jsonSchema(schema, 'input');
  const properties = (object.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((object.required ?? []) as string[]);
  return Object.entries(properties).map(([name, property]) => {
    const { description, ...rest } = property;
    return {
      name,
      in: where,
      required: where === 'path' || required.has(name),
      ...(typeof description === 'string' ? { description } : {}),
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

/** The error statuses a caller of this route should expect, beside the ones every route may give. */
function errorResponses(route: RouteSpec): Record<string, JsonSchema> {
  const statuses = new Set<number>([
    errorStatus.validation_failed,
    errorStatus.rate_limited,
    errorStatus.internal_error,
  ]);
  if (route.auth !== 'none') statuses.add(errorStatus.unauthorized);
  if (route.auth !== 'none' && route.auth !== 'user') statuses.add(errorStatus.forbidden);
  if (route.path.includes('{')) statuses.add(errorStatus.not_found);
  const answers: Record<string, JsonSchema> = {};
  for (const status of [...statuses].sort()) {
    answers[String(status)] = {
      description: 'An error: `error.code` says which (see the ErrorEnvelope schema)',
      content: { 'application/json': { schema: ERROR_REF } },
    };
  }
  return answers;
}

function operation(name: string, route: RouteSpec): JsonSchema {
  const status = String(route.status ?? 200);
  const success = route.response
    ? {
        description: 'Success',
        content: { 'application/json': { schema: jsonSchema(route.response, 'output') } },
      }
    : {
        description: route.streamBody
          ? 'The result CSV, streamed as the file arrives; the job id in the `Scrub-Job-Id` header'
          : 'The file, as a download',
        content: {
          'text/csv': { schema: { type: 'string' } },
          'application/octet-stream': { schema: { type: 'string' } },
        },
      };
  // Path parameters come from the path itself when the route has no schema for them.
  const pathParameters = route.params
    ? parameters(route.params, 'path')
    : pathParamNames(route.path).map((param) => ({
        name: param,
        in: 'path',
        required: true,
        schema: { type: 'string' },
      }));
  const allParameters = [...pathParameters, ...parameters(route.query, 'query')];
  return {
    operationId: name,
    summary: route.summary,
    tags: [route.resource ?? 'service'],
    ...(allParameters.length > 0 ? { parameters: allParameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              'application/json': { schema: jsonSchema(route.body, 'input') },
              ...(route.csvBody
                ? {
                    'text/csv': {
                      schema: {
                        type: 'string',
                        description: 'One phone number per line; a first line without a digit is a header.',
                      },
                    },
                  }
                : {}),
            },
          },
        }
      : {}),
    ...(route.streamBody
      ? {
          requestBody: {
            required: true,
            content: {
              'text/csv': {
                schema: {
                  type: 'string',
                  description: 'The CSV file, streamed: the answer starts before it has all arrived.',
                },
              },
            },
          },
        }
      : {}),
    ...(route.method !== 'GET' && route.method !== 'DELETE' && !route.streamBody
      ? {
          'x-idempotency-key': 'Send an `Idempotency-Key` header to make a retry of this call safe.',
        }
      : {}),
    security: security(route),
    responses: { [status]: success, ...errorResponses(route) },
  };
}

/** The OpenAPI 3.1 document of every route the service serves (planned routes are left out). */
export function openApiDocument(
  options: OpenApiOptions,
  table: Record<string, RouteSpec> = routes,
): OpenApiDocument {
  const paths: Record<string, Record<string, JsonSchema>> = {};
  for (const [name, route] of Object.entries(table)) {
    if (route.planned) continue;
    const item = paths[route.path] ?? {};
    item[route.method.toLowerCase()] = operation(name, route);
    paths[route.path] = item;
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'Scrub API',
      version: options.version,
      description:
        'US phone numbers: line type (mobile, landline, voip, toll free, invalid) and do-not-call status, one at a time or in bulk files. Errors share one envelope: `{error: {code, message, request_id}}`.',
    },
    ...(options.serverUrl ? { servers: [{ url: options.serverUrl }] } : {}),
    paths,
    components: {
      schemas: { ErrorEnvelope: jsonSchema(ErrorEnvelopeSchema, 'output') },
      securitySchemes: {
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
      },
    },
  };
}
