import { ACTING_ADMIN_HEADER, ACTING_AS_HEADER } from '@scrub/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { Principal } from '../auth/principal.js';
import type { DatabaseHandle } from '../storage/database.js';
import { recordAudit } from './audit-log.js';

/**
 * What happens around every request made with an act-as token: each answer says so in two headers
 * (for the dashboard's "Logged in as" banner and switch-back), and once answered the request is
 * written to the audit log: who, as whom, what (method, path, status), when.
 */
export class ActAsRecorder {
  readonly #acting = new WeakMap<FastifyRequest, Principal>();

  constructor(app: FastifyInstance, database: DatabaseHandle, logger: Logger | false) {
    // onSend runs for refusals too: a 403 to an act-as token says whose token it was.
    app.addHook('onSend', async (request, reply) => {
      const principal = this.#acting.get(request);
      if (!principal?.actor) return;
      reply.header(ACTING_AS_HEADER, principal.email);
      reply.header(ACTING_ADMIN_HEADER, principal.actor.email);
    });
    app.addHook('onResponse', async (request, reply) => {
      const principal = this.#acting.get(request);
      if (!principal?.actor) return;
      await recordAudit(database.db, {
        actor: principal.actor,
        subject: { profileId: principal.profileId, email: principal.email },
        action: 'act_as.request',
        detail: { method: request.method, path: request.url.split('?')[0], status: reply.statusCode },
        requestId: request.id,
      }).catch((error: unknown) => {
        if (logger) logger.error({ err: error, reqId: request.id }, 'could not write an act-as audit entry');
      });
    });
  }

  /** Called once the caller is known, before their permission is checked: refusals are recorded too. */
  readonly identified = (request: FastifyRequest, principal: Principal): void => {
    if (principal.actor) this.#acting.set(request, principal);
  };
}
