import { APIError, ScrubError } from '@scrub/sdk';

/**
 * The server's message when it sent one, else the fallback the seeds give for that screen. The
 * SDK's API errors start with the status ("402 Not enough credits"): people only need the words.
 */
export function errorMessage(error: unknown, fallback = 'An error occurred'): string {
  if (error instanceof APIError) return error.message.replace(/^\d{3} /, '') || fallback;
  if (error instanceof ScrubError || error instanceof Error) return error.message || fallback;
  return fallback;
}
