import { randomUUID } from 'node:crypto';
import { finished } from 'node:stream/promises';
import type { FieldIssue } from '@scrub/contract';
import { CsvError, IMPORTED_LINE_TYPES, importScrubbedCsv, type ScrubbedCsvProblem } from '@scrub/engine';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ApiError } from '../errors/api-error.js';
import type { Database } from '../storage/schema.js';
import { completeImportedJob, type JobRow } from './job-store.js';

/** The columns an "Upload Existing Files" job keeps in its mapping. */
export interface ExistingColumns {
  line_type: string | number;
  dnc?: string | number;
}

const rowsText = ({ rows, count }: ScrubbedCsvProblem) =>
  `${rows.length === 1 ? 'row' : 'rows'} ${rows.join(', ')}${count > rows.length ? ` and ${count - rows.length} more` : ''}`;

function describe(problem: ScrubbedCsvProblem): string {
  const value = problem.value === '' ? 'an empty cell' : `"${problem.value}"`;
  if (problem.column === 'row') return `${rowsText(problem)}: ${problem.value}`;
  const what = problem.column === 'line_type' ? 'line type' : 'DNC value';
  return `${value} is not a ${what} (${rowsText(problem)})`;
}

/** A file with unknown values: which values, on which rows, and what is accepted. */
function problemsError(problems: ScrubbedCsvProblem[], problemRows: number): ApiError {
  const issues: FieldIssue[] = problems.map((problem) => ({
    location: 'body',
    path: problem.column === 'line_type' ? 'line_type_col' : problem.column === 'dnc' ? 'dnc_col' : 'file',
    message: describe(problem),
  }));
  const rows = `${problemRows.toLocaleString('en-US')} ${problemRows === 1 ? 'row' : 'rows'}`;
  return new ApiError(
    'validation_failed',
    `Nothing was stored: ${rows} of the file could not be read. ${issues.map((issue) => issue.message).join('; ')}. ` +
      `Line types are ${IMPORTED_LINE_TYPES.join(', ')}; DNC values are 0 (clean) or 1 (DNC).`,
    { issues },
  );
}

function fileError(error: unknown): unknown {
  if (!(error instanceof CsvError)) return error;
  const where = error.line === null ? '' : ` (line ${error.line})`;
  return new ApiError(error.code === 'csv_empty' ? 'csv_empty' : 'bad_request', `${error.message}${where}`);
}

/**
 * Checks every row of a job's uploaded, already-scrubbed file, then stores it as the job's result
 * and completes the job, charging nothing. A file with any row it cannot read is refused whole
 * (a 400 naming the values and rows), and nothing of it is stored.
 */
export async function importExistingFile(
  db: Kysely<Database>,
  blobStore: BlobStore,
  job: JobRow,
): Promise<JobRow> {
  const columns = job.mapping as unknown as ExistingColumns;
  const options = { phoneColumn: job.phone_col, lineTypeColumn: columns.line_type, dncColumn: columns.dnc };
  const upload = async () => {
    const stream = await blobStore.read(job.upload_key);
    if (!stream)
      throw new ApiError('conflict', 'The file has not been uploaded yet: PUT it to the upload_url first.');
    return stream;
  };
  try {
    const checked = await importScrubbedCsv(await upload(), null, options);
    if (checked.problems.length > 0) throw problemsError(checked.problems, checked.problemRows);
    // A key of its own: a second submit racing this one never writes over the result that stands.
    const resultKey = `results/${job.file_reference}-import-${randomUUID()}.csv`;
    const output = blobStore.createWriteStream(resultKey, 'text/csv');
    const stored = finished(output);
    const result = await importScrubbedCsv(await upload(), output, options);
    await stored;
    const done = await completeImportedJob(db, job.id, {
      resultKey,
      totalRows: result.rows,
      duplicates: result.duplicates,
      lineTypes: result.lineTypes,
      dncStatus: result.dncStatus,
    });
    if (done) return done;
    // Another submit stored it first: its result stands, this copy goes.
    await blobStore.delete(resultKey).catch(() => undefined);
    return await db.selectFrom('bulk_jobs').selectAll().where('id', '=', job.id).executeTakeFirstOrThrow();
  } catch (error) {
    throw fileError(error);
  }
}
