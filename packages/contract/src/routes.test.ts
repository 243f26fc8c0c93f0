import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import {
  type InputOf,
  LINE_TYPES,
  LineTypeSchema,
  type OutputOf,
  pathParamNames,
  RESOURCES,
  type RouteSpec,
  routes,
  routesByResource,
  type VerifyResult,
} from './index.js';

const entries = Object.entries(routes) as [string, RouteSpec][];

/** Paths of every string in `schema` a caller can send without a maximum length. Walks with a stack, not recursion. */
function unboundedStrings(root: z.ZodType, rootPath: string): string[] {
  const found: string[] = [];
  const pending: [z.ZodType, string][] = [[root, rootPath]];
  for (let next = pending.pop(); next; next = pending.pop()) {
    const [schema, path] = next;
    if (schema instanceof z.ZodString) {
      if (schema.maxLength === null) found.push(path);
    } else if (schema instanceof z.ZodObject) {
      for (const [key, inner] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
        pending.push([inner, `${path}.${key}`]);
      }
    } else if (
      schema instanceof z.ZodOptional ||
      schema instanceof z.ZodNullable ||
      schema instanceof z.ZodDefault ||
      schema instanceof z.ZodArray
    ) {
      pending.push([(schema instanceof z.ZodArray ? schema.element : schema.unwrap()) as z.ZodType, path]);
    } else if (schema instanceof z.ZodPipe) {
      pending.push([schema.in as z.ZodType, path]);
    } else if (schema instanceof z.ZodUnion) {
      for (const option of schema.options as z.ZodType[]) pending.push([option, path]);
    } else if (schema instanceof z.ZodRecord) {
      pending.push(
        [schema.keyType as z.ZodType, `${path}{key}`],
        [schema.valueType as z.ZodType, `${path}{}`],
      );
    }
  }
  return found;
}

describe('the route table', () => {
  it('gives every string a request carries a maximum length', () => {
    const unbounded = entries.flatMap(([name, route]) =>
      (['params', 'query', 'body'] as const).flatMap((part) =>
        route[part] ? unboundedStrings(route[part] as z.ZodType, `${name} ${part}`) : [],
      ),
    );
    expect(unbounded).toEqual([]);
  });

  it('merges every resource file without losing a route to a duplicate key', () => {
    const perResource = Object.values(routesByResource).flatMap((table) => Object.keys(table));

    expect(new Set(perResource).size).toBe(perResource.length);
    expect(Object.keys(routes).sort()).toEqual([...perResource].sort());
  });

  it('has one table per resource, and each route is tagged with the resource whose file holds it', () => {
    expect(Object.keys(routesByResource).sort()).toEqual([...RESOURCES].sort());
    for (const [resource, table] of Object.entries(routesByResource)) {
      for (const route of Object.values(table) as RouteSpec[]) expect(route.resource).toBe(resource);
    }
  });

  it('gives every route a resource', () => {
    for (const [name, route] of entries) {
      expect(RESOURCES, name).toContain(route.resource);
    }
  });

  it('never has two routes on one method and path', () => {
    const seen = new Map<string, string>();
    for (const [name, route] of entries) {
      // `{job_id}` and `{user_id}` in one place are the same path to a router.
      const key = `${route.method} ${route.path.replace(/\{\w+\}/g, '{}')}`;
      expect(seen.get(key), `${name} and ${seen.get(key)} are both ${key}`).toBeUndefined();
      seen.set(key, name);
    }
  });

  it('declares a params schema exactly for the paths with placeholders', () => {
    for (const [name, route] of entries) {
      expect(route.params !== undefined, name).toBe(pathParamNames(route.path).length > 0);
    }
  });

  it('marks only GETs as changing state, and the one GET that spends a credit', () => {
    const marked = entries
      .filter(([, route]) => 'changesState' in route)
      .map(([, r]) => `${r.method} ${r.path}`);

    expect(marked).toEqual(['GET /verify']);
  });

  it('marks no route as planned now that payments and admin are served', () => {
    // A route written down ahead of the server gets `planned: true` and a line here.
    const planned = entries.filter(([, route]) => route.planned).map(([key]) => key);

    expect(planned).toEqual([]);
  });
});

describe('value lists', () => {
  it('builds the line type schema from the one list', () => {
    expect(LineTypeSchema.options).toEqual([...LINE_TYPES]);
  });
});

describe('InputOf and OutputOf', () => {
  it('merge params, query and body, and read the response', () => {
    expectTypeOf<InputOf<typeof routes.getBulkJob>>().toEqualTypeOf<{ job_id: string; wait?: unknown }>();
    expectTypeOf<InputOf<typeof routes.verify>>().toEqualTypeOf<{
      p: string;
      k?: string | undefined;
      proof?: '0' | '1' | 'true' | 'false' | undefined;
      consent_date?: string | undefined;
      lookup?: 'carrier' | undefined;
      lists?: string | undefined;
      test?: '0' | '1' | undefined;
    }>();
    expectTypeOf<InputOf<typeof routes.adminUpdateUser>>().toHaveProperty('user_id');
    expectTypeOf<InputOf<typeof routes.adminUpdateUser>>().toHaveProperty('le');
    expectTypeOf<OutputOf<typeof routes.verify>>().toEqualTypeOf<VerifyResult>();
    expectTypeOf<OutputOf<typeof routes.downloadResult>>().toEqualTypeOf<ReadableStream<Uint8Array>>();
  });
});
