import { z } from 'zod';

/**
 * What the OpenAPI document says of a field whose zod schema reads text first and checks it after
 * (a trim, then an e-mail rule; a comma-separated list, then each item): zod's JSON Schema shows only
 * the text, so these say the rule the service applies (`.meta(...)`), without changing what it accepts.
 */

/** An e-mail address (checked after trimming): JSON Schema's format, and the pattern zod checks. */
export const EMAIL_FORMAT = { format: 'email', pattern: z.regexes.email.source } as const;

/** An http:// or https:// URL (checked after trimming). */
export const HTTP_URL_FORMAT = { format: 'uri', pattern: '^\\s*[Hh][Tt][Tt][Pp][Ss]?://' } as const;

/**
 * A query value of comma-separated items, each one of `values`: a list in OpenAPI's terms, sent as
 * one comma-separated value (`style: form, explode: false`), so generated clients type each item.
 */
export function commaSeparatedList(values: readonly string[]) {
  return {
    type: 'array',
    items: { type: 'string', enum: [...values] },
    maxLength: undefined,
    pattern: undefined,
  } as const;
}
