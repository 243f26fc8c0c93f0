import fc from 'fast-check';

type JsonSchema = Record<string, unknown>;

/** Strings a schema's length bounds admit, from the characters a person types and a few they don't. */
function text(schema: JsonSchema): fc.Arbitrary<string> {
  const minLength = (schema.minLength as number | undefined) ?? 0;
  const maxLength = Math.min((schema.maxLength as number | undefined) ?? 40, minLength + 40);
  const fits = (value: string) =>
    value.length >= minLength && value.length <= ((schema.maxLength as number) ?? 1e9);
  if (schema.format === 'email') {
    const [name, host] = [
      fc.stringMatching(/^[a-z0-9]{1,12}$/),
      fc.constantFrom('example.com', 'mail.example.org'),
    ];
    return fc
      .tuple(name, host)
      .map(([local, domain]) => `${local}@${domain}`)
      .filter(fits);
  }
  if (schema.format === 'date')
    return fc
      .date({ min: new Date('2000-01-01'), max: new Date(), noInvalidDate: true })
      .map((d) => d.toISOString().slice(0, 10));
  if (schema.format === 'uri') return fc.webUrl().filter(fits);
  if (schema.format === 'uuid') return fc.uuid();
  if (schema.format === 'date-time')
    return fc.date({ noInvalidDate: true }).map((date) => date.toISOString());
  if (typeof schema.pattern === 'string') return fc.stringMatching(new RegExp(schema.pattern)).filter(fits);
  return fc.string({
    minLength,
    maxLength,
    unit: fc.constantFrom('a', 'Z', '0', '7', ' ', '-', '_', '.', 'é', '%'),
  });
}

function number(schema: JsonSchema, integer: boolean): fc.Arbitrary<number> {
  const min =
    (schema.minimum as number | undefined) ?? (schema.exclusiveMinimum as number | undefined) ?? -1000;
  const max =
    (schema.maximum as number | undefined) ?? (schema.exclusiveMaximum as number | undefined) ?? 100_000;
  const inRange = (value: number) =>
    !(value === schema.exclusiveMinimum || value === schema.exclusiveMaximum) && value >= min && value <= max;
  if (integer) return fc.integer({ min: Math.ceil(min), max: Math.floor(max) }).filter(inRange);
  return fc.double({ min, max, noNaN: true, noDefaultInfinity: true }).filter(inRange);
}

function object(schema: JsonSchema): fc.Arbitrary<Record<string, unknown>> {
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  const record: Record<string, fc.Arbitrary<unknown>> = {};
  for (const [name, property] of Object.entries(properties)) record[name] = valuesOf(property);
  const requiredKeys = (schema.required ?? []) as string[];
  if (Object.keys(record).length === 0) return fc.constant({});
  return fc.record(record, { requiredKeys: requiredKeys.filter((key) => key in record) });
}

/**
 * Values a JSON Schema (the subset zod's `toJSONSchema` writes: types, bounds, enums, formats,
 * patterns, objects, arrays, unions) accepts, as a fast-check arbitrary. `$ref`s are resolved by
 * the caller beforehand (the document's inputs have none).
 */
export function valuesOf(schema: JsonSchema): fc.Arbitrary<unknown> {
  if ('const' in schema) return fc.constant(schema.const);
  if (Array.isArray(schema.enum)) return fc.constantFrom(...(schema.enum as unknown[]));
  const union = (schema.anyOf ?? schema.oneOf) as JsonSchema[] | undefined;
  if (union) return fc.oneof(...union.map(valuesOf));
  const type = Array.isArray(schema.type) ? (schema.type as string[]) : [schema.type as string | undefined];
  if (type.length > 1) return fc.oneof(...type.map((one) => valuesOf({ ...schema, type: one })));
  switch (type[0]) {
    case 'string':
      return text(schema);
    case 'integer':
      return number(schema, true);
    case 'number':
      return number(schema, false);
    case 'boolean':
      return fc.boolean();
    case 'null':
      return fc.constant(null);
    case 'array':
      return fc.array(valuesOf((schema.items ?? {}) as JsonSchema), {
        minLength: (schema.minItems as number | undefined) ?? 0,
        maxLength: Math.min((schema.maxItems as number | undefined) ?? 4, 4),
      });
    case 'object':
      return object(schema);
    default:
      return fc.jsonValue();
  }
}

/** Values a schema most likely refuses: another type, or anything at all. */
export function junk(): fc.Arbitrary<unknown> {
  return fc.oneof(
    fc.string({ maxLength: 300 }),
    fc.integer(),
    fc.constant(null),
    fc.boolean(),
    fc.jsonValue({ maxDepth: 2 }),
    fc.constant(''),
  );
}

/** An object schema's value with one field made wrong (or an unknown field added). */
export function objectWithOneBadField(schema: JsonSchema): fc.Arbitrary<unknown> {
  const names = Object.keys((schema.properties ?? {}) as object);
  return fc
    .tuple(valuesOf(schema), fc.constantFrom('(unknown field)', ...names), junk())
    .map(([value, name, bad]) => ({ ...(value as object), [name]: bad }));
}
