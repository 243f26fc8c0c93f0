import { ACTING_ADMIN_HEADER, ACTING_AS_HEADER } from '@scrub/contract';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Logger } from 'pino';
import type { ActAsTokens } from '../auth/act-as-tokens.js';
import type { AuthRequirement } from '../auth/authenticator.js';
import type { Principal } from '../auth/principal.js';
import type { ApiError } from '../errors/api-error.js';
import type { DatabaseHandle } from '../storage/database.js';
import { recordAudit } from './audit-log.js';

/** Methods that only read: an acting session's reads are not written down one by one. */
const READS = new Set(['GET', 'HEAD']);

/** A refused token is written down at most once a minute for each reason, however often it is sent. */
const REFUSAL_INTERVAL_MS = 60_000;

/**
 * What happens around every request made with an act-as token: each answer says so in two headers
 * (for the dashboard's "Logged in as" banner and switch-back), and once answered every request
 * that may change something is written to the audit log: who, as whom, what (method, path,
 * status), when. Reads (GET, HEAD) are not, unless the route changes state (`GET /verify` spends a
 * credit): the dashboard's credit counter polls every few seconds, and `act_as.start` already
 * says who acted as whom and when. A refused act-as
 * token is written down too (`act_as.refused`), when this service signed it: anyone can send a
 * forged token, so those are refused without an entry, and the log cannot be flooded by strangers.
 */
export class ActAsRecorder {
  readonly #acting = new WeakMap<FastifyRequest, Principal>();
  /** The acting requests that are written to the audit log once answered. */
  readonly #audited = new WeakSet<FastifyRequest>();
  /** When each (token, reason) refusal was last written down, by this process. */
  readonly #refusals = new Map<string, number>();

  constructor(
    app: FastifyInstance,
    private readonly database: DatabaseHandle,
    private readonly tokens: ActAsTokens,
    private readonly logger: Logger | false,
  ) {
    // onSend runs for refusals too: a 403 to an act-as token says whose token it was.
    app.addHook('onSend', async (request, reply) => {
      const principal = this.#acting.get(request);
      if (!principal?.actor) return;
      reply.header(ACTING_AS_HEADER, principal.email);
      reply.header(ACTING_ADMIN_HEADER, principal.actor.email);
    });
    app.addHook('onResponse', async (request, reply) => {
      const principal = this.#acting.get(request);
      if (!principal?.actor || !this.#audited.has(request)) return;
      await recordAudit(database.db, {
        actor: principal.actor,
        subject: { profileId: principal.profileId, email: principal.email },
        action: 'act_as.request',
        detail: { method: request.method, path: request.url.split('?')[0], status: reply.statusCode },
        requestId: request.id,
      }).catch((error: unknown) => this.#failed(error, request));
    });
  }

  /** Called once the caller is known, before their permission is checked: refusals are recorded too. */
  readonly identified = (
    request: FastifyRequest,
    principal: Principal,
    requirement: AuthRequirement,
  ): void => {
    if (!principal.actor) return;
    this.#acting.set(request, principal);
    if (!READS.has(request.method) || requirement.changesState) this.#audited.add(request);
  };

  /**
   * Called when an act-as token is refused (expired, the account disabled, the admin no longer an
   * admin...): writes who sent it, as whom, where and why, if this service signed the token.
   */
  readonly refused = async (request: FastifyRequest, token: string, refusal: ApiError): Promise<void> => {
    try {
      const claims = await this.tokens.signedClaims(token);
      if (!claims || !this.#due(`${claims.tokenId}:${refusal.code}`)) return;
      const subject = await this.database.db
        .selectFrom('profiles')
        .select(['id as profileId', 'email'])
        .where('id', '=', claims.userId)
        .executeTakeFirst();
      await recordAudit(this.database.db, {
        actor: { profileId: claims.adminId, email: claims.adminEmail },
        subject: subject ?? null,
        action: 'act_as.refused',
        detail: {
          method: request.method,
          path: request.url.split('?')[0],
          status: refusal.status,
          code: refusal.code,
          reason: refusal.message,
        },
        requestId: request.id,
      });
    } catch (error) {
      this.#failed(error, request);
    }
  };

  #due(key: string): boolean {
    const now = Date.now();
    const last = this.#refusals.get(key);
    if (last !== undefined && now - last < REFUSAL_INTERVAL_MS) return false;
    if (this.#refusals.size >= 10_000) {
      for (const [k, at] of this.#refusals) if (now - at >= REFUSAL_INTERVAL_MS) this.#refusals.delete(k);
    }
    this.#refusals.set(key, now);
    return true;
  }

  #failed(error: unknown, request: FastifyRequest): void {
    if (this.logger)
      this.logger.error({ err: error, reqId: request.id }, 'could not write an act-as audit entry');
  }
}
