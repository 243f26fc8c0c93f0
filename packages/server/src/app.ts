import type { IncomingMessage } from 'node:http';
import { routes } from '@scrub/contract';
import { LOCAL_STRIPE_PREFIX } from '@scrub/stripe-local';
import Fastify, { type FastifyBaseLogger, type FastifyInstance, type FastifyServerOptions } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import { ActAsRecorder } from './admin/act-as-recorder.js';
import { ActAsTokens } from './auth/act-as-tokens.js';
import { ApiKeyOwners } from './auth/api-key-owners.js';
import { Authenticator, verifierFromConfig } from './auth/authenticator.js';
import { MfaStanding } from './auth/mfa-standing.js';
import { PoolStanding } from './auth/pool-standing.js';
import type { TokenVerifier } from './auth/token-verifier.js';
import { setUpBlobStore } from './blob-store/setup.js';
import { fileRetentionSweep } from './bulk/file-removal.js';
import { removeAbandonedUploads } from './bulk/resumable-upload.js';
import { setUpBulk } from './bulk/setup.js';
import { CarrierLookups } from './carrier-lookup/carrier-lookups.js';
import { AnswerCache } from './checks/answer-cache.js';
import { CheckCharger } from './checks/check-charger.js';
import { CheckLog, checkLogSweep } from './checks/check-log.js';
import type { ServerConfig } from './config/config.js';
import type { ServerContext } from './context.js';
import { setUpDashboard } from './dashboard/serve-dashboard.js';
import { installCors } from './http/cors.js';
import { installCsvBody } from './http/csv-body.js';
import { installErrorHandler } from './http/error-handler.js';
import { clientErrorHandler, frameworkErrors } from './http/framework-errors.js';
import { IdempotencyStore } from './http/idempotency.js';
import { installJsonBody } from './http/json-body.js';
import { installNulGuard } from './http/nul-guard.js';
import { publicUrlOf } from './http/public-url.js';
import { RouteRegistry } from './http/route-registry.js';
import { installSecurityHeaders } from './http/security-headers.js';
import { warnOfUntrustedProxy } from './http/untrusted-proxy.js';
import { identityAdminFor } from './identity-admin/setup.js';
import { LOCAL_CONTROL_PREFIX } from './local-control/local-control.js';
import { setUpMail } from './mail/setup.js';
import { createPaymentServices } from './payments/setup.js';
import { WEBHOOK_PATH } from './payments/webhook-route.js';
import { setUpProofSigner } from './proof/setup.js';
import { RateLimitGate } from './rate-limit/rate-limit-gate.js';
import { RateLimitStore } from './rate-limit/rate-limit-store.js';
import { SharedRateLimiter } from './rate-limit/rate-limiter.js';
import { reassignedChecksOf } from './reassigned/reassigned-checks.js';
import { DncAgeAlerts } from './reference-data/dnc-age-alerts.js';
import { ReferenceData } from './reference-data/reference-data.js';
import { setUpRegistryInbox } from './registry-inbox/setup.js';
import { registerAccount } from './routes/account.js';
import { registerAccountData } from './routes/account-data.js';
import { registerAdmin } from './routes/admin.js';
import { registerApiKey } from './routes/api-key.js';
import { registerBulk } from './routes/bulk.js';
import { registerBulkUploads } from './routes/bulk-uploads.js';
import { registerCards } from './routes/cards.js';
import { registerChecks } from './routes/checks.js';
import { registerCredits } from './routes/credits.js';
import { registerFiles } from './routes/files.js';
import { registerPlans } from './routes/plans.js';
import { registerPurchases } from './routes/purchases.js';
import { registerService } from './routes/service.js';
import { registerSubscriptions } from './routes/subscriptions.js';
import { registerSuppression } from './routes/suppression.js';
import { registerUsage } from './routes/usage.js';
import { registerVerify } from './routes/verify.js';
import { registerWebhooks } from './routes/webhooks.js';
import type { DatabaseHandle } from './storage/database.js';
import { removeStaleSuppressionImports } from './suppression/suppression-imports.js';
import { SuppressionLists } from './suppression/suppression-lists.js';
import { installHttpSpans, requestIds } from './tracing/http-spans.js';
import { startTracing } from './tracing/setup.js';
import type { Span, Tracer } from './tracing/spans.js';
import { tracedBlobStore } from './tracing/traced-blob-store.js';
import { jobEventRecorder } from './webhooks/job-events.js';
import { webhookRetentionSweep } from './webhooks/retention.js';
import { setUpWebhooks } from './webhooks/setup.js';
import { builtInTokenVerifier, setUpIdentity } from './wiring/identity.js';
import { setUpLocalControl } from './wiring/local-control.js';
import { setUpMetrics } from './wiring/metrics.js';
import { setUpPayments } from './wiring/payments.js';
import { installShutdown, Shutdown } from './wiring/shutdown.js';

/** The liveness and readiness probes' paths, answered whatever the rate limits' store says. */
const ORCHESTRATOR_PROBES = new Set<string>([routes.healthLive.path, routes.healthReady.path]);

/** How often the worker processes look at every watched balance (bulk jobs, other processes' charges). */
const BALANCE_SWEEP_MS = 10_000;

/** Every contract route the server answers, one module per resource of the contract. */
const routeModules: ((context: ServerContext) => void)[] = [
  registerService,
  registerPlans,
  registerAccount,
  registerAccountData,
  registerApiKey,
  registerVerify,
  registerBulk,
  registerBulkUploads,
  registerFiles,
  registerSuppression,
  registerAdmin,
  registerCards,
  registerPurchases,
  registerSubscriptions,
  registerWebhooks,
  registerChecks,
  registerUsage,
  registerCredits,
];

export interface AppOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  logger: Logger | false;
  /** Checks bearer ID tokens. Default: the configured Cognito pool, else the built-in one; null accepts API keys only. */
  tokenVerifier?: TokenVerifier | null;
  /** The datasets checks answer from; default: sample exchange data and no DNC lists. */
  referenceData?: ReferenceData;
  /** The close's deadline, and what it cut; default: one of SCRUB_SHUTDOWN_GRACE_SECONDS. */
  shutdown?: Shutdown;
}

/** Builds the HTTP API on an open, migrated database. Listening is the caller's business. */
export async function buildApp({
  config,
  database,
  logger,
  tokenVerifier,
  referenceData = ReferenceData.sample(),
  shutdown = new Shutdown(config.timeouts.shutdownGraceMs),
}: AppOptions): Promise<FastifyInstance> {
  // Tracing first: each request's root span starts as Fastify takes the request (its id is the trace's).
  const tracer = await startTracing(config.tracing);
  const roots = new WeakMap<IncomingMessage, Span>();
  const app = createFastify(config, logger, requestIds(tracer, roots));
  if (tracer) installHttpSpans(app, roots, tracer);
  setUpMetrics(app, config, database, referenceData);
  await installHttpHooks(app, config);
  const rateLimits = installAddressLimits(app, config, database);

  const publicUrl = publicUrlOf(config, app);
  const mailer = setUpMail(app, config, database, logger);
  const identity = await setUpIdentity(app, { config, database, logger, mailer, publicUrl });
  const store = await setUpBlobStore(app, config, publicUrl);
  const blobStore = tracer ? tracedBlobStore(store, config.blobStore.kind) : store;
  const apiKeyOwners = new ApiKeyOwners(database.db, config.apiKeyCacheSeconds);
  const actAsTokens = new ActAsTokens(database.db);
  const authenticator = createAuthenticator(app, {
    config,
    database,
    logger,
    tokenVerifier,
    identity,
    apiKeyOwners,
    actAsTokens,
  });
  const registry = new RouteRegistry(app, authenticator, new IdempotencyStore(database.db), rateLimits);
  const suppressionLists = await SuppressionLists.open(database, logger);
  app.addHook('onClose', () => suppressionLists.close());
  const carrierLookups = CarrierLookups.fromSettings(database.db, config.carrierLookup);
  const { bulk, webhooks } = await setUpJobs(app, shutdown, {
    config,
    database,
    logger,
    blobStore,
    referenceData,
    suppressionLists,
    mailer,
    publicUrl,
    carrierLookups,
    tracer,
  });
  const paymentsSetup = await setUpPayments(app, {
    settings: config.payments,
    database,
    publicUrl,
    logger,
    defaultWebhookUrl: () => `${publicUrl()}${WEBHOOK_PATH}`,
  });
  app.addHook('onClose', () => paymentsSetup.close());
  if (config.runBulkWorker) startDncAgeAlerts(app, { config, database, referenceData, mailer, logger });
  await setUpRegistryInbox(app, { config, database, mailer, logger });
  const payments = createPaymentServices(app, paymentsSetup, database, mailer, publicUrl, logger);
  // Auto top-up and low-balance e-mails: each charge nudges its account; the workers' processes sweep.
  if (config.runBulkWorker) payments.balanceWatch.start(BALANCE_SWEEP_MS);
  app.addHook('onClose', () => payments.balanceWatch.close());
  const checkLog = new CheckLog(database.db, logger, database.copyIn);
  app.addHook('onClose', () => checkLog.settled());
  const context: ServerContext = {
    config,
    database,
    registry,
    referenceData,
    suppressionLists,
    apiKeyOwners,
    actAsTokens,
    checkCharger: new CheckCharger(database.db, (profileId) => payments.balanceWatch.nudge(profileId)),
    checkLog,
    answerCache: new AnswerCache(config.verifyCache),
    reassigned: reassignedChecksOf(config.reassigned, referenceData),
    carrierLookups,
    publicUrl,
    mailer,
    identity,
    blobStore,
    bulk,
    webhooks,
    payments,
    proofSigner: await setUpProofSigner(config, publicUrl),
  };
  await registerRoutes(app, context);
  await app.ready();
  return app;
}

/** Admins warned before a list goes stale, by the processes that do the background work. */
function startDncAgeAlerts(
  app: FastifyInstance,
  {
    config,
    database,
    referenceData,
    mailer,
    logger,
  }: Pick<ServerContext, 'config' | 'database' | 'referenceData' | 'mailer'> & { logger: Logger | false },
): void {
  const alerts = new DncAgeAlerts({
    db: database.db,
    referenceData,
    mailer,
    to: config.adminEmails.length > 0 ? config.adminEmails : [config.contactEmail],
    logger,
  });
  alerts.start();
  app.addHook('onClose', () => alerts.stop());
}

function createFastify(
  config: ServerConfig,
  logger: Logger | false,
  genReqId: (raw: IncomingMessage) => string,
): FastifyInstance {
  return Fastify({
    loggerInstance: (logger || undefined) as FastifyBaseLogger | undefined,
    bodyLimit: config.maxBodyBytes,
    genReqId,
    // A hop count, as a function: Fastify's types take booleans, address lists and functions.
    trustProxy:
      typeof config.trustProxy === 'number'
        ? (_address: string, hop: number) => hop < (config.trustProxy as number)
        : config.trustProxy,
    // Slow clients are bounded: headers, and the whole request with its body, each in their time
    // (408 and the connection closed). Checked every second rather than Node's every 30 s.
    requestTimeout: config.timeouts.requestMs,
    http: { headersTimeout: config.timeouts.headersMs, connectionsCheckingInterval: 1000 },
    frameworkErrors,
    clientErrorHandler,
    // Every schema is zod's, compiled by fastify-type-provider-zod: Fastify's own compilers (Ajv and
    // fast-json-stringify, about 100 modules, 0.1-0.6 s of a start) would never be used, so they are not loaded.
    schemaController: { compilersFactory: zodCompilers },
  });
}

// Fastify types its compiler factories for Ajv's schemas; these take zod's, as every route here gives.
type CompilersFactory = NonNullable<
  NonNullable<FastifyServerOptions['schemaController']>['compilersFactory']
>;
const zodCompilers = {
  buildValidator: () => validatorCompiler,
  buildSerializer: () => serializerCompiler,
} as unknown as CompilersFactory;

/** What every request and answer goes through: schemas, headers, errors, body parsers, CORS. */
async function installHttpHooks(app: FastifyInstance, config: ServerConfig): Promise<void> {
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installSecurityHeaders(app);
  installErrorHandler(app);
  installJsonBody(app);
  installCsvBody(app);
  installNulGuard(app);
  warnOfUntrustedProxy(app, config.trustProxy);
  await installCors(app, config);
}

/** The rate limits, counted in the database: a client address's here, an API key's and an account's in the registry. */
function installAddressLimits(
  app: FastifyInstance,
  config: ServerConfig,
  database: DatabaseHandle,
): RateLimitGate {
  const rateLimits = new RateLimitGate(
    new SharedRateLimiter(new RateLimitStore(database.db)),
    config.rateLimits,
  );
  // Before every route, the identity protocol and the dashboard's files: an address is counted
  // first. Not the operator channel, nor the built-in payment provider the service itself calls,
  // nor an orchestrator's probes (counted in the database, they would fail with it: liveness must not).
  app.addHook('onRequest', async (request, reply) => {
    if (
      request.url.startsWith(`${LOCAL_CONTROL_PREFIX}/`) ||
      request.url.startsWith(`${LOCAL_STRIPE_PREFIX}/`) ||
      ORCHESTRATOR_PROBES.has(request.url)
    )
      return;
    await rateLimits.admitAddress(request, reply);
  });
  return rateLimits;
}

/** Works out who calls: API keys, ID tokens (the configured Cognito pool's or the built-in one's), act-as tokens. */
function createAuthenticator(
  app: FastifyInstance,
  {
    config,
    database,
    logger,
    tokenVerifier,
    identity,
    apiKeyOwners,
    actAsTokens,
  }: Pick<AppOptions, 'config' | 'database' | 'logger' | 'tokenVerifier'> &
    Pick<ServerContext, 'identity' | 'apiKeyOwners' | 'actAsTokens'>,
): Authenticator {
  const builtInVerifier: TokenVerifier | null = identity && builtInTokenVerifier(identity);
  const poolAdmin = identityAdminFor(config, identity);
  const poolStanding = new PoolStanding(
    async (sub) => (await poolAdmin())?.isEnabled(sub) ?? null,
    config.apiKeyCacheSeconds,
    (error) => {
      if (logger) logger.warn({ err: error }, 'could not ask the user pool whether an account is enabled');
    },
  );
  const mfaStanding = config.requireMfaFor.includes('admin')
    ? new MfaStanding(async (sub) => {
        const admin = await poolAdmin();
        if (!admin) throw new Error('no identity admin to ask');
        return admin.usesAuthenticator(sub);
      }, config.apiKeyCacheSeconds)
    : undefined;
  const actAsRecorder = new ActAsRecorder(app, database, actAsTokens, logger);
  return new Authenticator({
    db: database.db,
    apiKeyOwners,
    verifier: tokenVerifier === undefined ? (verifierFromConfig(config) ?? builtInVerifier) : tokenVerifier,
    adminEmails: config.adminEmails,
    actAsTokens,
    poolStanding,
    ...(mfaStanding ? { mfaStanding } : {}),
    onIdentified: actAsRecorder.identified,
    onActAsRefused: actAsRecorder.refused,
  });
}

/**
 * The bulk job queue and its worker, and the webhooks told of jobs' ends. As the service starts
 * closing, both stop taking work and clients waiting on a job are answered with its progress; a
 * job under way may finish until the shutdown's deadline, then goes back to the queue.
 */
async function setUpJobs(
  app: FastifyInstance,
  shutdown: Shutdown,
  context: Pick<
    ServerContext,
    | 'config'
    | 'database'
    | 'blobStore'
    | 'referenceData'
    | 'suppressionLists'
    | 'mailer'
    | 'publicUrl'
    | 'carrierLookups'
  > & { logger: Logger | false; tracer: Tracer | null },
): Promise<Pick<ServerContext, 'bulk' | 'webhooks'>> {
  const { config, database, logger, publicUrl, tracer } = context;
  const bulk = await setUpBulk({
    ...context,
    runWorker: config.runBulkWorker,
    requireDnc: config.requireDnc,
    scrubThreads: config.scrubThreads,
    unsubmittedJobTtlSeconds: config.unsubmittedJobs.ttlSeconds,
    onJobEnd: jobEventRecorder(publicUrl, config.webhooks.retryForSeconds),
    alsoRemove: [
      webhookRetentionSweep(database.db, config.webhooks.retentionDays),
      checkLogSweep(database.db, config.checkLogDays),
      fileRetentionSweep(database.db, context.blobStore, config.fileRetentionDays),
      fileRetentionSweep(database.db, context.blobStore, config.fileRetentionDays),
      {
        what: 'resumable uploads abandoned',
        remove: (now) => removeAbandonedUploads(database.db, context.blobStore, now),
      },
      {
        what: 'suppression imports never submitted',
        remove: (now) => removeStaleSuppressionImports(database.db, context.blobStore, now),
      },
    ],
  });
  const webhooks = setUpWebhooks({
    database,
    settings: config.webhooks,
    logger,
    signals: bulk.signals,
    runDeliverer: config.runBulkWorker,
    tracer,
  });
  let closing: Promise<void> | undefined;
  // The deliverer stops listening (at once, in its close) before the signals close.
  const close = () =>
    (closing ??= (async () => {
      bulk.signals.answerWaiting();
      const [, cut] = await Promise.all([webhooks.close(), bulk.close(shutdown.deadline)]);
      if (cut) shutdown.recordCut('a bulk job, put back in the queue');
    })());
  installShutdown(app, shutdown, () => void close());
  app.addHook('onClose', close);
  return { bulk, webhooks };
}

/** The contract's routes, then the operator channel and the dashboard; anything else is a 404 or 405. */
async function registerRoutes(app: FastifyInstance, context: ServerContext): Promise<void> {
  for (const register of routeModules) register(context);
  // The operator channel (`/_local/`, embedded database only): not part of the public API.
  setUpLocalControl(app, context.config, context.database);
  await setUpDashboard(app, context.config);
  context.registry.installNotFoundHandler();
}
