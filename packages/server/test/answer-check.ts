import { ANSWER_HEADERS, type OpenApiDocument, type RouteSpec, routes } from '@scrub/contract';

/**
 * One answer a test saw: the contract route that gave it (its name, the OpenAPI `operationId`), its
 * status, and which of the API's response headers (`ANSWER_HEADERS`) it carried.
 */
export interface SeenAnswer {
  operation: string;
  status: number;
  headers: string[];
}

/** The response headers the document declares (by their wire name, lower-case). */
export const TRACKED_HEADERS: ReadonlySet<string> = new Set(Object.values(ANSWER_HEADERS).map((h) => h.name));

const fastifyPath = (path: string) => path.replace(/\{(\w+)\}/g, ':$1');

/** The contract route a Fastify route (`POST /bulk/jobs/:job_id/submit`) serves, if any. */
const byFastifyRoute = new Map<string, string>(
  Object.entries(routes as Record<string, RouteSpec>).map(([name, route]) => [
    `${route.method} ${fastifyPath(route.path)}`,
    name,
  ]),
);

export function operationOf(method: string, fastifyUrl: string | undefined): string | undefined {
  return fastifyUrl === undefined ? undefined : byFastifyRoute.get(`${method} ${fastifyUrl}`);
}

type Responses = Record<string, { headers?: Record<string, unknown> }>;

/** Each operation's declared answers, by operationId. */
function responsesByOperation(document: OpenApiDocument): Map<string, Responses> {
  const found = new Map<string, Responses>();
  for (const item of Object.values(document.paths as Record<string, Record<string, unknown>>)) {
    for (const operation of Object.values(item) as { operationId: string; responses: Responses }[]) {
      found.set(operation.operationId, operation.responses);
    }
  }
  return found;
}

/** The answers `document` does not declare, one line each: an unknown status, or an undeclared header. */
export function undeclaredAnswers(seen: Iterable<SeenAnswer>, document: OpenApiDocument): string[] {
  const declared = responsesByOperation(document);
  const problems = new Set<string>();
  for (const { operation, status, headers } of seen) {
    const response = declared.get(operation)?.[String(status)];
    if (!response) {
      problems.add(`${operation} answered ${status}, which /openapi.json does not list`);
      continue;
    }
    for (const header of headers) {
      if (!(header in (response.headers ?? {}))) {
        problems.add(
          `${operation} answered ${status} with ${header}, which /openapi.json does not declare there`,
        );
      }
    }
  }
  return [...problems].sort();
}
