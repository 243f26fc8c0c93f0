// Type-checked (never run) against the installed @scrub/sdk, as a CommonJS consumer.
import sdk = require('@scrub/sdk');

const scrub = new sdk.Scrub({ baseURL: 'http://127.0.0.1:8787' });
export const health: Promise<sdk.Health> = scrub.health();
// Fails to compile unless the types are the real ones: with an untyped module this line is fine.
// @ts-expect-error verify takes a phone number string
export const wrong = scrub.verify(2015550123);
