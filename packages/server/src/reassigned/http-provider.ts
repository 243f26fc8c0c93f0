import { z } from 'zod';
import { ApiError } from '../errors/api-error.js';
import type { ReassignedAnswer, ReassignedProvider } from './reassigned-provider.js';

/** The `provider` an answer from the query service names. */
export const HTTP_PROVIDER = 'query_service';

/**
 * What the query service answers: the FCC Reassigned Numbers Database's three answers, and the
 * date its data is complete to when it says (otherwise the day asked).
 */
const ServiceAnswer = z.object({
  answer: z.enum(['yes', 'no', 'no_data']),
  as_of: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/)
    .optional(),
});

const REASSIGNED: Record<z.infer<typeof ServiceAnswer>['answer'], boolean | null> = {
  yes: true,
  no: false,
  no_data: null,
};

/**
 * Asks a query service, one number at a time: `POST <url>` with `{"phone_number": "+1...",
 * "date": "YYYY-MM-DD"}` and `Authorization: Bearer <key>`, answered `{"answer": "yes" | "no" |
 * "no_data", "as_of"?: "YYYY-MM-DD"}` (docs/reference-data.md). A service that does not answer
 * within the timeout, or answers anything else, fails the check with a 503: nothing is charged.
 */
export class HttpReassignedProvider implements ReassignedProvider {
  constructor(private readonly settings: { url: string; key: string; timeoutMs: number }) {}

  async answer(e164: string, consentDate: string): Promise<ReassignedAnswer> {
    const { url, key, timeoutMs } = this.settings;
    let body: unknown;
    try {
      const response = await fetch(url, {
        method: 'POST',
        headers: {
          authorization: `Bearer ${key}`,
          'content-type': 'application/json',
          accept: 'application/json',
        },
        body: JSON.stringify({ phone_number: e164, date: consentDate }),
        signal: AbortSignal.timeout(timeoutMs),
      });
      if (!response.ok) throw new Error(`it answered HTTP ${response.status}`);
      body = await response.json();
    } catch (error) {
      const why =
        (error as Error).name === 'TimeoutError'
          ? `no answer within ${timeoutMs} ms`
          : (error as Error).message;
      throw unavailable(why);
    }
    const parsed = ServiceAnswer.safeParse(body);
    if (!parsed.success) throw unavailable('its answer is not one of yes, no or no_data');
    return {
      reassigned: REASSIGNED[parsed.data.answer],
      reassigned_source: {
        provider: HTTP_PROVIDER,
        as_of: parsed.data.as_of ?? new Date().toISOString().slice(0, 10),
      },
    };
  }
}

function unavailable(why: string): ApiError {
  return new ApiError(
    'service_unavailable',
    `The reassigned-numbers service could not be asked (${why}). Nothing was charged: try again, or leave out consent_date.`,
  );
}
