import { accountRoutes } from './account.js';
import { accountDataRoutes } from './account-data.js';
import { adminRoutes } from './admin.js';
import { apiKeyRoutes } from './api-key.js';
import { bulkRoutes } from './bulk.js';
import { cardsRoutes } from './cards.js';
import { checksRoutes } from './checks.js';
import { creditHistoryRoutes } from './credits.js';
import { filesRoutes } from './files.js';
import { plansRoutes } from './plans.js';
import { purchasesRoutes } from './purchases.js';
import type { ResourceName, RouteSpec } from './route-spec.js';
import { serviceRoutes } from './service.js';
import { subscriptionsRoutes } from './subscriptions.js';
import { suppressionRoutes } from './suppression.js';
import { usageRoutes } from './usage.js';
import { verifyRoutes } from './verify.js';
import { webhooksRoutes } from './webhooks.js';

// Written in route-spec.ts, which every resource file imports: defined here, they would make each
// resource file and this one import each other.
export {
  defineRoute,
  defineRoutes,
  type HttpMethod,
  type InputOf,
  MAX_PATH_PARAM_LENGTH,
  type OutputOf,
  pathFor,
  pathParamNames,
  RESOURCES,
  type ResourceName,
  type RouteAuth,
  type RouteDefinition,
  type RouteSpec,
} from './route-spec.js';

/**
 * Every call of the product, written once, each in its resource's file. Where the seeds say "method
 * and path not shown" the choice made there is final: the SDK hides it and the server implements it.
 */
export const routes = {
  ...serviceRoutes,
  ...plansRoutes,
  ...accountRoutes,
  ...accountDataRoutes,
  ...apiKeyRoutes,
  ...verifyRoutes,
  ...cardsRoutes,
  ...purchasesRoutes,
  ...subscriptionsRoutes,
  ...bulkRoutes,
  ...filesRoutes,
  ...suppressionRoutes,
  ...adminRoutes,
  ...webhooksRoutes,
  ...checksRoutes,
  ...usageRoutes,
  ...creditHistoryRoutes,
} as const satisfies Record<string, RouteSpec>;

export type RouteName = keyof typeof routes;

/** The per-resource tables `routes` merges, for the checks that no two of them claim one name. */
export const routesByResource = {
  verify: verifyRoutes,
  bulk: bulkRoutes,
  files: filesRoutes,
  suppression: suppressionRoutes,
  account: { ...accountRoutes, ...accountDataRoutes, ...creditHistoryRoutes },
  'api-key': apiKeyRoutes,
  plans: plansRoutes,
  cards: cardsRoutes,
  purchases: purchasesRoutes,
  subscriptions: subscriptionsRoutes,
  admin: adminRoutes,
  service: serviceRoutes,
  webhooks: webhooksRoutes,
  checks: checksRoutes,
  usage: usageRoutes,
} as const satisfies Record<ResourceName, Record<string, RouteSpec>>;

/** @deprecated The suppression list's routes: use `suppressionRoutes` (the resource's one name). */
export const dncRoutes = suppressionRoutes;
/** @deprecated Use `bulkRoutes` (the resource's one name). */
export const bulkJobsRoutes = bulkRoutes;
/** @deprecated Split into `cardsRoutes`, `purchasesRoutes` and `subscriptionsRoutes`. */
export const paymentsRoutes = { ...cardsRoutes, ...purchasesRoutes, ...subscriptionsRoutes } as const;
