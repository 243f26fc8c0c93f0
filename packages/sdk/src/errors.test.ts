import nock from 'nock';
import { afterEach, beforeAll, describe, expect, it } from 'vitest';
import { Scrub } from './client.js';
import {
  APIError,
  AuthenticationError,
  BadRequestError,
  ConflictError,
  InsufficientCreditsError,
  InternalServerError,
  NotFoundError,
  PayloadTooLargeError,
  PermissionDeniedError,
  RateLimitError,
  ScrubError,
  UnprocessableEntityError,
} from './errors.js';

const BASE = 'http://scrub.test';
const client = new Scrub({ baseURL: BASE, apiKey: 'sk_test', maxRetries: 0 });

function envelope(code: string, message: string, extra: Record<string, unknown> = {}) {
  return { error: { code, message, request_id: 'req_123' }, message, ...extra };
}

/** Answers /health with the given status and body, and returns what the SDK threw. */
async function failure(status: number, body: string | object, headers: Record<string, string> = {}) {
  nock(BASE).get('/health').reply(status, body, headers);
  return client.health().then(
    () => expect.unreachable('the call should have failed'),
    (error: unknown) => error,
  );
}

beforeAll(() => nock.disableNetConnect());
afterEach(() => nock.cleanAll());

describe('APIError.generate through the client', () => {
  it.each([
    {
      status: 400,
      ErrorClass: BadRequestError,
      code: 'validation_failed',
      message: 'Invalid request: query field "p": must be 10 digits',
    },
    {
      status: 401,
      ErrorClass: AuthenticationError,
      code: 'invalid_api_key',
      message: 'The API key is not valid',
    },
    {
      status: 402,
      ErrorClass: InsufficientCreditsError,
      code: 'insufficient_credits',
      message: 'Not enough credits: 40 needed, 12 available',
    },
    { status: 403, ErrorClass: PermissionDeniedError, code: 'forbidden', message: 'Access Denied' },
    { status: 404, ErrorClass: NotFoundError, code: 'file_not_found', message: 'No file found' },
    { status: 409, ErrorClass: ConflictError, code: 'results_not_ready', message: 'Results not ready' },
    {
      status: 413,
      ErrorClass: PayloadTooLargeError,
      code: 'payload_too_large',
      message: 'The request body is larger than this API accepts.',
    },
    {
      status: 422,
      ErrorClass: UnprocessableEntityError,
      code: 'bad_request',
      message: 'Cannot process this file',
    },
    { status: 429, ErrorClass: RateLimitError, code: 'rate_limited', message: 'Too many requests' },
    {
      status: 500,
      ErrorClass: InternalServerError,
      code: 'internal_error',
      message: 'An error occurred. Quote request id req_123.',
    },
    {
      status: 503,
      ErrorClass: InternalServerError,
      code: 'service_unavailable',
      message: 'Try again shortly',
    },
  ])(
    'maps $status to $ErrorClass.name with the code, request id and server message',
    async ({ status, ErrorClass, code, message }) => {
      const error = await failure(status, envelope(code, message));

      expect(error).toBeInstanceOf(ErrorClass);
      expect(error).toBeInstanceOf(APIError);
      expect(error).toBeInstanceOf(ScrubError);
      expect(error).toMatchObject({
        status,
        code,
        requestId: 'req_123',
        message: `${status} ${message}`,
        serviceMessage: message,
      });
      expect((error as Error).name).toBe(ErrorClass.name);
    },
  );

  it('keeps an unmapped status as a plain APIError', async () => {
    const error = await failure(405, envelope('method_not_allowed', 'Method not allowed'));

    expect(error).toBeInstanceOf(APIError);
    expect(error).not.toBeInstanceOf(BadRequestError);
    expect(error).toMatchObject({
      status: 405,
      code: 'method_not_allowed',
      message: '405 Method not allowed',
    });
  });

  it('exposes the credits a 402 needed and had', async () => {
    const error = await failure(
      402,
      envelope('insufficient_credits', 'Not enough credits', { credits_required: 40, credits_available: 12 }),
    );

    expect(error).toBeInstanceOf(InsufficientCreditsError);
    expect(error).toMatchObject({ creditsRequired: 40, creditsAvailable: 12 });
  });

  it('exposes which fields were wrong on a 400', async () => {
    const issues = [{ location: 'query', path: 'p', message: 'must be 10 digits' }];
    const body = {
      error: { code: 'validation_failed', message: 'Invalid request', issues },
      message: 'Invalid request',
    };

    const error = await failure(400, body);

    expect(error).toMatchObject({ issues, body });
  });

  it('takes the request id from x-request-id when the body has none', async () => {
    const error = await failure(404, { message: 'No file found' }, { 'x-request-id': 'req_header' });

    expect(error).toMatchObject({ requestId: 'req_header', message: '404 No file found', code: undefined });
    expect((error as APIError).headers.get('x-request-id')).toBe('req_header');
  });

  it('turns a plain-text body into a readable message', async () => {
    const error = await failure(502, 'upstream connect error\n', { 'content-type': 'text/plain' });

    expect(error).toBeInstanceOf(InternalServerError);
    expect(error).toMatchObject({ message: '502 upstream connect error', body: 'upstream connect error\n' });
  });

  it('strips the markup of an HTML error page', async () => {
    const page = '<html><head><title>502 Bad Gateway</title></head><body><h1>Bad Gateway</h1></body></html>';

    const error = await failure(502, page, { 'content-type': 'text/html' });

    expect((error as Error).message).toBe('502 502 Bad Gateway Bad Gateway');
    // Not the service's words: nothing to show a person as is.
    expect((error as APIError).serviceMessage).toBeUndefined();
  });

  it('says so when the body is empty', async () => {
    const error = await failure(500, '');

    expect((error as Error).message).toBe('500 status code (no body)');
  });
});
