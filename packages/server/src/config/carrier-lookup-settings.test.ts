import { describe, expect, it } from 'vitest';
import { loadCarrierLookupSettings, TWILIO_LOOKUP_URL } from './carrier-lookup-settings.js';

describe('carrier lookup settings', () => {
  it('are off by default, at 1 credit and a 3-second deadline', () => {
    expect(loadCarrierLookupSettings({})).toEqual({ twilio: null, credits: 1, timeoutMs: 3000 });
  });

  it('turn on with a Twilio account SID and auth token, at the price the operator sets', () => {
    const settings = loadCarrierLookupSettings({
      SCRUB_TWILIO_ACCOUNT_SID: 'AC123',
      SCRUB_TWILIO_AUTH_TOKEN: 'secret',
      SCRUB_CARRIER_LOOKUP_CREDITS: '3',
      SCRUB_CARRIER_LOOKUP_TIMEOUT_MS: '1500',
    });
    expect(settings).toEqual({
      twilio: { accountSid: 'AC123', authToken: 'secret', baseUrl: TWILIO_LOOKUP_URL },
      credits: 3,
      timeoutMs: 1500,
    });
  });

  it('refuse half a credential, a price that is not a whole number, and a lookup URL that is not http', () => {
    expect(() => loadCarrierLookupSettings({ SCRUB_TWILIO_ACCOUNT_SID: 'AC123' })).toThrow(
      'SCRUB_TWILIO_ACCOUNT_SID and SCRUB_TWILIO_AUTH_TOKEN go together',
    );
    expect(() => loadCarrierLookupSettings({ SCRUB_CARRIER_LOOKUP_CREDITS: '0.5' })).toThrow(
      'SCRUB_CARRIER_LOOKUP_CREDITS must be a whole number from 0 to 1000',
    );
    expect(() => loadCarrierLookupSettings({ SCRUB_TWILIO_LOOKUP_URL: 'lookups.twilio.com' })).toThrow(
      'SCRUB_TWILIO_LOOKUP_URL must be an http(s) URL',
    );
  });
});
