import { z } from 'zod';
import { UsageError } from './errors.js';

/** Parses command-line input; the schemas carry whole-sentence messages, so they are shown as they are. */
export function parseInput<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = schema.safeParse(input);
  if (result.success) return result.data;
  throw new UsageError(result.error.issues.map((issue) => issue.message).join('; '));
}

/** `--name`: the file name a job or a stored file is shown under (the uploaded file's, by default). */
export const fileNameOption = z
  .string()
  .trim()
  .min(1, '--name needs a file name')
  .max(255, '--name takes at most 255 characters')
  .optional();
