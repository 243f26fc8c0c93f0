import { createLocalStripeTables, dropLocalStripeTables } from '@scrub/stripe-local';

/**
 * The built-in payment provider's state (local mode only; unused with real Stripe). The tables
 * belong to @scrub/stripe-local, which keeps their definition (`schema.ts` there) unchanged.
 */
export const up = createLocalStripeTables;
export const down = dropLocalStripeTables;
