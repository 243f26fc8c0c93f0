import { z } from 'zod';
import { BulkJobSchema } from './bulk.js';
import { defineRoutes } from './route-spec.js';
import { HTTP_URL_FORMAT } from './wire-formats.js';

/** The events an endpoint may subscribe to: a bulk job ended, one way or the other. */
export const WEBHOOK_EVENT_TYPES = ['job.completed', 'job.failed'] as const;
export const WebhookEventTypeSchema = z.enum(WEBHOOK_EVENT_TYPES);
export type WebhookEventType = z.infer<typeof WebhookEventTypeSchema>;

/** What `POST /webhook-endpoints/{id}/test` sends: a delivery to check a receiver with, about no job. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';

/** The most endpoints one account may register. */
export const MAX_WEBHOOK_ENDPOINTS = 16;

/** The header every delivery carries: `t=<unix seconds>,v1=<hex HMAC-SHA256(secret, "<t>.<body>")>`. */
export const WEBHOOK_SIGNATURE_HEADER = 'Scrub-Signature';

/** `POST /webhook-endpoints`: where to POST, which events (both by default), and a note for people. */
export const CreateWebhookEndpointSchema = z
  .object({
    url: z
      .string()
      .trim()
      .max(2048, 'is at most 2048 characters')
      .meta(HTTP_URL_FORMAT)
      .pipe(z.url({ protocol: /^https?$/, error: 'must be an http:// or https:// URL' })),
    events: z
      .array(WebhookEventTypeSchema)
      .min(1, `names at least one event: ${WEBHOOK_EVENT_TYPES.join(', ')}`)
      .default([...WEBHOOK_EVENT_TYPES])
      .transform((events) => [...new Set(events)]),
    description: z.string().trim().max(255).default(''),
  })
  .strict();
export type CreateWebhookEndpoint = z.input<typeof CreateWebhookEndpointSchema>;

export const WebhookEndpointSchema = z
  .object({
    id: z.string(),
    url: z.string(),
    events: z.array(WebhookEventTypeSchema),
    description: z.string(),
    created_at: z.string(),
  })
  .meta({ id: 'WebhookEndpoint' });
export type WebhookEndpoint = z.infer<typeof WebhookEndpointSchema>;

/** The endpoint with its signing secret (`whsec_...`): in this answer only, when made or rotated. */
export const WebhookEndpointWithSecretSchema = WebhookEndpointSchema.extend({ secret: z.string() }).meta({
  id: 'WebhookEndpointWithSecret',
});
export type WebhookEndpointWithSecret = z.infer<typeof WebhookEndpointWithSecretSchema>;

/** How long a rotated-out secret keeps signing by default: a day. */
export const DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS = 86_400;
/** The longest grace a caller may ask for: a week. */
export const MAX_WEBHOOK_SECRET_GRACE_SECONDS = 7 * 86_400;

/**
 * `POST /webhook-endpoints/{id}/rotate-secret`: how long the old secret keeps signing beside the
 * new one (seconds; 0 retires it at once). Every delivery in that time carries two `v1=`
 * signatures, the new secret's first.
 */
export const RotateWebhookSecretSchema = z
  .object({
    grace_seconds: z
      .number()
      .int()
      .min(0)
      .max(MAX_WEBHOOK_SECRET_GRACE_SECONDS, `is at most ${MAX_WEBHOOK_SECRET_GRACE_SECONDS} (a week)`)
      .default(DEFAULT_WEBHOOK_SECRET_GRACE_SECONDS),
  })
  .strict();
export type RotateWebhookSecret = z.input<typeof RotateWebhookSecretSchema>;

/** The rotated endpoint with its new secret, and until when the old one still signs (null: it stopped). */
export const RotatedWebhookSecretSchema = WebhookEndpointWithSecretSchema.extend({
  previous_secret_expires_at: z.string().nullable(),
});
export type RotatedWebhookSecret = z.infer<typeof RotatedWebhookSecretSchema>;

export const WebhookEndpointListSchema = z
  .object({ endpoints: z.array(WebhookEndpointSchema) })
  .meta({ id: 'WebhookEndpointList' });
export type WebhookEndpointList = z.infer<typeof WebhookEndpointListSchema>;

/** The body of every delivery, signed as sent. `created` is in Unix seconds, as Stripe's are. */
export const WebhookEventSchema = z.object({
  id: z.string(),
  type: z.string(),
  created: z.number().int(),
  data: z.object({ job: BulkJobSchema.optional() }).catchall(z.unknown()),
});
export type WebhookEvent = z.infer<typeof WebhookEventSchema>;

export const WEBHOOK_DELIVERY_STATUSES = ['pending', 'delivered', 'failed'] as const;

/** One POST to the receiver: what it answered (or why it answered nothing) and how fast. */
export const WebhookAttemptSchema = z.object({
  attempt: z.number().int().positive(),
  attempted_at: z.string(),
  /** The receiver's HTTP status; null when it gave none (refused, timed out). */
  status_code: z.number().int().nullable(),
  response_ms: z.number().int().nonnegative().nullable(),
  /** Why the attempt did not count as delivered; null when it did. */
  error: z.string().nullable(),
});
export type WebhookAttempt = z.infer<typeof WebhookAttemptSchema>;

/** One event sent to one endpoint: pending (retried until `next_retry_at`), delivered or failed. */
export const WebhookDeliverySchema = z
  .object({
    id: z.string(),
    event_id: z.string(),
    type: z.string(),
    status: z.enum(WEBHOOK_DELIVERY_STATUSES),
    attempts: z.number().int().nonnegative(),
    /** The last attempt's answer, as in `log`. */
    status_code: z.number().int().nullable(),
    response_ms: z.number().int().nonnegative().nullable(),
    error: z.string().nullable(),
    /** When a pending delivery is tried next; null once delivered or failed. */
    next_retry_at: z.string().nullable(),
    created_at: z.string(),
    /** Every attempt, first to last. */
    log: z.array(WebhookAttemptSchema),
  })
  .meta({ id: 'WebhookDelivery' });
export type WebhookDelivery = z.infer<typeof WebhookDeliverySchema>;

export const WebhookDeliveryListSchema = z
  .object({
    deliveries: z.array(WebhookDeliverySchema),
    page: z.number().int(),
    total_pages: z.number().int(),
    total_count: z.number().int(),
  })
  .meta({ id: 'WebhookDeliveryList' });
export type WebhookDeliveryList = z.infer<typeof WebhookDeliveryListSchema>;

export const WebhookDeliveryListQuerySchema = z.object({
  page: z.coerce.number().int().min(1).default(1),
  limit: z.coerce.number().int().min(1).max(100).default(20),
});

const EndpointParams = z.object({ endpoint_id: z.string().min(1).max(64) });

export const webhooksRoutes = defineRoutes('webhooks', {
  createWebhookEndpoint: {
    method: 'POST',
    path: '/webhook-endpoints',
    auth: 'user',
    errors: ['conflict'],
    summary: 'Register an endpoint for job events; answers its signing secret, this once',
    body: CreateWebhookEndpointSchema,
    response: WebhookEndpointWithSecretSchema,
    status: 201,
  },
  listWebhookEndpoints: {
    method: 'GET',
    path: '/webhook-endpoints',
    auth: 'user',
    summary: "The account's webhook endpoints, oldest first",
    response: WebhookEndpointListSchema,
  },
  getWebhookEndpoint: {
    method: 'GET',
    path: '/webhook-endpoints/{endpoint_id}',
    auth: 'user',
    summary: 'One webhook endpoint',
    params: EndpointParams,
    response: WebhookEndpointSchema,
  },
  removeWebhookEndpoint: {
    method: 'DELETE',
    path: '/webhook-endpoints/{endpoint_id}',
    auth: 'user',
    summary: 'Remove an endpoint: nothing more is sent to it, its delivery log goes with it',
    params: EndpointParams,
    response: WebhookEndpointSchema,
  },
  rotateWebhookSecret: {
    method: 'POST',
    path: '/webhook-endpoints/{endpoint_id}/rotate-secret',
    auth: 'user',
    summary:
      'A new signing secret for the endpoint; the old one keeps signing beside it for `grace_seconds` (a day by default)',
    params: EndpointParams,
    body: RotateWebhookSecretSchema.nullish(),
    response: RotatedWebhookSecretSchema,
  },
  testWebhookEndpoint: {
    method: 'POST',
    path: '/webhook-endpoints/{endpoint_id}/test',
    auth: 'user',
    errors: ['conflict'],
    summary: 'Send a signed `webhook.test` event to the endpoint now; answers the delivery',
    params: EndpointParams,
    response: WebhookDeliverySchema,
  },
  listWebhookDeliveries: {
    method: 'GET',
    path: '/webhook-endpoints/{endpoint_id}/deliveries',
    auth: 'user',
    summary: "An endpoint's deliveries, newest first, each with its attempts",
    params: EndpointParams,
    query: WebhookDeliveryListQuerySchema,
    response: WebhookDeliveryListSchema,
  },
});
