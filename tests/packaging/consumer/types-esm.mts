// Type-checked (never run) against the installed @scrub/sdk, as an ES module consumer.
import { type Health, type Plan, Scrub } from '@scrub/sdk';

const scrub = new Scrub({ baseURL: 'http://127.0.0.1:8787' });
export const health: Promise<Health> = scrub.health();
export const plans: Promise<Plan[]> = scrub.plans.list();
// Fails to compile unless the types are the real ones: with an untyped module this line is fine.
// @ts-expect-error verify takes a phone number string
export const wrong = scrub.verify(2015550123);
