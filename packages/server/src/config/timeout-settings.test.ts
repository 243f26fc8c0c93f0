import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

describe('the time limits on clients and on shutdown', () => {
  it('default to 60 s for headers, 300 s for a whole request and 25 s of shutdown grace', () => {
    expect(loadConfig({}).timeouts).toEqual({
      headersMs: 60_000,
      requestMs: 300_000,
      shutdownGraceMs: 25_000,
    });
    expect(
      loadConfig({
        SCRUB_HEADERS_TIMEOUT_SECONDS: '5',
        SCRUB_REQUEST_TIMEOUT_SECONDS: '0',
        SCRUB_SHUTDOWN_GRACE_SECONDS: '2.5',
      }).timeouts,
    ).toEqual({ headersMs: 5000, requestMs: 0, shutdownGraceMs: 2500 });
  });

  it('refuses values it cannot use, naming them', () => {
    expect(() => loadConfig({ SCRUB_SHUTDOWN_GRACE_SECONDS: 'soon' })).toThrow(
      /SCRUB_SHUTDOWN_GRACE_SECONDS/,
    );
    expect(() => loadConfig({ SCRUB_HEADERS_TIMEOUT_SECONDS: '0' })).toThrow(
      /SCRUB_HEADERS_TIMEOUT_SECONDS: must be at least 1 second/,
    );
    expect(() =>
      loadConfig({ SCRUB_HEADERS_TIMEOUT_SECONDS: '90', SCRUB_REQUEST_TIMEOUT_SECONDS: '30' }),
    ).toThrow(/SCRUB_REQUEST_TIMEOUT_SECONDS must be at least SCRUB_HEADERS_TIMEOUT_SECONDS/);
  });
});
