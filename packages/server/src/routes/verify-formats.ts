import { BATCH_CSV_HEADERS, type VerifyBatchItem, type VerifyBatchResult } from '@scrub/contract';
import { safeCsvField } from '@scrub/engine';
import type { FormattedAnswer } from '../http/route-registry.js';

/**
 * `POST /verify`'s answer in the lean formats a request may ask for with `Accept`: the results one
 * per line, and the batch's credits in the `Scrub-Credits-Deducted` and `Scrub-Credits-Remaining`
 * headers (absent for unlimited users, as in JSON).
 */
function creditHeaders(answer: VerifyBatchResult): Record<string, string> {
  if (answer.credits_deducted === undefined) return {};
  return {
    'scrub-credits-deducted': String(answer.credits_deducted),
    'scrub-credits-remaining': String(answer.credits_remaining),
  };
}

/** `application/x-ndjson`: each result as the JSON answer has it, one per line. */
export function batchAsNdjson(answer: VerifyBatchResult): FormattedAnswer {
  let body = '';
  for (const item of answer.results) body += `${JSON.stringify(item)}\n`;
  return { body, headers: creditHeaders(answer) };
}

const flag = (value: boolean | null | undefined) => (value == null ? '' : String(value));
const listed = (values: readonly string[]) => values.join('|');

/** One result as the CSV's columns (`BATCH_CSV_HEADERS`): null as empty, lists joined by `|`. */
function csvLine(item: VerifyBatchItem): string {
  return `${[
    safeCsvField(item.input),
    safeCsvField(item.phone_number),
    item.line_type,
    item.line_type_source ?? '',
    item.dnc === null ? '' : String(item.dnc),
    String(item.cached),
    item.credits_deducted === undefined ? '' : String(item.credits_deducted),
    item.invalid_reason ?? '',
    safeCsvField(item.extension ?? ''),
    listed(item.dnc_sources),
    listed(item.dnc_lists_checked),
    listed(item.timezones),
    flag(item.callable_now),
    item.callable_reason ?? '',
    flag(item.reassigned),
    item.data_source,
  ].join(',')}\r\n`;
}

/** `text/csv`: a header line, then one line per result in the order sent. */
export function batchAsCsv(answer: VerifyBatchResult): FormattedAnswer {
  let body = `${BATCH_CSV_HEADERS.join(',')}\r\n`;
  for (const item of answer.results) body += csvLine(item);
  return { body, headers: creditHeaders(answer) };
}
