import type { PlanStatus, UserInfo } from '@scrub/sdk';
import type { Context, CredentialSource } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { formatCredits, formatPairs } from '../format.js';

function describeCredential(source: CredentialSource, profile: string): string {
  if (source === 'SCRUB_API_KEY') return 'SCRUB_API_KEY (the environment variable)';
  if (source === 'SCRUB_ACT_AS_TOKEN') return 'an act-as token (scrub admin as)';
  return `${source} (profile "${profile}")`;
}

/** Who the credentials in use belong to, their plan and credits, and which credentials they are. */
export async function showAccount(context: Context): Promise<void> {
  const { scrub, source } = await requireCredentials(context);
  const user: UserInfo = await scrub.account.get();
  const profile = await context.profileName();
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(
      `${JSON.stringify({ credential: source, profile, api_url: scrub.baseURL, user }, null, 2)}\n`,
    );
    return;
  }
  stdout.write(
    formatPairs([
      ['Email', user.email],
      ['Name', user.user_name || '-'],
      ['Role', user.role.name],
      ['Plan', `${user.user_plan.plan_name} (${user.user_plan_status})`],
      ['Credits', formatCredits(user.credits_remaining)],
      ['API key', user.api_key_last4 ? `…${user.api_key_last4}` : 'none'],
      ['Credential', describeCredential(source, profile)],
      ['API', scrub.baseURL],
    ]),
  );
}

/** `scrub account pause|activate`: PUT /user/plan-status; prints the service's message. */
export async function setPlanStatus(status: PlanStatus, context: Context): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const message = await scrub.account.setPlanStatus(status);
  const { stdout } = context.io;
  if ((await context.output()) === 'json') {
    stdout.write(`${JSON.stringify({ status, message }, null, 2)}\n`);
    return;
  }
  stdout.write(`${message}\n`);
}
