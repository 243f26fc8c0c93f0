import { randomUUID } from 'node:crypto';
import type { FastifyRequest } from 'fastify';

/**
 * The caller's `Idempotency-Key`, passed on to the payment provider (prefixed per operation), so a
 * retry whose first answer was lost charges once; without one, every request is a new one.
 */
export function idempotencyKeyOf(request: FastifyRequest): string {
  const key = request.headers['idempotency-key'];
  return typeof key === 'string' && key.length > 0 ? key : randomUUID();
}
