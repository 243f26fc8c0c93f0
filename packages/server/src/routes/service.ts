import { IDENTITY_PATH } from '@scrub/cognito-local';
import { openApiDocument, routes } from '@scrub/contract';
import { HumanCheck } from '../contact/human-check.js';
import type { ServerContext } from '../context.js';
import { ApiError } from '../errors/api-error.js';
import { requestOrigin } from '../http/public-url.js';
import { RateLimitStore } from '../rate-limit/rate-limit-store.js';
import { SharedRateLimiter } from '../rate-limit/rate-limiter.js';
import { checksPausedReason, dncReadiness } from '../reference-data/dnc-readiness.js';
import { isReachable, migrationState } from '../storage/database.js';
import { serverVersion } from '../version.js';

/** Contact messages one client address may send per hour: people write a few; a script flooding the operator is stopped. */
export const CONTACT_MESSAGES_PER_HOUR = 5;
const CONTACT_POLICY = { name: 'contact', max: CONTACT_MESSAGES_PER_HOUR, windowSeconds: 3600 };

const minutes = (seconds: number) => (seconds <= 60 ? 'a minute' : `${Math.ceil(seconds / 60)} minutes`);

/**
 * The service itself: its health, the settings clients read instead of branching on the setup,
 * and the Contact page's messages to the operator.
 */
export function registerService({
  registry,
  config,
  database,
  referenceData,
  publicUrl,
  payments,
  mailer,
  blobStore,
  proofSigner,
}: ServerContext): void {
  const started = process.hrtime.bigint();
  registry.add(routes.health, async () => {
    const [ok, stored] = await Promise.all([isReachable(database.db), blobStore.probe()]);
    const dncLists = dncReadiness(referenceData, config.requireDnc);
    return {
      // Degraded too while checks are refused (imported data not loaded, a required DNC list
      // missing or stale), while a list is past its maximum age (named in dnc_lists.stale: its
      // silence makes no number clean), or while files cannot be stored (uploads are refused then).
      status:
        ok &&
        stored &&
        dncLists.stale.length === 0 &&
        checksPausedReason(referenceData, config.requireDnc) === null
          ? ('ok' as const)
          : ('degraded' as const),
      version: serverVersion,
      database: { kind: database.kind, ok },
      storage: { kind: config.blobStore.kind, ok: stored },
      reference_data: referenceData.versions(),
      dnc_lists: dncLists,
      uptime_seconds: Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000,
    };
  });

  registry.add(routes.healthLive, async () => ({
    status: 'ok' as const,
    uptime_seconds: Number((process.hrtime.bigint() - started) / 1_000_000n) / 1000,
  }));
  registry.add(routes.healthReady, readiness({ config, database, referenceData, blobStore }));

  registry.add(routes.proofKeys, async () => proofSigner.jwks);

  registry.add(routes.config, async ({ request }) => ({
    // The built-in pool's endpoint is on the origin the page was loaded from (127.0.0.1, the machine's address).
    identity: identityOf(config, requestOrigin(request, config, publicUrl)),
    payments: {
      provider: payments.setup.provider.kind,
      publishable_key: payments.setup.provider.publishableKey,
      js_url: payments.setup.stripeJsUrl(),
    },
    limits: { max_upload_bytes: config.maxUploadBytes },
    dnc_lists: dncReadiness(referenceData, config.requireDnc),
    carrier_lookup: {
      offered: config.carrierLookup.twilio !== null,
      provider: config.carrierLookup.twilio === null ? null : 'twilio',
      credits: config.carrierLookup.credits,
    },
    reassigned: {
      credits: config.reassigned.credits,
      bulk: referenceData.current().disconnects !== undefined,
    },
  }));

  // Built on first request (the contract does not change while the service runs).
  let openApi: ReturnType<typeof openApiDocument> | undefined;
  registry.add(routes.openApi, async () => {
    openApi ??= openApiDocument({ version: serverVersion, serverUrl: publicUrl() });
    return openApi;
  });

  registerContact({ registry, config, database, mailer });
}

/** The Contact page's messages to the operator: a human check, then at most a few an hour per address. */
function registerContact({
  registry,
  config,
  database,
  mailer,
}: Pick<ServerContext, 'registry' | 'config' | 'database' | 'mailer'>): void {
  // Counted in the database: every process shares one count per client address.
  const contactLimit = new SharedRateLimiter(new RateLimitStore(database.db));
  const humanCheck = new HumanCheck(database.db, config.captchaHmacKey);
  registry.add(routes.contactChallenge, async ({ reply }) => {
    reply.header('cache-control', 'no-store');
    return humanCheck.challenge();
  });
  registry.add(routes.contact, async ({ body, request }) => {
    const [state] = await contactLimit.take([{ policy: CONTACT_POLICY, id: request.ip }]);
    if (state && !state.allowed) {
      throw new ApiError(
        'rate_limited',
        `Too many messages from this address: please try again in ${minutes(state.resetSeconds)}.`,
        { headers: { 'retry-after': String(state.resetSeconds) } },
      );
    }
    await humanCheck.verify(body.altcha);
    // Stored in the outbox (and sent by SMTP when configured); the sender's address is in the text to reply to.
    await mailer.send({
      kind: 'contact',
      to: config.contactEmail,
      subject: `Contact form: ${body.subject}`,
      text: [
        `From: ${body.name} <${body.email}>`,
        `Subject: ${body.subject}`,
        `Client address: ${request.ip}`,
        '',
        body.message,
      ].join('\n'),
    });
    return { message: 'Thank you for contacting us. We will get back to you soon.' };
  });
}

/**
 * Whether this process may be sent traffic: the database and the file store answer, the required
 * do-not-call lists are loaded and fresh (the same rule that pauses checks), and every migration
 * is applied. 503 naming each that is not.
 */
function readiness({
  config,
  database,
  referenceData,
  blobStore,
}: Pick<ServerContext, 'config' | 'database' | 'referenceData' | 'blobStore'>) {
  // Migrations are never undone: once all are applied, they stay so.
  let migrated: { applied: number; pending: string[] } | null = null;
  const migrations = async () => {
    if (migrated) return migrated;
    const state = await migrationState(database.db).catch(() => null);
    if (state && state.pending.length === 0) migrated = state;
    return state;
  };
  return async () => {
    const [reachable, stored, schema] = await Promise.all([
      isReachable(database.db),
      blobStore.probe(),
      migrations(),
    ]);
    const paused = checksPausedReason(referenceData, config.requireDnc);
    const problems = [
      ...(reachable ? [] : ['the database does not answer']),
      ...(stored ? [] : ['files cannot be stored']),
      ...(paused === null ? [] : [`checks are paused: ${paused}`]),
      ...(reachable && schema && schema.pending.length > 0
        ? [`migrations not applied: ${schema.pending.join(', ')}`]
        : []),
    ];
    if (problems.length > 0 || !schema) {
      throw new ApiError(
        'service_unavailable',
        `Not ready: ${problems.join('; ') || 'the database does not answer'}.`,
      );
    }
    const lists = dncReadiness(referenceData, config.requireDnc);
    return {
      status: 'ready' as const,
      database: { kind: database.kind, ok: true as const },
      storage: { kind: config.blobStore.kind, ok: true as const },
      dnc_lists: { required: lists.required, loaded: lists.loaded },
      migrations: { applied: schema.applied },
    };
  };
}

/** Which identity provider clients sign in with: an Amazon Cognito pool, or the built-in one. */
function identityOf(config: ServerContext['config'], origin: string) {
  return config.cognito
    ? {
        provider: 'cognito' as const,
        region: config.cognito.region,
        user_pool_id: config.cognito.userPoolId,
        client_id: config.cognito.clientId,
        endpoint: null,
        hosted_ui: config.cognito.hostedDomain
          ? { domain: config.cognito.hostedDomain, client_id: config.cognito.clientId }
          : null,
      }
    : {
        provider: 'local' as const,
        region: config.localIdentity.userPoolId.split('_')[0]!,
        user_pool_id: config.localIdentity.userPoolId,
        client_id: config.localIdentity.clientId,
        endpoint: `${origin}${IDENTITY_PATH}`,
        // The built-in pool has no hosted sign-in pages.
        hosted_ui: null,
      };
}
