import { z } from 'zod';
import { MessageSchema } from './account.js';
import { PROOF_KEYS_PATH, ProofKeySetSchema } from './proof.js';
import { defineRoutes } from './route-spec.js';
import { DncListDateSchema } from './verify.js';
import { EMAIL_FORMAT } from './wire-formats.js';

/**
 * The do-not-call lists every account's checks consult: `loaded` (federal, `state:XX`), `required`
 * by the operator (SCRUB_REQUIRE_DNC), and the required ones not loaded or stale (checks answer
 * 503 then). Accounts' internal lists are not named here.
 */
export const DncListsStatusSchema = z.object({
  loaded: z.array(z.string()),
  required: z.array(z.string()),
  missing_required: z.array(z.string()),
  /** Loaded lists past the maximum age, or of unknown date (`/health` is `degraded`). Absent from older servers. */
  stale: z.array(z.string()).optional(),
  /** Each loaded list's release date and age. Absent from older servers. */
  lists: z.array(DncListDateSchema).optional(),
  /** The age past which a federal or state list is stale (SCRUB_DNC_MAX_AGE_DAYS). Absent from older servers. */
  max_age_days: z.number().int().positive().optional(),
});
export type DncListsStatus = z.infer<typeof DncListsStatusSchema>;

/** `GET /health`. */
export const HealthSchema = z
  .object({
    status: z.enum(['ok', 'degraded']),
    version: z.string(),
    database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.boolean() }),
    /** Whether files can be stored now (a full or read-only disk makes it false). Absent from older servers. */
    storage: z.object({ kind: z.enum(['local', 's3']), ok: z.boolean() }).optional(),
    reference_data: z.record(z.string(), z.string()),
    dnc_lists: DncListsStatusSchema,
    uptime_seconds: z.number().nonnegative(),
  })
  .meta({ id: 'Health' });
export type Health = z.infer<typeof HealthSchema>;

/** `GET /health/live`: the process is up and its event loop answers. Nothing else is checked. */
export const LivenessSchema = z.object({
  status: z.literal('ok'),
  uptime_seconds: z.number().nonnegative(),
});
export type Liveness = z.infer<typeof LivenessSchema>;

/**
 * `GET /health/ready`: this process may be sent traffic. Answered only when every check holds;
 * otherwise 503 `service_unavailable`, its message naming what does not.
 */
export const ReadinessSchema = z.object({
  status: z.literal('ready'),
  database: z.object({ kind: z.enum(['pglite', 'postgres']), ok: z.literal(true) }),
  storage: z.object({ kind: z.enum(['local', 's3']), ok: z.literal(true) }),
  /** The lists SCRUB_REQUIRE_DNC names, each loaded and within SCRUB_DNC_MAX_AGE_DAYS. */
  dnc_lists: z.object({ required: z.array(z.string()), loaded: z.array(z.string()) }),
  /** Every migration this version knows is applied to the database. */
  migrations: z.object({ applied: z.number().int().nonnegative() }),
});
export type Readiness = z.infer<typeof ReadinessSchema>;

/** `GET /config`: what a client needs to know; clients never branch on the setup otherwise. */
export const ClientConfigSchema = z.object({
  identity: z
    .object({
      provider: z.enum(['local', 'cognito']),
      region: z.string(),
      user_pool_id: z.string(),
      client_id: z.string(),
      endpoint: z.string().nullable(),
      /**
       * The pool's hosted sign-in (Amazon Cognito's domain, `https://...`, and the app client it
       * signs in to); null or absent when there is none (always for the built-in pool).
       */
      hosted_ui: z.object({ domain: z.string(), client_id: z.string() }).nullable().optional(),
    })
    .nullable(),
  payments: z
    .object({
      provider: z.enum(['local', 'stripe']),
      publishable_key: z.string(),
      /** Stripe.js for `loadStripe`: Stripe's own, or the built-in provider's stand-in. */
      js_url: z.string(),
    })
    .nullable(),
  limits: z.object({ max_upload_bytes: z.number().int().positive() }),
  dnc_lists: DncListsStatusSchema,
  /**
   * The live carrier lookup (`lookup=carrier`): whether this service offers it, and the credits an
   * answered lookup costs beside its check. Absent from older servers.
   */
  carrier_lookup: z
    .object({
      offered: z.boolean(),
      provider: z.string().nullable(),
      credits: z.number().int().nonnegative(),
    })
    .optional(),
  /**
   * Reassigned-number answers (`consent_date`, a bulk job's `consent_col`): the credits one costs
   * beside its check, and whether a bulk job can be answered (a disconnect file is imported).
   * Absent from older servers.
   */
  reassigned: z
    .object({
      credits: z.number().int().nonnegative(),
      bulk: z.boolean(),
    })
    .optional(),
});
export type ClientConfig = z.infer<typeof ClientConfigSchema>;

/** `POST /contact`: the Contact page's message, mailed to the operator. The seed's messages for each field. */
export const ContactMessageSchema = z
  .object({
    name: z.string().trim().min(1, 'Name is required').max(200),
    email: z
      .string()
      .trim()
      .min(1, 'Email is required')
      .max(254)
      .meta(EMAIL_FORMAT)
      .pipe(z.email('Invalid email address')),
    // One line: it becomes the e-mail's subject.
    subject: z
      .string()
      .trim()
      .min(1, 'Subject is required')
      .max(200)
      .regex(/^[^\r\n]*$/, 'Subject must be one line'),
    message: z.string().trim().min(1, 'Message is required').max(5000),
    /**
     * The human check: the solved ALTCHA challenge of `GET /contact/challenge`, as the ALTCHA widget
     * sends it (base64 of `{"challenge": ..., "solution": ...}`). Checked by the service, once.
     */
    altcha: z
      .string()
      .min(1, 'Complete the human check')
      .max(8000, 'is not a solved human check')
      .describe('The solved ALTCHA challenge of GET /contact/challenge (base64 JSON payload)'),
  })
  .strict()
  .meta({ id: 'ClientConfig' });
export type ContactMessage = z.infer<typeof ContactMessageSchema>;

/**
 * `GET /contact/challenge`: an ALTCHA proof-of-work challenge (protocol v2), signed by the service.
 * A client solves it (`solveChallenge` of the `altcha-lib` package, or the `altcha` widget) and
 * sends the solution with the message as `altcha`. It expires (`parameters.expiresAt`, seconds)
 * and can be used once.
 */
export const ContactChallengeSchema = z.object({
  parameters: z
    .object({
      algorithm: z.string(),
      nonce: z.string(),
      salt: z.string(),
      cost: z.number(),
      keyLength: z.number(),
      keyPrefix: z.string(),
      keySignature: z.string().optional(),
      expiresAt: z.number().optional(),
    })
    .loose(),
  signature: z.string(),
});
export type ContactChallenge = z.infer<typeof ContactChallengeSchema>;

/** An OpenAPI 3.1 document (`openapi`, `info`, `paths`, `components`): see openapi.ts. */
export const OpenApiDocumentSchema = z
  .object({
    openapi: z.string(),
    info: z.object({ title: z.string(), version: z.string() }).loose(),
    paths: z.record(z.string(), z.unknown()),
  })
  .loose()
  .meta({ id: 'OpenApiDocument' });
export type OpenApiDocument = z.infer<typeof OpenApiDocumentSchema>;

export const serviceRoutes = defineRoutes('service', {
  health: {
    method: 'GET',
    path: '/health',
    auth: 'none',
    summary: 'Service health',
    response: HealthSchema,
  },
  healthLive: {
    method: 'GET',
    path: '/health/live',
    auth: 'none',
    summary: 'Liveness, for orchestrators: the process is up and answers',
    response: LivenessSchema,
  },
  healthReady: {
    method: 'GET',
    path: '/health/ready',
    auth: 'none',
    errors: ['service_unavailable'],
    summary:
      'Readiness, for orchestrators: database and file store reachable, required do-not-call lists loaded and fresh, migrations applied; 503 naming what is not',
    response: ReadinessSchema,
  },
  config: {
    method: 'GET',
    path: '/config',
    auth: 'none',
    summary: 'What clients need to know: identity pool, payment provider, limits',
    response: ClientConfigSchema,
  },
  openApi: {
    method: 'GET',
    path: '/openapi.json',
    auth: 'none',
    summary: 'This API as an OpenAPI 3.1 document, to generate a client in any language',
    response: OpenApiDocumentSchema,
  },
  proofKeys: {
    method: 'GET',
    path: PROOF_KEYS_PATH,
    auth: 'none',
    summary: 'The public keys (JWKS) proofs of scrub are signed with, retired keys included',
    response: ProofKeySetSchema,
  },
  contact: {
    method: 'POST',
    path: '/contact',
    auth: 'none',
    summary:
      "Send the Contact page's message to the operator, with its solved human check (rate-limited per client address)",
    body: ContactMessageSchema,
    response: MessageSchema,
  },
  contactChallenge: {
    method: 'GET',
    path: '/contact/challenge',
    auth: 'none',
    summary: "A human check for the Contact page's message: an ALTCHA proof-of-work challenge to solve",
    response: ContactChallengeSchema,
  },
});
