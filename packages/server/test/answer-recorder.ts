import { subscribe, unsubscribe } from 'node:diagnostics_channel';
import { openApiDocument } from '@scrub/contract';
import type { FastifyInstance } from 'fastify';
import { afterAll } from 'vitest';
import { operationOf, type SeenAnswer, TRACKED_HEADERS, undeclaredAnswers } from './answer-check.js';

/**
 * A setup file of the server's tests, keeping /openapi.json true: every Fastify app a test builds
 * records each answer a contract route gives (operation, status, the API's headers on it), and the
 * test file fails after its tests on any the document does not declare. Apps are found through
 * Fastify's `fastify.initialization` channel, so the service's own code has no test hook.
 */
const seen = new Map<string, SeenAnswer>();

function record(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    const operation = operationOf(request.method, request.routeOptions.url);
    if (!operation) return;
    const names = new Set([...Object.keys(reply.getHeaders()), ...reply.raw.getHeaderNames()]);
    const headers = [...names].map((name) => name.toLowerCase()).filter((name) => TRACKED_HEADERS.has(name));
    const answer = { operation, status: reply.statusCode, headers: headers.sort() };
    seen.set(JSON.stringify(answer), answer);
  });
}

const onApp = (message: unknown) => record((message as { fastify: FastifyInstance }).fastify);
subscribe('fastify.initialization', onApp);

afterAll(() => {
  unsubscribe('fastify.initialization', onApp);
  const problems = undeclaredAnswers(seen.values(), openApiDocument({ version: 'test' }));
  if (problems.length > 0) {
    throw new Error(
      `This file's tests saw answers /openapi.json does not declare: declare each in its route's \`errors\` (packages/contract) or in the contract's route-answers.ts.\n  ${problems.join('\n  ')}`,
    );
  }
});
