import { type AmountOption, APIConnectionError, APIError, Scrub } from '@scrub/sdk';

const dollars = new Intl.NumberFormat('en-US', { style: 'currency', currency: 'USD' });
const count = new Intl.NumberFormat('en-US');

function describeOption(option: AmountOption): string {
  const price = dollars.format(option.amount).padStart(10);
  if (option.credits === null) {
    const days = option.unlimited_days;
    return `${price}  unlimited checks${days ? ` for ${days} ${days === 1 ? 'day' : 'days'}` : ''}`;
  }
  const perThousand = dollars.format((option.amount / option.credits) * 1000);
  const discount = option.percent_off > 0 ? `  ${option.percent_off}% off` : '';
  return `${price}  ${`${count.format(option.credits)} credits`.padEnd(17)}  ${perThousand} per 1,000${discount}`;
}

/** Every prepaid plan, then one line per price it offers, with what that price buys. */
export async function prepaidPlanLines(scrub: Scrub): Promise<string[]> {
  const plans = await scrub.plans.list();
  return plans
    .filter((plan) => plan.plan_type === 'prepaid')
    .flatMap((plan) => [
      `${plan.plan_name} (${plan.plan_reference})`,
      ...plan.amount_options.map(describeOption),
    ]);
}

async function main(): Promise<number> {
  // The API's address comes from SCRUB_API_URL (default http://localhost:8787); plans need no API key.
  const scrub = new Scrub();
  try {
    for (const line of await prepaidPlanLines(scrub)) console.log(line);
    return 0;
  } catch (error) {
    if (error instanceof APIConnectionError) {
      console.error(`${error.message}. Is the Scrub API running? Set SCRUB_API_URL to its address.`);
    } else if (error instanceof APIError) {
      const requestId = error.requestId ? ` (request id ${error.requestId})` : '';
      console.error(`The Scrub API refused the request: ${error.message}${requestId}`);
    } else {
      throw error;
    }
    return 1;
  }
}

if (import.meta.main) process.exitCode = await main();
