import { z } from 'zod';
import { defineRoutes } from './route-spec.js';

/** `GET /health`. */
export const HealthSchema = z.object({
  status: z.enum(['ok', 'degraded']),
  version: z.string(),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
  reference_data: z.record(z.string(), z.string()),
  uptime_seconds: z.number().nonnegative(),
});
export type Health = z.infer<typeof HealthSchema>;

/** `GET /config`: what a client needs to know; clients never branch on the setup otherwise. */
export const ClientConfigSchema = z.object({
  identity: z
    .object({
      provider: z.enum(['local', 'cognito']),
      region: z.string(),
      user_pool_id: z.string(),
      client_id: z.string(),
      endpoint: z.string().nullable(),
    })
    .nullable(),
  payments: z
    .object({
      provider: z.enum(['local', 'stripe']),
      publishable_key: z.string(),
    })
    .nullable(),
  limits: z.object({ max_upload_bytes: z.number().int().positive() }),
});
export type ClientConfig = z.infer<typeof ClientConfigSchema>;

export const serviceRoutes = defineRoutes('service', {
  health: {
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Service health',
    response: HealthSchema,
  },
  config: {
    method: 'GET',
    path: '/config',
    auth: 'none',
    summary: 'What clients need to know: identity pool, payment provider, limits',
    response: ClientConfigSchema,
  },
});
