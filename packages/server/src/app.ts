import { randomUUID } from 'node:crypto';
import { referenceDataVersions } from '@scrub/engine';
import Fastify, { type FastifyBaseLogger, type FastifyInstance } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Logger } from 'pino';
import type { ServerConfig } from './config.js';
import type { ServerContext } from './context.js';
import { installErrorHandler } from './http/error-handler.js';
import { RouteRegistry } from './http/route-registry.js';
import { registerClientConfig } from './routes/client-config.js';
import { registerHealth } from './routes/health.js';
import { registerPlans } from './routes/plans.js';
import type { DatabaseHandle } from './storage/database.js';

export interface AppOptions {
  config: ServerConfig;
  database: DatabaseHandle;
  logger: Logger | false;
}

/** Builds the HTTP API on an open, migrated database. Listening is the caller's business. */
export async function buildApp({ config, database, logger }: AppOptions): Promise<FastifyInstance> {
  const app = Fastify({
    loggerInstance: (logger || undefined) as FastifyBaseLogger | undefined,
    bodyLimit: config.maxBodyBytes,
    genReqId: () => randomUUID(),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);
  app.addHook('onSend', async (request, reply) => {
    reply.header('x-request-id', request.id);
  });
  installErrorHandler(app);

  const registry = new RouteRegistry(app);
  const context: ServerContext = { config, database, registry, referenceData: referenceDataVersions };
  registerHealth(context);
  registerClientConfig(context);
  registerPlans(context);
  registry.installNotFoundHandler();
  await app.ready();
  return app;
}
