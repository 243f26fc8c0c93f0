// A CommonJS script using the installed @scrub/sdk through require(): prints the service's health and config.
const { APIError, Scrub } = require('@scrub/sdk');

async function main() {
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
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
