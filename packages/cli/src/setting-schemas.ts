import { z } from 'zod';

// What each setting of a profile may hold, apart from the file that keeps them (config-store.ts):
// a command given its URL and key by flags or variables validates them without loading `conf`.

export const settingKeys = ['api_url', 'api_key', 'output'] as const;
export type SettingKey = (typeof settingKeys)[number];

/** `label` names where the value came from (a flag, a variable, a key), so the message points there. */
export function httpUrl(label: string) {
  return z.url({
    protocol: /^https?$/,
    error: (issue) =>
      `${label} must be an http:// or https:// URL, such as http://localhost:8787 (got "${String(issue.input)}")`,
  });
}

export function profileName(label: string) {
  return z
    .string()
    .regex(
      /^[A-Za-z0-9_-]+$/,
      `${label} must be letters, digits, "-" or "_" (a profile name such as "default" or "ci")`,
    );
}

/** The key is a secret: its messages never repeat it. */
const apiKey = z
  .string()
  .min(1, 'api_key is empty: pipe the key on stdin, e.g. printf %s "$KEY" | scrub config set api_key -')
  .regex(/^\S+$/, 'api_key must be one word, with no spaces or line breaks');

export const settingSchemas = {
  api_url: httpUrl('api_url'),
  api_key: apiKey,
  output: z.enum(['table', 'json'], {
    error: (issue) => `output must be "table" or "json" (got "${String(issue.input)}")`,
  }),
} satisfies Record<SettingKey, z.ZodType>;

export const ProfileSchema = z.object(settingSchemas).partial();
export type Profile = z.infer<typeof ProfileSchema>;
