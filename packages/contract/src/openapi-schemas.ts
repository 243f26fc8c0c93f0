import { z } from 'zod';

export type JsonSchema = Record<string, unknown>;
export type Io = 'input' | 'output';

const DEFS_PREFIX = '#/$defs/';
const COMPONENTS_PREFIX = '#/components/schemas/';

/** Replaces every `$ref` in `value` by what `replace` makes of it (a new object, or a new `$ref`). */
function mapRefs(value: unknown, replace: (ref: string, siblings: JsonSchema) => JsonSchema): unknown {
  if (Array.isArray(value)) return value.map((item) => mapRefs(item, replace));
  if (value === null || typeof value !== 'object') return value;
  const object = value as JsonSchema;
  const mapped: JsonSchema = {};
  for (const [key, child] of Object.entries(object)) mapped[key] = mapRefs(child, replace);
  if (typeof mapped.$ref !== 'string' || !mapped.$ref.startsWith(DEFS_PREFIX)) return mapped;
  const { $ref, ...siblings } = mapped;
  return replace($ref.slice(DEFS_PREFIX.length), siblings);
}

/**
 * The contract's zod schemas as JSON Schema 2020-12 (OpenAPI 3.1's dialect). Answers keep the
 * names their schemas were given (`.meta({ id: 'Job' })`): each named schema becomes one
 * `components/schemas` entry that operations refer to, so generated clients get readable types.
 * Requests are written out in full: a schema's input form (defaults optional) differs from the
 * answer's, and one name must not stand for two shapes.
 */
export class OpenApiSchemas {
  /** `components/schemas`: every named schema met so far. */
  readonly named: Record<string, JsonSchema> = {};

  /** The schema as JSON Schema; JSON through and through (a `.meta` field set to undefined is dropped). */
  of(schema: z.ZodType, io: Io): JsonSchema {
    const {
      $schema: _,
      $defs,
      ...root
    } = JSON.parse(JSON.stringify(z.toJSONSchema(schema, { io, unrepresentable: 'any' }))) as JsonSchema & {
      $defs?: Record<string, JsonSchema>;
    };
    const defs = $defs ?? {};
    if (io === 'input') return this.#inline(root, defs);
    for (const [name, def] of Object.entries(defs)) this.#name(name, this.#refer(def) as JsonSchema);
    return this.#refer(root) as JsonSchema;
  }

  /** Refers to named schemas where zod's `$defs` did. */
  #refer(value: unknown): unknown {
    return mapRefs(value, (name, siblings) => ({ $ref: `${COMPONENTS_PREFIX}${name}`, ...siblings }));
  }

  #inline(value: unknown, defs: Record<string, JsonSchema>): JsonSchema {
    return mapRefs(value, (name, siblings) => ({
      ...this.#inline(defs[name], defs),
      ...siblings,
    })) as JsonSchema;
  }

  #name(name: string, schema: JsonSchema): void {
    const known = this.named[name];
    if (known && JSON.stringify(known) !== JSON.stringify(schema)) {
      throw new Error(`Two different schemas are named ${name}: give each its own id`);
    }
    this.named[name] = schema;
  }
}
