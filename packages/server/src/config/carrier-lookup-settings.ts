import { ConfigError } from '../errors/config-error.js';

/** Twilio Lookup v2's address; SCRUB_TWILIO_LOOKUP_URL points elsewhere (a stand-in, in tests). */
export const TWILIO_LOOKUP_URL = 'https://lookups.twilio.com';

/**
 * The optional live carrier lookup (`/verify?lookup=carrier`), off unless Twilio credentials are set.
 * `twilio`: where to ask and as whom; null: lookups are refused. `credits`: what one answered lookup
 * costs the customer, beside the check's credit. `timeoutMs`: the deadline of one lookup.
 */
export interface CarrierLookupSettings {
  twilio: { accountSid: string; authToken: string; baseUrl: string } | null;
  credits: number;
  timeoutMs: number;
}

function wholeNumber(
  env: NodeJS.ProcessEnv,
  name: string,
  fallback: number,
  min: number,
  max: number,
): number {
  const text = env[name]?.trim();
  if (!text) return fallback;
  const value = Number(text);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new ConfigError(
      `Invalid settings: ${name} must be a whole number from ${min} to ${max}, not "${text}"`,
    );
  }
  return value;
}

/**
 * Reads SCRUB_TWILIO_ACCOUNT_SID and SCRUB_TWILIO_AUTH_TOKEN (both or neither; an API key's SID and
 * secret work too), SCRUB_TWILIO_LOOKUP_URL, SCRUB_CARRIER_LOOKUP_CREDITS (default 1) and
 * SCRUB_CARRIER_LOOKUP_TIMEOUT_MS (default 3000).
 */
export function loadCarrierLookupSettings(env: NodeJS.ProcessEnv = process.env): CarrierLookupSettings {
  const accountSid = env.SCRUB_TWILIO_ACCOUNT_SID?.trim() || null;
  const authToken = env.SCRUB_TWILIO_AUTH_TOKEN?.trim() || null;
  if (Boolean(accountSid) !== Boolean(authToken)) {
    throw new ConfigError(
      'Invalid settings: SCRUB_TWILIO_ACCOUNT_SID and SCRUB_TWILIO_AUTH_TOKEN go together; set both to offer carrier lookups, or neither',
    );
  }
  const baseUrl = env.SCRUB_TWILIO_LOOKUP_URL?.trim() || TWILIO_LOOKUP_URL;
  if (!/^https?:\/\//.test(baseUrl)) {
    throw new ConfigError('Invalid settings: SCRUB_TWILIO_LOOKUP_URL must be an http(s) URL');
  }
  return {
    twilio: accountSid && authToken ? { accountSid, authToken, baseUrl: baseUrl.replace(/\/+$/, '') } : null,
    credits: wholeNumber(env, 'SCRUB_CARRIER_LOOKUP_CREDITS', 1, 0, 1000),
    timeoutMs: wholeNumber(env, 'SCRUB_CARRIER_LOOKUP_TIMEOUT_MS', 3000, 50, 60_000),
  };
}
