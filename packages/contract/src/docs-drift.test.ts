import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { type RouteSpec, routes } from './index.js';

/**
 * Keeps the docs from drifting away from the route table: every route served is documented in
 * docs/api.md, and no doc calls a served route planned or not built.
 */
const ROOT = join(import.meta.dirname, '..', '..', '..');
const API_DOC = readFileSync(join(ROOT, 'docs', 'api.md'), 'utf8');
const DOCS = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((name) => name.endsWith('.md'))
    .map((name) => join('docs', name)),
];
const served = (Object.values(routes) as RouteSpec[]).filter((route) => !route.planned);

/** Words that say a thing is not there yet. */
const NOT_YET = /\b(not built|planned|coming soon|comes with|until [a-z ]+ (?:are|is) built|no API for)\b/i;

/** `GET /files/{file_reference}` as docs write it: the method, then the path with its `{name}` parts. */
function mentions(text: string, route: RouteSpec): boolean {
  const path = route.path.replace(/[.*+?^$()|[\]\\]/g, '\\$&').replace(/\\?\{[a-z_]+\\?\}/g, '\\{[a-z_]+\\}');
  const methods = `(?:[A-Z]+/)*${route.method}(?:/[A-Z]+)*`;
  return new RegExp(`${methods} ${path}(?![a-z/{-])`).test(text);
}

/**
 * Lines of a doc that say "not yet", or stand under a heading that does, and name a served route:
 * `doc:line: METHOD /path` each.
 */
function staleLines(doc: string, text = readFileSync(join(ROOT, doc), 'utf8')): string[] {
  const stale: string[] = [];
  let underNotYet = false;
  text.split('\n').forEach((line, index) => {
    if (line.startsWith('#')) underNotYet = NOT_YET.test(line);
    if (!underNotYet && !NOT_YET.test(line)) return;
    for (const route of served) {
      if (mentions(line, route)) stale.push(`${doc}:${index + 1}: ${route.method} ${route.path}`);
    }
  });
  return stale;
}

describe('the docs and the route table', () => {
  it('docs/api.md documents every route the service serves', () => {
    const missing = served.filter((route) => !mentions(API_DOC, route)).map((r) => `${r.method} ${r.path}`);
    expect(missing).toEqual([]);
  });

  it('no doc calls a served route planned or not built', () => {
    expect(DOCS.flatMap((doc) => staleLines(doc))).toEqual([]);
  });

  it('catches a stale line and a missing route (the checks can fail)', () => {
    const route = served.find((r) => r.path === '/apikey') as RouteSpec;
    expect(mentions('| payments | `PUT /apikey` is planned |', route)).toBe(true);
    expect(NOT_YET.test('| payments | `PUT /apikey` is planned |')).toBe(true);
    expect(mentions('`PUT /apikeys`', route)).toBe(false);
    expect(
      staleLines('x.md', '## Decided, not built yet\n\n| keys | `PUT /apikey` |\n## Next\n`PUT /apikey`'),
    ).toEqual(['x.md:3: PUT /apikey']);
    expect(mentions('`GET/PUT /apikey`', route)).toBe(true);
    const withParam = served.find((r) => r.path.includes('{')) as RouteSpec;
    expect(mentions(`${withParam.method} ${withParam.path}`, withParam)).toBe(true);
  });
});
