import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import { ApiError } from '../http/api-error.js';
import { isAlive } from '../process-alive.js';
import type { Database } from '../storage/schema.js';
import { readOutbox, type StoredMail } from './mailer.js';

/**
 * The embedded database belongs to the one process that opened it, so while the server runs,
 * `scrub-server mail` asks the server instead: the server writes its address and a random token
 * to `<data dir>/outbox-access.json` (mode 0600, removed at shutdown), and answers
 * `GET /_local/outbox` only to a caller that shows that token, that is, one who can read the
 * data directory. With PostgreSQL the command reads the table itself and none of this exists.
 */
export const OUTBOX_ACCESS_PATH = '/_local/outbox';
const FILE = 'outbox-access.json';

export interface OutboxAccess {
  url: string;
  token: string;
  pid: number;
}

const Query = z.object({
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(50),
});

export function registerOutboxAccess(app: FastifyInstance, db: Kysely<Database>, dataDir: string): void {
  const token = randomBytes(32).toString('base64url');
  const file = join(dataDir, FILE);

  app.get(OUTBOX_ACCESS_PATH, { schema: { querystring: Query } }, async (request, reply) => {
    const given = Buffer.from(String(request.headers['x-scrub-outbox-token'] ?? ''));
    const expected = Buffer.from(token);
    if (given.length !== expected.length || !timingSafeEqual(given, expected)) {
      throw new ApiError('not_found', `No such endpoint: GET ${OUTBOX_ACCESS_PATH}`);
    }
    return reply.send(await readOutbox(db, request.query as z.output<typeof Query>));
  });

  app.addHook('onListen', async () => {
    const address = app.server.address();
    if (!address || typeof address !== 'object') return;
    const host =
      address.address === '0.0.0.0' || address.address === '::'
        ? '127.0.0.1'
        : address.family === 'IPv6'
          ? `[${address.address}]`
          : address.address;
    const access: OutboxAccess = { url: `http://${host}:${address.port}`, token, pid: process.pid };
    writeFileSync(file, JSON.stringify(access), { mode: 0o600 });
  });
  app.addHook('onClose', async () => {
    try {
      if ((JSON.parse(readFileSync(file, 'utf8')) as OutboxAccess).token === token) unlinkSync(file);
    } catch {
      // Already gone: nothing to clean up.
    }
  });
}

/** The running server's outbox access, when a live server left one in this data directory. */
export function findOutboxAccess(dataDir: string): OutboxAccess | null {
  try {
    const access = JSON.parse(readFileSync(join(dataDir, FILE), 'utf8')) as OutboxAccess;
    return isAlive(access.pid) ? access : null;
  } catch {
    return null;
  }
}

/** Reads the outbox through a running server. */
export async function fetchOutbox(
  access: OutboxAccess,
  query: { to?: string; limit: number },
): Promise<StoredMail[]> {
  const url = new URL(OUTBOX_ACCESS_PATH, access.url);
  if (query.to) url.searchParams.set('to', query.to);
  url.searchParams.set('limit', String(query.limit));
  const res = await fetch(url, { headers: { 'x-scrub-outbox-token': access.token } });
  if (!res.ok)
    throw new Error(`The running server at ${access.url} refused to show its outbox (${res.status}).`);
  const mails = (await res.json()) as (StoredMail & { created_at: string; sent_at: string | null })[];
  return mails.map((mail) => ({
    ...mail,
    created_at: new Date(mail.created_at),
    sent_at: mail.sent_at ? new Date(mail.sent_at) : null,
  }));
}
