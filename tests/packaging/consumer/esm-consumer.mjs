// An ES module using the installed @scrub/sdk: prints the service's health and config.
import { APIError, Scrub } from '@scrub/sdk';

const scrub = new Scrub({ baseURL: process.env.SCRUB_API_URL });
const health = await scrub.health();
const config = await scrub.config();
console.log(
  JSON.stringify({
    status: health.status,
    version: health.version,
    payments: config.payments?.provider,
    apiError: typeof APIError,
  }),
);
