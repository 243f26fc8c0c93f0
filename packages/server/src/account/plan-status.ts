import { messages } from '@scrub/contract';
import { ApiError } from '../errors/api-error.js';
import type { Profile } from './profiles.js';

/**
 * Seed document 1, section 4: a paused account cannot buy, check or submit files until resumed.
 * `scrub account activate` (PUT /user/plan-status) works with or without a subscription, and
 * resumes a paused subscription too; `scrub subscription resume` only works where there is one.
 */
export function planPausedError(): ApiError {
  return new ApiError(
    'plan_paused',
    `Your plan is paused: ${messages.activateFirst} with \`scrub account activate\` (PUT /user/plan-status with status active; it also resumes a paused subscription).`,
  );
}

export function requireActivePlan(profile: Pick<Profile, 'plan_status'>): void {
  if (profile.plan_status === 'paused') throw planPausedError();
}
