import { neutraliseFormula } from '@scrub/engine/preview';
import type { VerifyResult } from '@scrub/sdk';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { describeDncLists } from '../dnc-lists.js';
import { CliError, FailOnMatchedError, UsageError } from '../errors.js';
import { type FailOnCondition, FailOnSchema } from '../fail-on.js';
import { oneCell } from '../format.js';
import { type CliIO, readLines, useColor } from '../io.js';
import { renderTable } from '../table.js';
import { parseInput } from '../validate.js';

const MAX_CONCURRENCY = 64;
const CONCURRENCY_RULE = `--concurrency must be a whole number from 1 to ${MAX_CONCURRENCY}`;

const CheckOptionsSchema = z.object({
  csv: z.boolean().optional(),
  consentDate: z
    .string()
    .regex(/^\d{4}-\d{2}-\d{2}$/, '--consent-date is a date written YYYY-MM-DD, such as 2024-02-01')
    .optional(),
  failOn: FailOnSchema,
  concurrency: z.coerce
    .number({ error: CONCURRENCY_RULE })
    .int(CONCURRENCY_RULE)
    .min(1, CONCURRENCY_RULE)
    .max(MAX_CONCURRENCY, CONCURRENCY_RULE)
    .optional(),
  lookup: z
    .literal('carrier', { error: '--lookup takes carrier (a live carrier lookup of each number)' })
    .optional(),
  lists: z.array(z.string()).optional(),
});

type Format = 'table' | 'plain' | 'json' | 'csv';

const TABLE_HEAD = [
  'Number',
  'Line type',
  'Source',
  'DNC',
  'Lists',
  'Checked',
  'Time zone',
  'Callable now',
  'Cached',
  'Charged',
];

/** yes or no inside the calling window (08:00-21:00 local, every zone); - when it cannot be told. */
const callableWord = (result: VerifyResult) =>
  result.callable_now === null ? '-' : result.callable_now ? 'yes' : 'no';

/** A valid number no loaded DNC list covers: not checked, which is never "clean". */
const isUnchecked = (result: VerifyResult) => result.dnc === null && result.line_type !== 'invalid';

/**
 * The DNC cell, as a bulk result file writes it: 1 listed, 0 clean, `unchecked`, or empty for an
 * invalid number on no list (nothing to call).
 */
export function dncCell(result: VerifyResult): string {
  if (result.dnc !== null) return String(result.dnc);
  return isUnchecked(result) ? 'unchecked' : '';
}

const DNC_WORDS: Record<string, string> = { '1': 'yes', '0': 'no', unchecked: 'unchecked', '': '-' };

/**
 * What the line type rests on, for people: `exchange`, `thousands block`, `carrier lookup, ported`,
 * `exchange (lookup failed)`...; - when nothing gave one.
 */
export function sourceCell(result: VerifyResult): string {
  const source = result.line_type_source?.replaceAll('_', ' ') ?? '-';
  if (result.ported) return `${source}, ported`;
  const lookup = result.carrier_lookup?.status;
  if (lookup === 'failed') return `${source} (lookup failed)`;
  if (lookup === 'no_line_type')
    return `${source} (lookup: ${result.carrier_lookup?.provider_type ?? 'no type'})`;
  return source;
}

/** What people read, in the table and in the plain lines printed off a terminal. */
export function answerCells(result: VerifyResult): string[] {
  const number = result.extension ? `${result.phone_number} ext. ${result.extension}` : result.phone_number;
  const lineType =
    result.line_type === 'invalid'
      ? `invalid: ${result.invalid_message ?? result.invalid_reason ?? 'not a phone number'}`
      : result.line_type;
  return [
    number,
    lineType,
    sourceCell(result),
    DNC_WORDS[dncCell(result)] ?? '-',
    [...result.dnc_sources, ...flaggedBy(result).map((name) => `flag: ${name}`)].join(', ') || '-',
    result.dnc_lists_checked.join(', ') || '-',
    result.timezones.join(', ') || '-',
    callableWord(result),
    result.cached ? 'yes' : 'no',
    // Omitted for unlimited plans, which are never charged.
    result.credits_deducted === undefined ? 'unlimited' : String(result.credits_deducted),
  ];
}

/** The operator lists (litigators...) holding the number: flags, not do-not-call lists. */
const flaggedBy = (result: VerifyResult) =>
  (result.lists ?? []).filter((list) => list.listed === true).map((list) => list.name);

/** `litigators=1;vendor-x=0`: each operator list counted, 1 on it, 0 not, empty not checked. */
const listsCell = (result: VerifyResult) =>
  (result.lists ?? [])
    .map((list) => `${list.name}=${list.listed === null ? '' : list.listed ? 1 : 0}`)
    .join(';');

const CSV_COLUMNS = [
  'input',
  'phone_number',
  'line_type',
  'dnc',
  'dnc_sources',
  'dnc_lists_checked',
  'invalid_reason',
  'invalid_message',
  'extension',
  'cached',
  'credits_deducted',
  'credits_remaining',
  'data_source',
  'timezones',
  'callable_now',
  'line_type_source',
  'ported',
  'lists',
] as const;

/**
 * A cell a spreadsheet would run as a formula gets a leading apostrophe, by the rule result files
 * follow: a number such as `+1 201 555 0123` is left alone.
 */
function csvCell(value: string | number | boolean | null | undefined): string {
  const text = neutraliseFormula(value === null || value === undefined ? '' : String(value));
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvRow(input: string, result: VerifyResult): string {
  const row = {
    input,
    ...result,
    dnc: dncCell(result),
    dnc_sources: result.dnc_sources.join(';'),
    dnc_lists_checked: result.dnc_lists_checked.join(';'),
    timezones: result.timezones.join(';'),
    lists: listsCell(result),
  };
  return `${CSV_COLUMNS.map((column) => csvCell(row[column])).join(',')}\n`;
}

/** The Reassigned cell, when a consent date was asked: yes, no, or no data (never read as no). */
function reassignedWord(result: VerifyResult): string {
  if (result.reassigned === undefined || result.reassigned === null) return 'no data';
  return result.reassigned ? 'yes' : 'no';
}

/** With `--consent-date`, every format gets the reassigned answer after its own columns. */
function withReassigned(inner: Printer, format: Format, io: CliIO): Printer {
  const write = (text: string) => io.stdout.write(text);
  switch (format) {
    case 'json':
      return inner;
    case 'csv':
      return {
        answer: (input, result) => {
          const row = csvRow(input, result).replace(/\n$/, '');
          write(`${row},${csvCell(result.reassigned)},${csvCell(result.reassigned_source?.as_of)}\n`);
        },
        end: inner.end,
      };
    case 'plain':
      return {
        answer: (_, result) =>
          write(`${[...answerCells(result), reassignedWord(result)].map(oneCell).join('\t')}\n`),
        end: inner.end,
      };
    case 'table': {
      const rows: string[][] = [];
      return {
        answer: (_, result) => rows.push([...answerCells(result), reassignedWord(result)]),
        async end() {
          if (rows.length === 0) return;
          write(`${await renderTable([...TABLE_HEAD, 'Reassigned'], rows, useColor(io))}\n`);
        },
      };
    }
  }
}

/** Streams answers as they come, except the table, which needs every row to size its columns. */
interface Printer {
  answer(input: string, result: VerifyResult): void;
  end(): Promise<void>;
}

function printer(format: Format, io: CliIO, reassigned = false): Printer {
  const write = (text: string) => io.stdout.write(text);
  switch (format) {
    case 'json':
      return {
        answer: (input, result) => write(`${JSON.stringify({ input, ...result })}\n`),
        end: async () => {},
      };
    case 'csv':
      write(`${[...CSV_COLUMNS, ...(reassigned ? ['reassigned', 'reassigned_as_of'] : [])].join(',')}\n`);
      return { answer: (input, result) => write(csvRow(input, result)), end: async () => {} };
    case 'plain':
      return {
        // An input that is not a number is echoed back: its tabs must not shift the columns.
        answer: (_, result) => write(`${answerCells(result).map(oneCell).join('\t')}\n`),
        end: async () => {},
      };
    case 'table': {
      const rows: string[][] = [];
      return {
        answer: (_, result) => rows.push(answerCells(result)),
        async end() {
          if (rows.length === 0) return;
          write(`${await renderTable(TABLE_HEAD, rows, useColor(io))}\n`);
        },
      };
    }
  }
}

/**
 * "Checked 1,200 numbers" on stderr, for a person at a terminal who would otherwise see nothing
 * (the table waits for the last answer; data piped elsewhere shows nowhere). Quiet for quick runs.
 */
function progress(io: CliIO, format: Format) {
  const shown = io.stderr.isTTY === true && (format === 'table' || io.stdout.isTTY !== true);
  const started = Date.now();
  let lastShown = 0;
  let visible = false;
  return {
    tick(count: number) {
      const now = Date.now();
      if (!shown || now - started < 250 || now - lastShown < 100) return;
      lastShown = now;
      visible = true;
      io.stderr.write(`\rChecked ${count.toLocaleString('en-US')} numbers…`);
    },
    clear() {
      if (visible) io.stderr.write('\r\u001b[K');
      visible = false;
    },
  };
}

function matches(result: VerifyResult, conditions: FailOnCondition[]): boolean {
  return conditions.some((condition) =>
    condition === 'dnc'
      ? result.dnc === 1
      : condition === 'unchecked'
        ? isUnchecked(result)
        : result.line_type === condition,
  );
}

/** The numbers on the command line, or with `-` one per line from stdin, read as they are checked. */
function numbersFrom(phones: string[], context: Context): Iterable<string> | AsyncIterable<string> {
  if (phones.length === 1 && phones[0] === '-') {
    const { stdin, stderr } = context.io;
    return (async function* () {
      if (stdin.isTTY) stderr.write('Reading numbers from stdin, one per line; end with Ctrl-D.\n');
      for await (const line of readLines(stdin)) {
        const phone = line.trim();
        if (phone) yield phone;
      }
    })();
  }
  if (phones.includes('-')) {
    throw new UsageError('- reads the numbers from stdin, so it comes alone: scrub verify - < numbers.txt');
  }
  return phones;
}

function outputFormat(csv: boolean | undefined, context: Context, json: boolean): Format {
  if (csv && context.options.json) throw new UsageError('--csv and --json cannot be used together');
  if (csv) return 'csv';
  if (json) return 'json';
  return context.io.stdout.isTTY ? 'table' : 'plain';
}

/** One line on stderr per number that could not be checked; the others go on. */
function reportFailure(context: Context, input: string, error: Error & { code?: string }): void {
  const code = error.code ?? 'error';
  context.io.stderr.write(
    context.jsonErrors
      ? `${JSON.stringify({ error: { code, message: error.message }, input })}\n`
      : `error: ${input}: ${error.message}\n`,
  );
}

/**
 * Before any credit is spent: the federal and state lists the checks will consult, with their
 * dates, or that none is loaded. The service's settings (`/config`) say; an older service that
 * does not is passed over in silence, as is one that cannot be reached (the checks will say).
 */
async function sayDncLists(context: Context, scrub: Awaited<ReturnType<typeof requireCredentials>>['scrub']) {
  const lists = await scrub.config().then(
    (config) => config.dnc_lists.lists,
    () => undefined,
  );
  if (lists === undefined) return;
  // The settings name the lists every account shares; the account's own list is checked too.
  const none =
    'No federal or state do-not-call list is loaded on this service: only your own suppression list, if you keep one, is checked, and numbers not on it answer DNC unchecked, never clean.';
  context.io.stderr.write(describeDncLists(lists, lists.length === 0 ? none : null));
}

/**
 * `scrub verify <phone...>` and `scrub verify -`. Every answer is printed before the exit code
 * says anything: 1 when a number could not be checked, else 5 when an answer matched --fail-on.
 * Running out of credits (4) or refused credentials (3) stop the run after the answers so far.
 */
export async function verify(phones: string[], rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(CheckOptionsSchema, rawOptions);
  const format = outputFormat(options.csv, context, (await context.output()) === 'json');
  const numbers = numbersFrom(phones, context);
  const { scrub } = await requireCredentials(context);
  if (!context.jsonErrors) await sayDncLists(context, scrub);

  const asked = options.consentDate !== undefined;
  const out = asked
    ? withReassigned(printer(format, context.io, true), format, context.io)
    : printer(format, context.io);
  const shown = progress(context.io, format);
  let answered = 0;
  let failed = 0;
  let matched = 0;
  let sampleNoted = false;
  let unchecked = 0;
  let finished = false;
  try {
    // Batches of 1,000 (POST /verify), printed as each returns; numbers typed at a terminal one by one.
    const batchSize = phones[0] === '-' && context.io.stdin.isTTY ? 1 : undefined;
    const many = scrub.verify.many(numbers, {
      ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
      ...(options.concurrency === undefined ? {} : { concurrency: options.concurrency }),
      ...(options.lists === undefined ? {} : { lists: options.lists }),
      ...(batchSize === undefined ? {} : { batchSize }),
      ...(options.consentDate === undefined ? {} : { consentDate: options.consentDate }),
    });
    for await (const outcome of many) {
      if (outcome.error) {
        failed++;
        shown.clear();
        reportFailure(context, outcome.input, outcome.error);
      } else {
        const { result } = outcome;
        answered++;
        out.answer(outcome.input, result);
        if (matches(result, options.failOn)) matched++;
        if (isUnchecked(result)) unchecked++;
        if (result.data_source === 'sample' && !sampleNoted) {
          sampleNoted = true;
          shown.clear();
          context.io.stderr.write(
            'Note: these answers come from generated sample data, not imported reference data: their line types are not real.\n',
          );
        }
      }
      shown.tick(answered + failed);
    }
    finished = true;
  } finally {
    shown.clear();
    await out.end();
    if (unchecked > 0) {
      context.io.stderr.write(
        `Note: ${unchecked.toLocaleString('en-US')} ${unchecked === 1 ? 'number was' : 'numbers were'} not checked against any do-not-call list (the service has none loaded that covers ${unchecked === 1 ? 'it' : 'them'}): DNC unchecked, which is not clean.
`,
      );
    }
    if (!finished) {
      context.io.stderr.write(
        `Stopped after ${answered.toLocaleString('en-US')} ${answered === 1 ? 'answer' : 'answers'}: the numbers without one were not checked.\n`,
      );
    }
  }

  const total = answered + failed;
  if (failed > 0) {
    throw new CliError(`${failed} of ${total} numbers could not be checked (see above)`, 1, 'check_failed');
  }
  if (matched > 0) {
    throw new FailOnMatchedError(
      `${matched} of ${total} ${total === 1 ? 'answer' : 'answers'} matched --fail-on ${options.failOn.join(',')}`,
    );
  }
}
