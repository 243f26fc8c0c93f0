// Over 500 lines, kept whole: every setting the service reads, one field and one line of reading each;
// groups of settings with rules of their own live beside it in *-settings.ts.
import { join } from 'node:path';
import { z } from 'zod';
import { ConfigError } from '../errors/config-error.js';
import { type CarrierLookupSettings, loadCarrierLookupSettings } from './carrier-lookup-settings.js';
import { loadCheckLogDays } from './check-log-settings.js';
import { loadFileRetentionDays } from './file-retention-settings.js';
import { loadMetricsSettings, type MetricsSettings } from './metrics-settings.js';
import { loadPaymentSettings, type PaymentSettings } from './payment-settings.js';
import { loadReassignedSettings, type ReassignedSettings } from './reassigned-settings.js';
import { loadRegistryInboxSettings, type RegistryInboxSettings } from './registry-inbox-settings.js';
import type { BlobStoreTarget, DatabaseTarget } from './targets.js';
import { loadTimeoutSettings, type TimeoutSettings } from './timeout-settings.js';
import { loadTracingSettings, type TracingSettings } from './tracing-settings.js';

export interface ServerConfig {
  host: string;
  port: number;
  dataDir: string;
  database: DatabaseTarget;
  logLevel: string;
  production: boolean;
  /** Largest JSON body the API reads. */
  maxBodyBytes: number;
  /** Largest CSV upload accepted (bulk jobs). */
  maxUploadBytes: number;
  /** How long an upload URL accepts its file. */
  uploadUrlTtlSeconds: number;
  /** The part size of a resumable upload (every part but the last); S3 needs at least 5 MiB. */
  uploadPartBytes: number;
  /** Jobs created and never submitted: removed (with their file) this long after creation; at most `max` per account. */
  unsubmittedJobs: { ttlSeconds: number; max: number };
  /** Where uploads and result files live: `<dataDir>/files`, or an S3 bucket when one is set. */
  blobStore: BlobStoreTarget;
  /** An Amazon Cognito user pool whose ID tokens the API accepts; null for the built-in pool. */
  cognito: {
    region: string;
    userPoolId: string;
    clientId: string;
    /** The pool's hosted sign-in domain (`https://<prefix>.auth.<region>.amazoncognito.com` or a custom one); null or absent: none. */
    hostedDomain?: string | null;
  } | null;
  /** Lower-cased e-mail addresses that are Super Admin on sign-in (the first admin). */
  adminEmails: string[];
  requireMfaFor: 'admin'[]; // must sign in with a second factor (SCRUB_REQUIRE_MFA_FOR=admin: Admin and Super Admin)
  /** Where clients reach the service (the built-in pool's issuer and endpoint hang off it); null: http://localhost:<port>. */
  publicUrl: string | null;
  /** Origins (`https://app.example.com`) whose pages may call the API and upload URLs from a browser; none by default. */
  corsOrigins: string[];
  /** The built-in user pool, which serves when no Amazon Cognito pool is configured. */
  localIdentity: {
    userPoolId: string;
    clientId: string;
    /** Lifetime of ID and access tokens. */
    tokenTtlSeconds: number;
    refreshTokenTtlSeconds: number;
  };
  /** Who the Contact page's messages are mailed to: SCRUB_CONTACT_EMAIL, else the first admin, else support@scrub.localhost. */
  contactEmail: string;
  /**
   * The key the Contact form's human checks (ALTCHA proof-of-work challenges) are signed with:
   * SCRUB_CAPTCHA_HMAC_KEY, else null and one is made at each start (every process of a
   * multi-process deployment needs the same key: set it there).
   */
  captchaHmacKey: string | null;
  /** Every e-mail is kept in the outbox; with an SMTP URL it is also sent. */
  mail: { smtpUrl: string | null; from: string };
  /** How long /verify reuses an account's answer for free (0: never), and how many answers it keeps. */
  verifyCache: { ttlSeconds: number; maxEntries: number };
  /** How long a process remembers who owns an API key (a replaced key may work that long in other processes). */
  apiKeyCacheSeconds: number;
  /** Whether this process runs bulk jobs from the queue (off for processes that only answer the API). */
  runBulkWorker: boolean;
  /**
   * Threads a large bulk job's scrub is spread over (SCRUB_SCRUB_THREADS; default 1: every job on
   * one thread, as before). The result is the same either way.
   */
  scrubThreads: number;
  /**
   * Do-not-call lists checks may not answer without (SCRUB_REQUIRE_DNC: `federal`, `state:TX`...):
   * while one is not loaded, checks answer 503 and bulk jobs fail with their credits given back.
   */
  requireDnc: string[];
  /**
   * Days after its release date a federal or state do-not-call list stops answering "not listed"
   * (SCRUB_DNC_MAX_AGE_DAYS, default 31: the Telemarketing Sales Rule's safe harbor). Past it, a
   * number only that list covers answers unchecked, a required list counts as missing, and /health
   * reports degraded.
   */
  dncMaxAgeDays: number;
  /** The registry inbox (SCRUB_DNC_INBOX), its polling interval, and the FTC subscription account number. */
  registryInbox: RegistryInboxSettings;
  /** Stripe, or the built-in payment provider when no Stripe key is set. */
  payments: PaymentSettings;
  /** Reassigned-number checks: who answers them, and what one costs. */
  reassigned: ReassignedSettings;
  /** The optional live carrier lookup (Twilio Lookup), off unless its credentials are set. */
  carrierLookup: CarrierLookupSettings;
  metrics: MetricsSettings | null;
  /** OpenTelemetry traces, when the OTEL_* variables turn them on (docs/operations.md, Tracing); null: off. */
  tracing: TracingSettings | null;
  checkLogDays: number; // the phone log's retention (SCRUB_CHECK_LOG_DAYS)
  fileRetentionDays: number; // uploads' and results' retention (SCRUB_FILE_RETENTION_DAYS)
  /** Requests allowed per API key, per account and per client address (null: no limit), counted in the database. */
  rateLimits: RateLimits;
  /** Sign-ups allowed from one client address (built-in user pool). */
  signUpsPerAddress: RateLimit | null;
  /** Wrong passwords from one client address before its sign-ins wait (built-in user pool). */
  signInFailuresPerAddress: RateLimit;
  /** Which proxies' `X-Forwarded-For` names the client (Fastify's trustProxy); false: the peer is the client. */
  trustProxy: boolean | number | string[];
  /** The Ed25519 key proofs of scrub are signed with (null: one kept in the data directory), and retired public keys. */
  proofKeys: { signingKey: string | null; retiredKeys: string | null };
  /** Job webhooks (docs/webhooks.md). */
  webhooks: WebhookSettings;
  /** Time limits on clients and on shutdown (docs/operations.md, Shutdown). */
  timeouts: TimeoutSettings;
}

export interface WebhookSettings {
  /**
   * Whether endpoints may be `http://` and on loopback or private networks (a receiver on this
   * machine): SCRUB_WEBHOOK_ALLOW_LOCAL; by default only with the embedded database outside
   * production. Otherwise `https://` to public addresses only.
   */
  allowLocal: boolean;
  /** The first retry's delay; each next one doubles, up to an hour (SCRUB_WEBHOOK_RETRY_BASE_SECONDS). */
  retryBaseMs: number;
  /** How long after its event a delivery is retried before it fails (SCRUB_WEBHOOK_RETRY_FOR_SECONDS). */
  retryForSeconds: number;
  /**
   * How many days events, their deliveries and every attempt are kept before the worker's sweep
   * removes them (SCRUB_WEBHOOK_RETENTION_DAYS, 30). A delivery still being retried is kept.
   */
  retentionDays: number;
}

/** At most `max` requests in each window of `windowSeconds`. */
export interface RateLimit {
  max: number;
  windowSeconds: number;
}

export interface RateLimits {
  perKey: RateLimit | null;
  perAccount: RateLimit | null;
  perAddress: RateLimit | null;
}

const MiB = 1024 * 1024;

const WINDOW_UNITS = { s: 1, m: 60, h: 3600 } as const;

/** `100/s`, `600/10s`, `20/h`, or `off`: a count per window. */
const rateLimitSetting = z
  .string()
  .trim()
  .regex(/^(off|\d+\/\d*[smh])$/, 'must be a count per window such as 100/s, 600/10s, 30/m, 20/h, or off')
  .transform((value): RateLimit | null => {
    if (value === 'off') return null;
    const [count = '', window = ''] = value.split('/');
    const unit = window.slice(-1) as keyof typeof WINDOW_UNITS;
    const windowSeconds = Number(window.slice(0, -1) || '1') * WINDOW_UNITS[unit];
    return { max: Number(count), windowSeconds };
  })
  .refine(
    (limit) =>
      limit === null || (limit.max >= 1 && limit.windowSeconds >= 1 && limit.windowSeconds <= 86_400),
    'must allow at least 1 request in a window of 1 second to 1 day',
  );

/** `true`, a number of proxy hops, or a comma-separated list of proxy addresses (CIDR allowed). */
const trustProxySetting = z
  .string()
  .trim()
  .transform((value): boolean | number | string[] => {
    if (value === 'true' || value === 'false') return value === 'true';
    if (/^\d+$/.test(value)) return Number(value);
    return value
      .split(',')
      .map((address) => address.trim())
      .filter(Boolean);
  });

const EnvSchema = z.object({
  SCRUB_HOST: z.string().min(1).default('127.0.0.1'),
  SCRUB_PORT: z.coerce.number().int().min(0).max(65535).default(8787),
  SCRUB_DATA_DIR: z.string().min(1).optional(),
  DATABASE_URL: z
    .string()
    .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// or postgresql:// URL')
    .optional(),
  SCRUB_LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  NODE_ENV: z.string().optional(),
  SCRUB_MAX_BODY_BYTES: z.coerce.number().int().positive().default(MiB),
  SCRUB_MAX_UPLOAD_BYTES: z.coerce
    .number()
    .int()
    .positive()
    .default(1024 * MiB),
  // Seven days is the longest S3 lets a presigned URL live.
  SCRUB_UPLOAD_URL_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(7 * 86_400)
    .default(3600),
  // S3 takes parts of 5 MiB and more (but the last); smaller suits the local store's tests.
  SCRUB_UPLOAD_PART_BYTES: z.coerce
    .number()
    .int()
    .min(1024)
    .max(5 * 1024 * MiB)
    .default(8 * MiB),
  SCRUB_UNSUBMITTED_JOB_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(86_400),
  SCRUB_MAX_UNSUBMITTED_JOBS: z.coerce.number().int().min(1).max(100_000).default(100),
  SCRUB_PROOF_SIGNING_KEY: z.string().min(1).optional(),
  SCRUB_PROOF_RETIRED_KEYS: z.string().min(1).optional(),
  SCRUB_S3_BUCKET: z
    .string()
    .regex(/^[\w.-]{3,255}$/, 'must be a bucket name')
    .optional(),
  SCRUB_S3_REGION: z
    .string()
    .regex(/^[a-z0-9-]+$/, 'must be a region such as us-east-1')
    .optional(),
  SCRUB_S3_ENDPOINT: z
    .string()
    .regex(/^https?:\/\/[^\s]+$/, 'must be an http:// or https:// URL')
    .optional(),
  SCRUB_S3_FORCE_PATH_STYLE: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((flag) => flag === 'true' || flag === '1')
    .default(false),
  SCRUB_COGNITO_USER_POOL_ID: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+_[0-9A-Za-z]+$/, 'must look like us-east-1_AbCdEf123')
    .max(55)
    .optional(),
  SCRUB_COGNITO_CLIENT_ID: z
    .string()
    .regex(/^[0-9a-z]+$/, 'must be the app client id')
    .optional(),
  SCRUB_COGNITO_DOMAIN: z
    .string()
    .regex(
      /^(https:\/\/)?[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)+\/?$/i,
      'must be the hosted sign-in domain, like myapp.auth.us-east-1.amazoncognito.com',
    )
    .transform((domain) => `https://${domain.replace(/^https:\/\//i, '').replace(/\/$/, '')}`)
    .optional(),
  SCRUB_COGNITO_REGION: z
    .string()
    .regex(/^[a-z]{2}(-[a-z]+)+-\d+$/, 'must look like us-east-1')
    .optional(),
  SCRUB_REQUIRE_MFA_FOR: z.enum(['admin']).optional(),
  SCRUB_ADMIN_EMAILS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((e) => e.trim().toLowerCase())
        .filter(Boolean),
    )
    .pipe(z.array(z.email('must be a comma-separated list of e-mail addresses')))
    .default([]),
  SCRUB_PUBLIC_URL: z
    .string()
    .regex(/^https?:\/\/[^/?#\s]+(\/[^?#\s]*)?$/, 'must be an http:// or https:// URL without query')
    .transform((url) => url.replace(/\/+$/, ''))
    .optional(),
  SCRUB_CORS_ORIGINS: z
    .string()
    .transform((list) =>
      list
        .split(',')
        .map((origin) => origin.trim().replace(/\/+$/, ''))
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z
          .string()
          // An origin is scheme, host and port: browsers send nothing else. `*` would let any site in.
          .regex(
            /^https?:\/\/[^/?#\s*]+$/,
            'must be a comma-separated list of origins such as https://app.example.com (no * and no path)',
          ),
      ),
    )
    .default([]),
  SCRUB_LOCAL_USER_POOL_ID: z
    .string()
    .regex(/^[\w-]+_[0-9a-zA-Z]+$/, 'must look like us-east-1_scrublocal')
    .max(55)
    .default('us-east-1_scrublocal'),
  SCRUB_LOCAL_CLIENT_ID: z
    .string()
    .regex(/^[\w+]+$/, 'must be letters and digits')
    .max(128)
    .default('scrublocalclient0000000000'),
  SCRUB_TOKEN_TTL_SECONDS: z.coerce.number().int().min(60).max(86_400).default(3600),
  SCRUB_REFRESH_TOKEN_TTL_SECONDS: z.coerce
    .number()
    .int()
    .min(3600)
    .max(10 * 365 * 86_400)
    .default(30 * 86_400),
  SCRUB_SMTP_URL: z
    .string()
    .regex(/^smtps?:\/\//, 'must be an smtp:// or smtps:// URL')
    .optional(),
  SCRUB_CONTACT_EMAIL: z.email('must be an e-mail address').optional(),
  SCRUB_CAPTCHA_HMAC_KEY: z.string().min(32, 'must be at least 32 characters (a random secret)').optional(),
  SCRUB_MAIL_FROM: z.string().min(3).default('Scrub <no-reply@scrub.localhost>'),
  SCRUB_VERIFY_CACHE_SECONDS: z.coerce
    .number()
    .int()
    .min(0)
    .max(30 * 86_400)
    .default(86_400),
  SCRUB_BULK_WORKER: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((flag) => flag === 'true' || flag === '1')
    .default(true),
  SCRUB_SCRUB_THREADS: z.coerce
    .number()
    .int('must be a whole number of threads')
    .min(1, 'must be at least 1 (1: one thread per job)')
    .max(64, 'must be at most 64')
    .default(1),
  SCRUB_API_KEY_CACHE_SECONDS: z.coerce.number().int().min(0).max(300).default(10),
  SCRUB_VERIFY_CACHE_ENTRIES: z.coerce.number().int().min(1).max(100_000_000).default(100_000),
  SCRUB_DNC_MAX_AGE_DAYS: z.coerce
    .number()
    .int('must be a whole number of days')
    .min(1, 'must be at least 1')
    .max(366, 'must be at most 366')
    .default(31),
  SCRUB_REQUIRE_DNC: z
    .string()
    .default('')
    .transform((value) =>
      value
        .split(',')
        .map((name) => name.trim())
        .filter((name) => name !== ''),
    )
    .pipe(
      z.array(
        z
          .string()
          .regex(/^(federal|state:[A-Z]{2})$/, 'names do-not-call lists: federal, or state:XX (state:TX)'),
      ),
    ),
  SCRUB_RATE_LIMIT_PER_KEY: rateLimitSetting.default({ max: 100, windowSeconds: 1 }),
  SCRUB_RATE_LIMIT_PER_ACCOUNT: rateLimitSetting.default({ max: 200, windowSeconds: 1 }),
  SCRUB_RATE_LIMIT_PER_ADDRESS: rateLimitSetting.default({ max: 300, windowSeconds: 1 }),
  SCRUB_SIGN_UPS_PER_ADDRESS: rateLimitSetting.default({ max: 20, windowSeconds: 3600 }),
  SCRUB_SIGN_IN_FAILURES_PER_ADDRESS: rateLimitSetting
    .refine((limit) => limit !== null, 'cannot be off: set a high count instead')
    .default({ max: 20, windowSeconds: 900 }),
  SCRUB_TRUST_PROXY: trustProxySetting.default(false),
  SCRUB_WEBHOOK_ALLOW_LOCAL: z
    .enum(['true', 'false', '1', '0'], 'must be true or false')
    .transform((flag) => flag === 'true' || flag === '1')
    .optional(),
  SCRUB_WEBHOOK_RETRY_BASE_SECONDS: z.coerce.number().min(0.01).max(3600).default(30),
  SCRUB_WEBHOOK_RETENTION_DAYS: z.coerce.number().min(1).max(3650).default(30),
  SCRUB_WEBHOOK_RETRY_FOR_SECONDS: z.coerce
    .number()
    .int()
    .min(1)
    .max(7 * 86_400)
    .default(86_400),
});

/** Reads the service's settings from the environment; docs/operations.md lists them all. */
export function loadConfig(
  env: NodeJS.ProcessEnv = process.env,
  overrides: Partial<ServerConfig> = {},
): ServerConfig {
  const e = parseEnv(env);
  refuseConflictingSettings(e);
  const dataDir = e.SCRUB_DATA_DIR ?? join(process.cwd(), '.data');
  return {
    host: e.SCRUB_HOST,
    port: e.SCRUB_PORT,
    dataDir,
    database: e.DATABASE_URL
      ? { kind: 'postgres', url: e.DATABASE_URL }
      : { kind: 'pglite', dataDir: join(dataDir, 'pglite') },
    logLevel: e.SCRUB_LOG_LEVEL,
    production: e.NODE_ENV === 'production',
    maxBodyBytes: e.SCRUB_MAX_BODY_BYTES,
    maxUploadBytes: e.SCRUB_MAX_UPLOAD_BYTES,
    uploadUrlTtlSeconds: e.SCRUB_UPLOAD_URL_TTL_SECONDS,
    uploadPartBytes: e.SCRUB_UPLOAD_PART_BYTES,
    unsubmittedJobs: { ttlSeconds: e.SCRUB_UNSUBMITTED_JOB_TTL_SECONDS, max: e.SCRUB_MAX_UNSUBMITTED_JOBS },
    blobStore: blobStoreOf(e, dataDir),
    cognito: cognitoOf(e),
    adminEmails: e.SCRUB_ADMIN_EMAILS,
    requireMfaFor: e.SCRUB_REQUIRE_MFA_FOR ? [e.SCRUB_REQUIRE_MFA_FOR] : [],
    publicUrl: e.SCRUB_PUBLIC_URL ?? null,
    corsOrigins: e.SCRUB_CORS_ORIGINS,
    localIdentity: {
      userPoolId: e.SCRUB_LOCAL_USER_POOL_ID,
      clientId: e.SCRUB_LOCAL_CLIENT_ID,
      tokenTtlSeconds: e.SCRUB_TOKEN_TTL_SECONDS,
      refreshTokenTtlSeconds: e.SCRUB_REFRESH_TOKEN_TTL_SECONDS,
    },
    contactEmail: e.SCRUB_CONTACT_EMAIL ?? e.SCRUB_ADMIN_EMAILS[0] ?? 'support@scrub.localhost',
    captchaHmacKey: e.SCRUB_CAPTCHA_HMAC_KEY ?? null,
    mail: { smtpUrl: e.SCRUB_SMTP_URL ?? null, from: e.SCRUB_MAIL_FROM },
    verifyCache: { ttlSeconds: e.SCRUB_VERIFY_CACHE_SECONDS, maxEntries: e.SCRUB_VERIFY_CACHE_ENTRIES },
    apiKeyCacheSeconds: e.SCRUB_API_KEY_CACHE_SECONDS,
    runBulkWorker: e.SCRUB_BULK_WORKER,
    // Off by default until measured faster on the machine it runs on: on a machine whose cores are
    // busy, the threads wait on each other (docs/benchmarks.md, goal 6).
    scrubThreads: e.SCRUB_SCRUB_THREADS,
    requireDnc: [...new Set(e.SCRUB_REQUIRE_DNC)],
    dncMaxAgeDays: e.SCRUB_DNC_MAX_AGE_DAYS,
    registryInbox: overrides.registryInbox ?? loadRegistryInboxSettings(env),
    payments: overrides.payments ?? loadPaymentSettings(env),
    reassigned: overrides.reassigned ?? loadReassignedSettings(env),
    carrierLookup: loadCarrierLookupSettings(env),
    metrics: loadMetricsSettings(env),
    tracing: overrides.tracing ?? loadTracingSettings(env),
    checkLogDays: loadCheckLogDays(env),
    fileRetentionDays: loadFileRetentionDays(env),
    rateLimits: {
      perKey: e.SCRUB_RATE_LIMIT_PER_KEY,
      perAccount: e.SCRUB_RATE_LIMIT_PER_ACCOUNT,
      perAddress: e.SCRUB_RATE_LIMIT_PER_ADDRESS,
    },
    signUpsPerAddress: e.SCRUB_SIGN_UPS_PER_ADDRESS,
    signInFailuresPerAddress: e.SCRUB_SIGN_IN_FAILURES_PER_ADDRESS as RateLimit,
    trustProxy: e.SCRUB_TRUST_PROXY,
    proofKeys: {
      signingKey: e.SCRUB_PROOF_SIGNING_KEY ?? null,
      retiredKeys: e.SCRUB_PROOF_RETIRED_KEYS ?? null,
    },
    webhooks: {
      allowLocal: e.SCRUB_WEBHOOK_ALLOW_LOCAL ?? (!e.DATABASE_URL && e.NODE_ENV !== 'production'),
      retryBaseMs: e.SCRUB_WEBHOOK_RETRY_BASE_SECONDS * 1000,
      retryForSeconds: e.SCRUB_WEBHOOK_RETRY_FOR_SECONDS,
      retentionDays: e.SCRUB_WEBHOOK_RETENTION_DAYS,
    },
    timeouts: overrides.timeouts ?? loadTimeoutSettings(env),
    ...overrides,
  };
}

type Env = z.output<typeof EnvSchema>;

/** The environment read by the schema; every setting that cannot be read is named at once. */
function parseEnv(env: NodeJS.ProcessEnv): Env {
  const parsed = EnvSchema.safeParse(env);
  if (!parsed.success) {
    const problems = parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`).join('; ');
    throw new ConfigError(`Invalid settings: ${problems}`);
  }
  return parsed.data;
}

/** Settings each readable alone that cannot go together. */
function refuseConflictingSettings(e: Env): void {
  if (Boolean(e.SCRUB_COGNITO_USER_POOL_ID) !== Boolean(e.SCRUB_COGNITO_CLIENT_ID)) {
    throw new ConfigError(
      'Invalid settings: SCRUB_COGNITO_USER_POOL_ID and SCRUB_COGNITO_CLIENT_ID go together; set both or neither',
    );
  }
  if (e.SCRUB_COGNITO_DOMAIN && !e.SCRUB_COGNITO_USER_POOL_ID) {
    throw new ConfigError(
      'Invalid settings: SCRUB_COGNITO_DOMAIN is the hosted sign-in of an Amazon Cognito pool: set SCRUB_COGNITO_USER_POOL_ID and SCRUB_COGNITO_CLIENT_ID too',
    );
  }
  if (e.SCRUB_S3_BUCKET ? !e.SCRUB_S3_REGION : e.SCRUB_S3_REGION || e.SCRUB_S3_ENDPOINT) {
    throw new ConfigError(
      'Invalid settings: SCRUB_S3_BUCKET and SCRUB_S3_REGION go together (SCRUB_S3_ENDPOINT only with them); set both, or neither to keep files in the data directory',
    );
  }
  if (e.SCRUB_UNSUBMITTED_JOB_TTL_SECONDS < e.SCRUB_UPLOAD_URL_TTL_SECONDS) {
    throw new ConfigError(
      'Invalid settings: SCRUB_UNSUBMITTED_JOB_TTL_SECONDS must be at least SCRUB_UPLOAD_URL_TTL_SECONDS: a job must outlive its upload URL',
    );
  }
  if (e.NODE_ENV === 'production' && !e.SCRUB_COGNITO_USER_POOL_ID) {
    throw new ConfigError(
      'Invalid settings: NODE_ENV=production needs an Amazon Cognito user pool (SCRUB_COGNITO_USER_POOL_ID and SCRUB_COGNITO_CLIENT_ID); the built-in identity provider is for local use only',
    );
  }
}

/** An S3 bucket when one is set, else `<dataDir>/files`. */
function blobStoreOf(e: Env, dataDir: string): BlobStoreTarget {
  return e.SCRUB_S3_BUCKET && e.SCRUB_S3_REGION
    ? {
        kind: 's3',
        bucket: e.SCRUB_S3_BUCKET,
        region: e.SCRUB_S3_REGION,
        endpoint: e.SCRUB_S3_ENDPOINT ?? null,
        forcePathStyle: e.SCRUB_S3_FORCE_PATH_STYLE,
      }
    : { kind: 'local', dir: join(dataDir, 'files') };
}

/** The Amazon Cognito pool whose tokens the API accepts, or null for the built-in pool. */
function cognitoOf(e: Env): ServerConfig['cognito'] {
  return e.SCRUB_COGNITO_USER_POOL_ID && e.SCRUB_COGNITO_CLIENT_ID
    ? {
        // A pool id starts with its region: us-east-1_AbCdEf123.
        region: e.SCRUB_COGNITO_REGION ?? e.SCRUB_COGNITO_USER_POOL_ID.split('_')[0]!,
        userPoolId: e.SCRUB_COGNITO_USER_POOL_ID,
        clientId: e.SCRUB_COGNITO_CLIENT_ID,
        hostedDomain: e.SCRUB_COGNITO_DOMAIN ?? null,
      }
    : null;
}
