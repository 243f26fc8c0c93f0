import { messages } from '@scrub/contract';
import { ApiError } from '../errors/api-error.js';
import type { Profile } from './profiles.js';

/** Seed document 1, section 4: a paused account cannot buy, check or submit files until resumed. */
export function planPausedError(): ApiError {
  return new ApiError(
    'plan_paused',
    `Your plan is paused: ${messages.activateFirst} (PUT /user/plan-status with status active, or \`scrub subscription resume\`).`,
  );
}

export function requireActivePlan(profile: Pick<Profile, 'plan_status'>): void {
  if (profile.plan_status === 'paused') throw planPausedError();
}
