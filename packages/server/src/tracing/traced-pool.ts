import type { PostgresPool, PostgresPoolClient } from 'kysely';
import { activeSpan, inSpan } from './spans.js';

/** The longest statement text a span keeps: a batch insert's placeholders add up. */
const MAX_STATEMENT = 2000;

/**
 * The pool Kysely takes its connections from, each query on them a span of the active one: one
 * wrapper for PGlite's pool and PostgreSQL's alike. A connection taken outside any span (always,
 * while tracing is off) is the pool's own, unwrapped.
 */
export function tracedPool(pool: PostgresPool, engine: 'pglite' | 'postgres'): PostgresPool {
  return forwarding(pool, {
    async connect() {
      const client = await pool.connect();
      return activeSpan() ? tracedClient(client, engine) : client;
    },
  });
}

function tracedClient(client: PostgresPoolClient, engine: 'pglite' | 'postgres'): PostgresPoolClient {
  const query = client.query.bind(client) as (...args: unknown[]) => unknown;
  return forwarding(client, {
    query: ((...args: unknown[]) => {
      // A cursor (streamed rows) is read later: only statements run at once are timed.
      if (typeof args[0] !== 'string') return query(...args);
      const statement = args[0];
      const operation = /^\s*(\w+)/.exec(statement)?.[1]?.toUpperCase() ?? 'QUERY';
      return inSpan(
        operation,
        {
          kind: 'client',
          attributes: {
            'db.system.name': 'postgresql',
            'db.operation.name': operation,
            'db.query.text': statement.slice(0, MAX_STATEMENT),
            'scrub.db.engine': engine,
          },
        },
        async (span) => {
          const result = (await query(...args)) as { rowCount?: number | null };
          if (typeof result?.rowCount === 'number')
            span?.setAttributes({ 'db.response.returned_rows': result.rowCount });
          return result;
        },
      );
    }) as PostgresPoolClient['query'],
  });
}

/** `target` with `own` in place of some of its members; the others are the target's, bound to it. */
function forwarding<T extends object>(target: T, own: Partial<T>): T {
  return new Proxy(target, {
    get(object, name) {
      if (name in own) return own[name as keyof T];
      const value = Reflect.get(object, name, object) as unknown;
      return typeof value === 'function' ? value.bind(object) : value;
    },
  });
}
