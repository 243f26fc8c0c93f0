import { type ErrorCode, errorStatus, type FieldIssue } from '@scrub/contract';

/** An expected failure: a stable code, the status the contract gives it, and a message for people. */
export class ApiError extends Error {
  readonly status: number;

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly extra: {
      issues?: FieldIssue[];
      credits_required?: number;
      credits_available?: number;
      affordable?: number;
      required?: number;
      decline_code?: string | null;
      client_secret?: string;
      payment_intent_id?: string;
      next_action_url?: string;
      headers?: Record<string, string>;
    } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = errorStatus[code];
  }
}
