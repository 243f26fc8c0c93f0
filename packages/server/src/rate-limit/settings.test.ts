import { describe, expect, it } from 'vitest';
import { loadConfig } from '../config/config.js';
import { ConfigError } from '../errors/config-error.js';

describe('rate limit settings', () => {
  it('defaults generous enough for a CRM: 100/s per key, 200/s per account, 300/s per address', () => {
    const config = loadConfig({});
    expect(config.rateLimits).toEqual({
      perKey: { max: 100, windowSeconds: 1 },
      perAccount: { max: 200, windowSeconds: 1 },
      perAddress: { max: 300, windowSeconds: 1 },
    });
    expect(config.signUpsPerAddress).toEqual({ max: 20, windowSeconds: 3600 });
    expect(config.signInFailuresPerAddress).toEqual({ max: 20, windowSeconds: 900 });
    expect(config.trustProxy).toBe(false);
  });

  it('reads counts per window, off, and which proxies to trust', () => {
    const config = loadConfig({
      SCRUB_RATE_LIMIT_PER_KEY: '600/10s',
      SCRUB_RATE_LIMIT_PER_ACCOUNT: '30/m',
      SCRUB_RATE_LIMIT_PER_ADDRESS: 'off',
      SCRUB_TRUST_PROXY: '10.0.0.0/8, 192.168.1.1',
    });
    expect(config.rateLimits).toEqual({
      perKey: { max: 600, windowSeconds: 10 },
      perAccount: { max: 30, windowSeconds: 60 },
      perAddress: null,
    });
    expect(config.trustProxy).toEqual(['10.0.0.0/8', '192.168.1.1']);
    expect(loadConfig({ SCRUB_TRUST_PROXY: '1' }).trustProxy).toBe(1);
  });

  it('refuses what it cannot read, saying what it expects', () => {
    expect(() => loadConfig({ SCRUB_RATE_LIMIT_PER_KEY: 'fast' })).toThrow(ConfigError);
    expect(() => loadConfig({ SCRUB_RATE_LIMIT_PER_KEY: 'fast' })).toThrow(
      /100\/s, 600\/10s, 30\/m, 20\/h, or off/,
    );
    expect(() => loadConfig({ SCRUB_RATE_LIMIT_PER_KEY: '0/s' })).toThrow(/at least 1 request/);
    expect(() => loadConfig({ SCRUB_SIGN_IN_FAILURES_PER_ADDRESS: 'off' })).toThrow(/cannot be off/);
  });
});
