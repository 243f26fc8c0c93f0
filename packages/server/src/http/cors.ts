import cors, { type FastifyCorsOptions } from '@fastify/cors';
import type { FastifyInstance } from 'fastify';

export interface CorsRule {
  /** Does this rule cover the URL path? */
  matches(path: string): boolean;
  options: Omit<FastifyCorsOptions, 'delegator' | 'hook'>;
}

/**
 * CORS for the whole app, registered once (the plugin adds an app-wide hook and `OPTIONS *`
 * route, so a second registration would clash): each path gets the first rule that covers it,
 * and paths no rule covers get no CORS headers at all. The identity endpoint is the first rule;
 * API routes join here when browsers on other origins call them.
 */
export async function installCors(app: FastifyInstance, rules: CorsRule[]): Promise<void> {
  await app.register(cors, {
    delegator: (request, callback) => {
      const path = (request.url ?? '/').split('?')[0] ?? '/';
      const rule = rules.find((r) => r.matches(path));
      callback(null, rule ? rule.options : { origin: false });
    },
  });
}
