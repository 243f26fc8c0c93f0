/** The `error` object of a Stripe answer, as the `stripe` SDK and Stripe.js read it. */
export interface StripeErrorBody {
  type: 'card_error' | 'invalid_request_error' | 'idempotency_error' | 'api_error' | 'authentication_error';
  message: string;
  code?: string;
  decline_code?: string;
  param?: string;
  payment_intent?: object;
  setup_intent?: object;
  payment_method?: object;
}

/** A refusal of the built-in provider, answered as Stripe answers it: status and `{"error": {...}}`. */
export class LocalStripeError extends Error {
  constructor(
    readonly status: number,
    readonly body: StripeErrorBody,
  ) {
    super(body.message);
    this.name = 'LocalStripeError';
  }
}

export const invalidRequest = (message: string, param?: string, code?: string) =>
  new LocalStripeError(400, {
    type: 'invalid_request_error',
    message,
    ...(param ? { param } : {}),
    ...(code ? { code } : {}),
  });

export const missingParam = (param: string) =>
  invalidRequest(`Missing required param: ${param}.`, param, 'parameter_missing');

export const noSuchObject = (kind: string, id: string, param = 'id') =>
  new LocalStripeError(404, {
    type: 'invalid_request_error',
    code: 'resource_missing',
    param,
    message: `No such ${kind}: '${id}'`,
  });
