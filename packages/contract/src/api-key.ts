import { z } from 'zod';
import { defineRoutes } from './route-spec.js';

/** `PUT /apikey`: the full key is in this answer and nowhere else, ever. */
export const ApiKeyRotationSchema = z
  .object({
    api_key: z.string(),
    api_key_id: z.string(),
    last4: z.string().length(4),
    created_at: z.string(),
  })
  .meta({ id: 'ApiKeyRotation' });
export type ApiKeyRotation = z.infer<typeof ApiKeyRotationSchema>;

export const apiKeyRoutes = defineRoutes('api-key', {
  rotateApiKey: {
    method: 'PUT',
    path: '/apikey',
    auth: 'user',
    ownerOnly: true,
    summary: 'Generate a new API key; the old one stops working at once',
    response: ApiKeyRotationSchema,
  },
});
