import { APIError, ScrubError } from '@scrub/sdk';

/**
 * The service's own sentence when it sent one, else the fallback the seeds give for that screen.
 * An APIError's `message` starts with the status, for logs; people only need the words.
 */
export function errorMessage(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof APIError) return error.serviceMessage || fallback;
  if (error instanceof ScrubError || error instanceof Error) return error.message || fallback;
  return fallback;
}
