import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { Kysely } from 'kysely';
import { z } from 'zod';
import type { ServerConfig } from '../config/config.js';
import { ApiError } from '../errors/api-error.js';
import { isAlive } from '../process-alive.js';
import { type DatabaseHandle, migrateToLatest, openDatabase } from '../storage/database.js';
import type { Database } from '../storage/schema.js';

/**
 * The local control channel: how operator commands (`scrub-server mail`, `credits grant`, ...)
 * reach the embedded database while a server holds it. PGlite admits one process at a time, so
 * while the server runs, a command asks the server instead of opening the database itself.
 *
 * At listen the server writes its address, its pid and a random token to
 * `<data dir>/local-control.json` (mode 0600, removed at shutdown) and answers the routes under
 * `/_local/` only to a caller that shows that token, that is, one who can read the data directory.
 * Anyone else gets the same 404 as for a path that does not exist. None of this exists on
 * PostgreSQL (`DATABASE_URL`), where every process opens the database itself.
 *
 * An operation is written once (`LocalOperation`) and run either way: `runLocalOperation` goes
 * through the channel when a live server left one, and otherwise opens the database directly.
 */
export const LOCAL_CONTROL_FILE = 'local-control.json';
export const LOCAL_CONTROL_PREFIX = '/_local';
export const LOCAL_CONTROL_TOKEN_HEADER = 'x-scrub-local-token';

const ChannelSchema = z.object({
  url: z.string().regex(/^http:\/\//),
  token: z.string().min(1),
  pid: z.number().int().positive(),
});

/** What `local-control.json` holds: where the running server listens, its token, and its pid. */
export type LocalControl = z.infer<typeof ChannelSchema>;

/** One thing an operator command does with the database, the same whether run directly or through the server. */
export interface LocalOperation<I, O> {
  /** The request line under `/_local`, e.g. `POST /credits/grant`; GET takes its input as the query. */
  method: 'GET' | 'POST';
  path: `/${string}`;
  /** What the route accepts (the server validates it; the command has already parsed its arguments). */
  input: z.ZodType<I>;
  /** The work itself, on an open, migrated database. Expected failures are `ApiError`s, so the server relays their message. */
  run(db: Kysely<Database>, input: I): Promise<O>;
  /** Turns the JSON answer back into `O` (dates, say); by default the JSON as is. */
  revive?(json: unknown): O;
}

const digest = (token: string) => createHash('sha256').update(token).digest();

/** Where a server on this host answers, from the address it listens on. */
function reachableUrl(app: FastifyInstance): string | null {
  const address = app.server.address();
  if (!address || typeof address !== 'object') return null;
  const host =
    address.address === '0.0.0.0' || address.address === '::'
      ? '127.0.0.1'
      : address.family === 'IPv6'
        ? `[${address.address}]`
        : address.address;
  return `http://${host}:${address.port}`;
}

/**
 * Opens the channel on a server that holds the embedded database in `dataDir`: registers the
 * operations under `/_local/` behind the token, writes the channel file once listening, and
 * removes it when the server closes.
 */
export function openLocalControl(
  app: FastifyInstance,
  db: Kysely<Database>,
  dataDir: string,
  operations: readonly LocalOperation<unknown, unknown>[],
): void {
  const token = randomBytes(32).toString('base64url');
  const expected = digest(token);
  const file = join(dataDir, LOCAL_CONTROL_FILE);

  app.register(
    async (scope) => {
      // Before the body is read or validated: without the token nothing here is known to exist.
      scope.addHook('onRequest', async (request) => {
        const given = request.headers[LOCAL_CONTROL_TOKEN_HEADER];
        if (typeof given !== 'string' || !timingSafeEqual(digest(given), expected)) {
          throw new ApiError('not_found', `No such endpoint: ${request.method} ${request.url.split('?')[0]}`);
        }
      });
      const typed = scope.withTypeProvider<ZodTypeProvider>();
      for (const operation of operations) {
        typed.route({
          method: operation.method,
          url: operation.path,
          schema: operation.method === 'GET' ? { querystring: operation.input } : { body: operation.input },
          handler: async (request) =>
            operation.run(db, operation.method === 'GET' ? request.query : request.body),
        });
      }
    },
    { prefix: LOCAL_CONTROL_PREFIX },
  );

  app.addHook('onListen', async () => {
    const url = reachableUrl(app);
    if (!url) return;
    const channel: LocalControl = { url, token, pid: process.pid };
    // A fresh file, renamed into place: readers never see half of it, and its mode is 0600
    // whatever an earlier, crashed server left behind.
    const partial = `${file}.${process.pid}.tmp`;
    try {
      unlinkSync(partial);
    } catch {
      // Not there: the usual case.
    }
    writeFileSync(partial, JSON.stringify(channel), { mode: 0o600, flag: 'wx' });
    renameSync(partial, file);
  });
  // As the server starts closing: from then on commands open the database themselves (and are
  // told which process holds it until it is closed).
  app.addHook('preClose', async () => {
    try {
      if (ChannelSchema.parse(JSON.parse(readFileSync(file, 'utf8'))).token === token) unlinkSync(file);
    } catch {
      // Already gone, or another server's: nothing of ours to clean up.
    }
  });
}

/** The channel of the live server that holds this data directory's embedded database; null when there is none. */
export function findLocalControl(dataDir: string): LocalControl | null {
  try {
    const channel = ChannelSchema.parse(JSON.parse(readFileSync(join(dataDir, LOCAL_CONTROL_FILE), 'utf8')));
    return isAlive(channel.pid) ? channel : null;
  } catch {
    return null;
  }
}

/** Nobody listens at the channel's address (the server died and its pid was reused): nothing was sent. */
export class LocalControlUnreachable extends Error {
  override name = 'LocalControlUnreachable';
}

function refusedToConnect(error: unknown): boolean {
  const cause = (error as { cause?: { code?: string; errors?: { code?: string }[] } }).cause;
  return (
    cause?.code === 'ECONNREFUSED' || (cause?.errors ?? []).some((inner) => inner.code === 'ECONNREFUSED')
  );
}

/**
 * Runs an operation on the server behind the channel; its failures come back as errors with the
 * server's message. Only the request line is needed here (`method`, `path`, `revive`), not the work.
 * With `timeoutMs`, a server that has not answered by then is given up on.
 */
export async function callLocalControl<I, O>(
  channel: LocalControl,
  operation: Pick<LocalOperation<I, O>, 'method' | 'path' | 'revive'>,
  input: I,
  { timeoutMs }: { timeoutMs?: number } = {},
): Promise<O> {
  const url = new URL(`${LOCAL_CONTROL_PREFIX}${operation.path}`, channel.url);
  const headers: Record<string, string> = { [LOCAL_CONTROL_TOKEN_HEADER]: channel.token };
  let body: string | undefined;
  if (operation.method === 'GET') {
    for (const [name, value] of Object.entries(input as Record<string, unknown>)) {
      if (value !== undefined && value !== null) url.searchParams.set(name, String(value));
    }
  } else {
    headers['content-type'] = 'application/json';
    body = JSON.stringify(input);
  }
  const server = `running scrub-server (process ${channel.pid}, ${channel.url})`;
  let res: Response;
  const signal = timeoutMs === undefined ? undefined : AbortSignal.timeout(timeoutMs);
  try {
    res = await fetch(url, { method: operation.method, headers, body, signal });
  } catch (error) {
    if (refusedToConnect(error)) throw new LocalControlUnreachable(`Nothing answers at ${channel.url}.`);
    if ((error as Error).name === 'TimeoutError') {
      throw new Error(`The ${server} did not answer within ${Math.ceil(timeoutMs! / 1000)} s.`);
    }
    const reason = (error as { cause?: Error }).cause?.message ?? (error as Error).message;
    throw new Error(`Could not reach the ${server}: ${reason}`);
  }
  const answer: unknown = await res.json().catch(() => null);
  if (!res.ok) {
    const message = (answer as { error?: { message?: string } } | null)?.error?.message;
    if (res.status === 404 && (!message || message.startsWith('No such endpoint'))) {
      throw new Error(
        `The ${server} does not offer ${operation.method} ${operation.path} on its operator channel: it is probably an older version. Restart it, or stop it and run the command again.`,
      );
    }
    throw new Error(
      message ?? `The ${server} answered ${res.status} to ${operation.method} ${operation.path}.`,
    );
  }
  return operation.revive ? operation.revive(answer) : (answer as O);
}

export interface RunOptions {
  /** Opens the database for the direct path (tests substitute their own). */
  open?(config: ServerConfig): Promise<DatabaseHandle>;
}

/**
 * Runs an operation where the database is: through the live server's channel when a server holds
 * the embedded database, otherwise on the database opened here (migrated first, closed after).
 * On PostgreSQL it is always the latter.
 */
export async function runLocalOperation<I, O>(
  config: ServerConfig,
  operation: LocalOperation<I, O>,
  input: I,
  options: RunOptions = {},
): Promise<O> {
  const channel = config.database.kind === 'pglite' ? findLocalControl(config.dataDir) : null;
  if (channel) {
    try {
      return await callLocalControl(channel, operation, input);
    } catch (error) {
      // Not sent, so trying the database directly is safe; if a process does hold it, that says which.
      if (!(error instanceof LocalControlUnreachable)) throw error;
    }
  }
  const database = await (options.open ?? ((c: ServerConfig) => openDatabase(c.database)))(config);
  try {
    await migrateToLatest(database.db);
    return await operation.run(database.db, input);
  } finally {
    await database.close();
  }
}
