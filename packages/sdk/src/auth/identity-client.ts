import { APIConnectionError, APIConnectionTimeoutError } from '../errors.js';
import type { IdentitySettings } from './stored-session.js';

export interface IdentityCallOptions {
  fetch: typeof fetch;
  timeout: number;
}

export type IdentityCaller = (
  identity: IdentitySettings,
  operation: string,
  body: Record<string, unknown>,
) => Promise<Record<string, unknown>>;

/**
 * One call of Cognito's JSON 1.1 protocol, made once. The SDK uses it for the token calls only
 * (refresh, revoke, sign out everywhere): amazon-cognito-identity-js retries those on every error,
 * a refused refresh token included, for about six seconds, where a dead session should end at once.
 * Failures are thrown as the library throws them (an Error with Cognito's exception name in
 * `code`), so one mapping serves both.
 */
export function identityCaller(options: () => IdentityCallOptions): IdentityCaller {
  return async (identity, operation, body) => {
    const { fetch: fetchImpl, timeout } = options();
    const signal = AbortSignal.timeout(timeout);
    let response: Response;
    let text: string;
    try {
      response = await fetchImpl(identity.endpoint, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-amz-json-1.1',
          'x-amz-target': `AWSCognitoIdentityProviderService.${operation}`,
        },
        body: JSON.stringify(body),
        signal,
      });
      text = await response.text();
    } catch (error) {
      if (signal.aborted) throw new APIConnectionTimeoutError(timeout);
      const reason = error instanceof Error && error.cause instanceof Error ? error.cause : error;
      throw new APIConnectionError(
        `Could not reach ${new URL(identity.endpoint).origin}: ${reason instanceof Error ? reason.message : String(reason)}`,
        { cause: error },
      );
    }
    let data: Record<string, unknown> = {};
    try {
      const parsed: unknown = JSON.parse(text);
      if (typeof parsed === 'object' && parsed !== null) data = parsed as Record<string, unknown>;
    } catch {
      // Not JSON: judged by the status alone.
    }
    if (response.ok) return data;
    const type = typeof data.__type === 'string' ? data.__type : `HTTP${response.status}`;
    const message = typeof data.message === 'string' ? data.message : '';
    throw Object.assign(new Error(message), { code: type.split('#').pop() ?? type, status: response.status });
  };
}
