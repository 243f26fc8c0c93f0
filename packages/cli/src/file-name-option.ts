import { z } from 'zod';

/**
 * `--name`: the file name a job or a stored file is shown under (the uploaded file's, by default).
 * A module of its own: only the actions that take it load zod for it, never the program's start.
 */
export const fileNameOption = z
  .string()
  .trim()
  .min(1, '--name needs a file name')
  .max(255, '--name takes at most 255 characters')
  .optional();
