import type { z } from 'zod';
import { UsageError } from './errors.js';

/** Parses command-line input; the schemas carry whole-sentence messages, so they are shown as they are. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new UsageError(result.error.issues.map((issue) => issue.message).join('; '));
}
