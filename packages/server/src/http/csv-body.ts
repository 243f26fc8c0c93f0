import { routes } from '@scrub/contract';
import type { FastifyInstance } from 'fastify';
import { ApiError } from '../errors/api-error.js';

/** The routes the contract lets take a `text/csv` body (`csvBody`): `POST /verify`. */
const CSV_BODY_ROUTES = new Set(
  Object.values(routes)
    .filter((route) => 'csvBody' in route && route.csvBody)
    .map((route) => `${route.method} ${route.path}`),
);

const unquote = (cell: string) =>
  cell.length >= 2 && cell.startsWith('"') && cell.endsWith('"')
    ? cell.slice(1, -1).replaceAll('""', '"')
    : cell;

/**
 * A `text/csv` list of numbers as the JSON body `{"phones": [...]}`: one number per line, blank
 * lines skipped, surrounding quotes taken off, and a first line without a digit taken as a header
 * (`phone`). Each number is otherwise kept as sent, and checked as sent.
 */
export function phonesOfCsv(text: string): { phones: string[] } {
  const lines = text.replace(/^\uFEFF/, '').split(/\r\n|\n|\r/);
  const phones: string[] = [];
  let first = true;
  for (const line of lines) {
    const cell = unquote(line.trim());
    if (cell === '') continue;
    const header = first && !/\d/.test(cell);
    first = false;
    if (!header) phones.push(cell);
  }
  return { phones };
}

/**
 * `text/csv` bodies, on the routes that take them (`CSV_BODY_ROUTES`); on any other route a 415
 * as for any body that is not JSON.
 */
export function installCsvBody(app: FastifyInstance): void {
  app.addContentTypeParser('text/csv', { parseAs: 'string' }, (request, body, done) => {
    const route = request.routeOptions.url;
    // No route here: the answer is its 404, not a word about the body.
    if (route === undefined) {
      done(null, undefined);
      return;
    }
    if (!CSV_BODY_ROUTES.has(`${request.method} ${route}`)) {
      done(
        new ApiError(
          'unsupported_media_type',
          `Unsupported Media Type: text/csv. This API accepts application/json bodies (text/csv on POST /verify and on upload URLs).`,
        ),
        undefined,
      );
      return;
    }
    done(null, phonesOfCsv(body as string));
  });
}
