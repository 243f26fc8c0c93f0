export type { HostDatabase } from './host-database.js';
export { LOCAL_API_VERSION, LocalStripe, type LocalStripeOptions } from './local-stripe.js';
export { LOCAL_STRIPE_PREFIX, registerLocalStripeRoutes, stripeJsPath } from './local-stripe-routes.js';
export { createLocalStripeTables, dropLocalStripeTables } from './schema.js';
export {
  LOCAL_STRIPE_KEYS,
  type RunningLocalStripe,
  type StartLocalStripeOptions,
  startLocalStripe,
} from './start-local-stripe.js';
