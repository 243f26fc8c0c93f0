import { z } from 'zod';
import type { LocalOperation } from '../local-control/local-control.js';
import { readOutbox, type StoredMail } from './mailer.js';

const OutboxQuery = z.object({
  to: z.string().max(320).optional(),
  limit: z.coerce.number().int().min(1).max(10_000).default(50),
});

/**
 * `scrub-server mail`'s read of the outbox; `GET /_local/outbox` on the operator channel while a
 * server holds the embedded database (see local-control.ts).
 */
export const readOutboxOperation: LocalOperation<{ to?: string; limit: number }, StoredMail[]> = {
  method: 'GET',
  path: '/outbox',
  input: OutboxQuery,
  run: (db, query) => readOutbox(db, query),
  revive: (json) =>
    (json as (StoredMail & { created_at: string; sent_at: string | null })[]).map((mail) => ({
      ...mail,
      created_at: new Date(mail.created_at),
      sent_at: mail.sent_at ? new Date(mail.sent_at) : null,
    })),
};
