import { openAsBlob } from 'node:fs';
import { OUTPUT_COLUMNS } from '@scrub/contract';
import { CsvError, type CsvPreview, previewCsvFile } from '@scrub/engine/preview';
import type { BulkJob, ResumableUpload, Scrub } from '@scrub/sdk';
import { z } from 'zod';
import { confirmBulkCharge } from '../bulk-quote.js';
import { streamBulk } from '../bulk-stream.js';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { saveDownload } from '../download.js';
import { CliError, FailOnMatchedError, OutOfCreditsError, UsageError } from '../errors.js';
import { FailOnSchema, matchedJobCounts } from '../fail-on.js';
import { fileNameOption } from '../file-name-option.js';
import { printJob, waitForJob } from '../job-output.js';
import { type LocalCsv, localCsv } from '../local-csv.js';
import { bar, formatBytes, progressLine } from '../progress-line.js';
import {
  downloadFilters,
  filtersGiven,
  noteUncheckedCleanFilter,
  ResultFilterOptionsSchema,
} from '../result-filters.js';
import { renderTable } from '../table.js';
import { type PendingUpload, UploadState } from '../upload-state.js';
import { parseInput } from '../validate.js';

/** The dashboard's preview shows the header and the first 10 records. */
const PREVIEW_RECORDS = 10;
const PREVIEW_CELL_CHARS = 24;

const BulkOptionsSchema = ResultFilterOptionsSchema.extend({
  phoneCol: z.string().trim().min(1, '--phone-col needs a column name or number').optional(),
  header: z.boolean().default(true),
  consentCol: z.string().trim().min(1, '--consent-col needs a column name or number').optional(),
  map: z.array(z.string()).default([]),
  mappedHeaders: z.boolean().optional(),
  columns: z
    .string()
    .transform((text) =>
      text
        .split(',')
        .map((column) => column.trim())
        .filter((column) => column !== ''),
    )
    .pipe(
      z.array(
        z.enum(OUTPUT_COLUMNS, {
          error: (issue) =>
            `--columns takes ${OUTPUT_COLUMNS.join(', ')}, comma-separated (got "${String(issue.input)}")`,
        }),
      ),
    )
    .optional(),
  name: fileNameOption,
  wait: z.boolean().optional(),
  yes: z.boolean().optional(),
  failOn: FailOnSchema,
  lists: z.array(z.string()).optional(),
  lookup: z
    .literal('carrier', { error: '--lookup takes carrier (a live carrier lookup of each distinct number)' })
    .optional(),
});
type BulkOptions = z.infer<typeof BulkOptionsSchema>;

type ColumnRef = string | number;

/**
 * A column by its header text, or by its position counted from 1, as people, spreadsheets, `cut`
 * and `awk` count; the API counts from 0. `columns` is how many the file's first row has.
 */
function columnRef(option: string, spec: string, header: boolean, columns: number | undefined): ColumnRef {
  const text = spec.trim();
  if (!/^\d+$/.test(text)) {
    if (header) return text;
    throw new UsageError(
      `${option} "${text}" is a column name, but with --no-header the file has none: give the column's number (1 for the first)`,
    );
  }
  const position = Number(text);
  if (position < 1) throw new UsageError(`${option} counts columns from 1: the first column is 1`);
  if (columns !== undefined && position > columns) {
    throw new UsageError(
      `${option} ${position} is out of range: the file's first row has ${columns} ${columns === 1 ? 'column' : 'columns'}`,
    );
  }
  return position - 1;
}

/** `--consent-col Consent` (or a number): the consent-date column, for the Reassigned result column. */
function consentColOf(options: BulkOptions, columns: number | undefined): { consent_col?: ColumnRef } {
  if (options.consentCol === undefined) return {};
  return { consent_col: columnRef('--consent-col', options.consentCol, options.header, columns) };
}

/** `--map first_name=First --map email=5`: the wizard's optional columns. */
function parseMapping(
  entries: string[],
  header: boolean,
  columns: number | undefined,
  fields: readonly string[],
) {
  const mapping: Record<string, ColumnRef> = {};
  for (const entry of entries) {
    const at = entry.indexOf('=');
    const field = entry.slice(0, at).trim().toLowerCase();
    if (at === -1 || !fields.includes(field)) {
      throw new UsageError(
        `--map takes field=column, the field one of ${fields.join(', ')} (got "${entry}")`,
      );
    }
    mapping[field] = columnRef(`--map ${field}`, entry.slice(at + 1), header, columns);
  }
  return mapping;
}

const clip = (text: string) =>
  text.length > PREVIEW_CELL_CHARS ? `${text.slice(0, PREVIEW_CELL_CHARS - 1)}…` : text;

/**
 * The file's first rows, read from its first 64 kB as the service will read the file (the engine's
 * preview, which the dashboard's wizard shows too), or why the service would refuse it.
 */
async function preview(path: string, header: boolean): Promise<CsvPreview | CsvError> {
  try {
    return await previewCsvFile(await openAsBlob(path), { header, rows: PREVIEW_RECORDS });
  } catch (error) {
    if (error instanceof CsvError) return error;
    throw error;
  }
}

/** The wizard's mapping step at a terminal: the first rows on stderr, then a choice of column. */
async function askPhoneColumn(context: Context, preview: CsvPreview | CsvError): Promise<number> {
  // Nothing to choose from: say why before anything is sent. With --phone-col the service says it.
  if (preview instanceof CsvError) throw new CliError(preview.message, 1, preview.code);
  const names = preview.header ?? Array.from({ length: preview.columns }, (_, i) => `Column ${i + 1}`);
  const records = preview.rows;
  const cells = records.map((record) => names.map((_, i) => clip(record[i] ?? '')));
  context.io.stderr.write(`${await renderTable(names.map(clip), cells, false)}\n`);

  return context.io.prompter.select(
    'Which column holds the phone numbers?',
    names.map((name, i) => {
      const samples = records.map((record) => record[i]?.trim() ?? '').filter((cell) => cell !== '');
      const example = samples.length > 0 ? `  (${samples.slice(0, 2).map(clip).join(' | ')})` : '';
      return { name: `${i + 1}. ${clip(name)}${example}`, value: i };
    }),
  );
}

/** Progress on stderr, for the whole-file and the in-parts upload alike. */
function uploadProgress(line: ReturnType<typeof progressLine>) {
  return (sent: number, total: number | undefined) =>
    line.update(
      total === undefined
        ? `Uploading ${formatBytes(sent)}`
        : `Uploading  ${bar(sent, total)}  ${formatBytes(sent)} of ${formatBytes(total)}`,
      sent === total,
    );
}

const percent = (upload: ResumableUpload) => `${Math.floor((upload.bytes_received / upload.size) * 100)}%`;

/**
 * Sends the file in parts, resuming `pending` when given: after a dropped connection the SDK asks
 * the service what it holds and sends the rest, and the upload's id is kept (`state`) until the
 * job is submitted, so a run killed midway resumes when run again. A service without uploads in
 * parts (404) gets the file whole, as before.
 */
async function upload(
  context: Context,
  scrub: Scrub,
  job: { job_id: string; upload_url: string | null },
  path: string,
  resume: { state: UploadState; key: string; pending: PendingUpload | undefined },
): Promise<void> {
  const { NotFoundError } = await import('@scrub/sdk');
  const { stderr } = context.io;
  const line = progressLine(context.io);
  const onProgress = uploadProgress(line);
  try {
    await scrub.bulk.uploadInParts(job.job_id, path, {
      uploadId: resume.pending?.uploadId,
      onProgress,
      onUpload: (started) => {
        if (started.bytes_received > 0) stderr.write(`Resumed the upload at ${percent(started)}.\n`);
        // Kept at once: a kill from here on resumes. Not kept (a read-only config dir): it starts over.
        resume.state.set(resume.key, { jobId: job.job_id, uploadId: started.upload_id }).catch(() => {});
      },
      onResume: (held) => {
        line.clear();
        stderr.write(`The connection dropped: resumed the upload at ${percent(held)}.\n`);
      },
    });
  } catch (error) {
    if (!(error instanceof NotFoundError) || resume.pending || !job.upload_url) throw error;
    await scrub.bulk.upload(job.upload_url, path, { onProgress });
  } finally {
    line.clear();
  }
}

/** The unfinished upload of this same file and settings, if a run was killed midway and its job still waits. */
async function pendingUpload(
  scrub: Scrub,
  state: UploadState,
  key: string,
): Promise<{ pending: PendingUpload; job: BulkJob } | undefined> {
  const pending = await state.get(key);
  if (!pending) return undefined;
  try {
    const job = await scrub.bulk.get(pending.jobId);
    if (job.status === 'awaiting_upload') return { pending, job };
  } catch {
    // Gone (expired, or another account's): start over.
  }
  await state.delete(key);
  return undefined;
}

/** The credit check of the wizard's last step, with its dialog's words (`OutOfCreditsError`). */
async function submit(scrub: Scrub, jobId: string): Promise<BulkJob> {
  const { InsufficientCreditsError } = await import('@scrub/sdk');
  try {
    return await scrub.bulk.submit(jobId);
  } catch (error) {
    if (
      error instanceof InsufficientCreditsError &&
      error.creditsRequired !== undefined &&
      error.creditsAvailable !== undefined
    ) {
      throw new OutOfCreditsError(
        `You need ${error.creditsRequired.toLocaleString('en-US')} credits but only have ${error.creditsAvailable.toLocaleString('en-US')}.`,
      );
    }
    throw error;
  }
}

/** Options that only make sense in some combinations, refused before anything is read or sent. */
function checkUsage(file: string, options: BulkOptions, context: Context): void {
  if (!options.wait && (options.output !== undefined || filtersGiven(options))) {
    throw new UsageError(
      '-o, --line-type, --dnc and --callable-now apply to the result: add --wait, or download it later with scrub export <reference>',
    );
  }
  if (
    options.callableNow !== undefined &&
    options.callableNow !== 'all' &&
    !options.columns?.includes('callable_now')
  ) {
    throw new UsageError('--callable-now filters on the Callable Now column: add --columns callable_now');
  }
  if (!options.wait && options.failOn.length > 0) {
    throw new UsageError('--fail-on reads the finished job: add --wait');
  }
  if (file === '-' && context.io.stdin.isTTY) {
    throw new UsageError(
      'scrub bulk - reads the CSV from a pipe: cat leads.csv | scrub bulk - --phone-col Phone',
    );
  }
  if (options.phoneCol === undefined && (file === '-' || !context.canPrompt)) {
    const why =
      file === '-'
        ? 'the CSV comes on stdin'
        : context.options.input === false
          ? '--no-input was given'
          : 'stdin is not a terminal';
    throw new UsageError(
      `Pass --phone-col with the phone column's header text or number (1 for the first column): ${why}, so scrub cannot ask`,
    );
  }
}

/**
 * Whether the job can go by the streaming route: waiting for a result, asking nothing first (a
 * terminal shows the cost and asks, from a quote of the uploaded file), the whole result wanted
 * (filters apply to a download) and no --map (the streaming route takes no mapping).
 */
function streams(options: BulkOptions, context: Context): boolean {
  return (
    options.wait === true &&
    options.phoneCol !== undefined &&
    (options.yes === true || !context.canPrompt) &&
    !filtersGiven(options) &&
    options.map.length === 0 &&
    options.mappedHeaders !== true &&
    // A streamed file is scrubbed as it arrives, before its numbers could be looked up.
    options.lookup === undefined
  );
}

/** After the result: the job on stdout when the result went to a file, then --fail-on. */
async function finish(context: Context, options: BulkOptions, done: BulkJob): Promise<void> {
  if (options.output !== undefined) await printJob(context, done);
  const matched = matchedJobCounts(done, options.failOn);
  if (matched.length > 0) {
    throw new FailOnMatchedError(`Rows matched --fail-on ${options.failOn.join(',')}: ${matched.join(', ')}`);
  }
}

/**
 * `scrub bulk <file|->`: creates a job, uploads the CSV, submits it (charging one credit per unique
 * number) and prints the job; with --wait, waits and prints the result CSV (every input row, plus
 * `Line Type` and `DNC`) to stdout or -o FILE, where stdout then gets the job; then exits 5 when
 * the job counted a row of a --fail-on condition. With --wait and nothing to ask, the file is
 * streamed (`scrub.bulk.stream`): result rows come out while it is still being sent.
 */
export async function bulk(file: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(BulkOptionsSchema, rawOptions);
  checkUsage(file, options, context);
  if (options.mappedHeaders && options.map.length === 0)
    throw new UsageError('--mapped-headers names the columns given with --map: give --map too');
  const { scrub } = await requireCredentials(context);

  let csv: LocalCsv | null = null;
  try {
    if (streams(options, context)) {
      csv = file === '-' ? null : await localCsv(file, context);
      const streamed = await streamBulk(
        context,
        scrub,
        csv?.path ?? '-',
        {
          file_name: options.name ?? csv?.name ?? 'stdin.csv',
          phone_col: columnRef('--phone-col', options.phoneCol!, options.header, undefined),
          header_row: options.header ? 1 : 0,
          ...(options.columns === undefined ? {} : { columns: options.columns }),
          ...(options.lists === undefined ? {} : { lists: options.lists }),
          ...consentColOf(options, undefined),
        },
        options.output,
      );
      if ('job' in streamed) return await finish(context, options, streamed.job);
      // A service without the streaming route: the same file as a queued job.
      csv ??= streamed.fallback;
    }
    csv ??= await localCsv(file, context);
    await queued(context, scrub, csv, options);
  } finally {
    await csv?.remove();
  }
}

/** The queued job: create, upload, submit, and with --wait the result once it has ended. */
async function queued(context: Context, scrub: Scrub, csv: LocalCsv, options: BulkOptions): Promise<void> {
  const { mappableFields } = await import('@scrub/sdk');
  const shown = await preview(csv.path, options.header);
  const columns = shown instanceof CsvError ? undefined : shown.columns;
  const phoneCol =
    options.phoneCol === undefined
      ? await askPhoneColumn(context, shown)
      : columnRef('--phone-col', options.phoneCol, options.header, columns);
  const settings = {
    file_name: options.name ?? csv.name,
    phone_col: phoneCol,
    header_row: options.header ? (1 as const) : (0 as const),
    mapping: parseMapping(options.map, options.header, columns, mappableFields),
    ...(options.columns === undefined ? {} : { columns: options.columns }),
    ...(options.lists === undefined ? {} : { lists: options.lists }),
    ...consentColOf(options, columns),
    ...(options.lookup === undefined ? {} : { lookup: options.lookup }),
    ...(options.mappedHeaders ? { mapped_headers: true } : {}),
  };
  const state = new UploadState((await context.store()).path);
  const key = await UploadState.keyOf(csv.path, `${scrub.baseURL} ${await context.profileName()}`, settings);
  const found = await pendingUpload(scrub, state, key);
  const job = found ? { ...found.job, upload_url: null } : await scrub.bulk.create(settings);
  await upload(context, scrub, job, csv.path, { state, key, pending: found?.pending });
  await confirmBulkCharge(context, scrub, job, options.yes);
  const submitted = await submit(scrub, job.job_id);
  await state.delete(key);
  const { stderr } = context.io;

  if (!options.wait) {
    await printJob(context, submitted);
    if (stderr.isTTY) stderr.write(`Follow it with: scrub jobs wait ${submitted.job_id}\n`);
    return;
  }
  // Stopping the wait does not stop the job: say how to pick it up again.
  if (stderr.isTTY) stderr.write(`Job ${submitted.job_id} queued (Ctrl-C stops waiting, not the job).\n`);
  const done = await waitForJob(context, scrub, submitted.job_id);
  const result = await scrub.files.download(done.file_reference, downloadFilters(options));
  await saveDownload(context.io, result, options.output);
  await noteUncheckedCleanFilter(context.io, scrub, done.file_reference, options.dnc);
  await finish(context, options, done);
}
