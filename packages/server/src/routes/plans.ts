import { routes } from '@scrub/contract';
import type { ServerContext } from '../context.js';
import { listPlans } from '../plans/plan-store.js';

export function registerPlans({ registry, database }: ServerContext): void {
  registry.add(routes.listPlans, async () => ({ plans: await listPlans(database.db) }));
}
