import { Readable } from 'node:stream';
import {
  type MappableField,
  mappableFields,
  messages,
  type ResultRow,
  type ResultRowsPage,
  type ResultRowsQuery,
} from '@scrub/contract';
import {
  DNC_COLUMN,
  findColumnByName,
  indexResultCsv,
  LINE_TYPE_COLUMN,
  RESULT_LINE_TYPE_CODES,
  type ResultIndex,
  readResultRows,
} from '@scrub/engine';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ApiError } from '../errors/api-error.js';
import type { JobRow } from './job-store.js';

/** Rows between two offsets of a result's page index: a page is one ranged read of at most a few blocks. */
export const ROWS_PER_BLOCK = 100;
/** Blocks read at once while a search reads the whole result (about 100,000 rows). */
const SEARCH_BLOCKS = 1000;
/** Indexes kept in memory: the results being reviewed right now. */
const CACHED_INDEXES = 16;

/** Where a result's page index is stored: beside the result, under the same random name. */
export const resultIndexKey = (resultKey: string) => `${resultKey}.rows.json`;

async function bytesOf(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

/** A column of the job (header text or position) in the result's header; null when it has none. */
function columnIn(header: string[], column: string | number | undefined): number | null {
  if (column === undefined) return null;
  const at = typeof column === 'number' ? column : findColumnByName(header, column);
  return at >= 0 && at < header.length ? at : null;
}

/** The rows a query's line type and DNC filters keep, by the index's one character a row; null: all. */
function filterCodes(query: ResultRowsQuery): { lineTypes: Set<string> | null; dnc: string | null } {
  const types = (query.line_type ?? '').split(',').filter((type) => type !== '');
  const lineTypes =
    types.length === 0 || types.includes('all')
      ? null
      : new Set(types.map((type) => RESULT_LINE_TYPE_CODES[type] ?? '').filter((code) => code !== ''));
  return { lineTypes, dnc: query.dnc === undefined || query.dnc === 'all' ? null : query.dnc };
}

/**
 * Pages of a job's result for review, read from the stored result through its page index: the
 * index is made once, the first time the result is reviewed (a pass over the file), stored beside
 * it and kept in memory; every page after is one ranged read, whatever the result's size.
 */
export class ResultRows {
  readonly #indexes = new Map<string, Promise<ResultIndex>>();

  constructor(private readonly files: BlobStore) {}

  /** The result's page index: from memory, from the store, or made now and stored. */
  index(resultKey: string): Promise<ResultIndex> {
    let index = this.#indexes.get(resultKey);
    if (index === undefined) {
      index = this.#load(resultKey);
      index.catch(() => this.#indexes.delete(resultKey));
      if (this.#indexes.size >= CACHED_INDEXES) this.#indexes.delete(this.#indexes.keys().next().value!);
    } else {
      this.#indexes.delete(resultKey);
    }
    this.#indexes.set(resultKey, index);
    return index;
  }

  async #load(resultKey: string): Promise<ResultIndex> {
    const stored = await this.files.read(resultIndexKey(resultKey));
    if (stored !== null) {
      const index = JSON.parse((await bytesOf(stored)).toString('utf8')) as ResultIndex;
      if (index.version === 1) return index;
    }
    const result = await this.files.read(resultKey);
    if (result === null) throw new ApiError('file_not_found', messages.noFileFound);
    const index = await indexResultCsv(result, { every: ROWS_PER_BLOCK });
    await this.files.write(
      resultIndexKey(resultKey),
      Readable.from([Buffer.from(JSON.stringify(index))]),
      'application/json',
    );
    return index;
  }

  /** Blocks `from` to `to` (excluded) of the result, as rows. */
  async #blocks(resultKey: string, index: ResultIndex, from: number, to: number): Promise<string[][]> {
    const start = index.offsets[from]!;
    const end = index.offsets[Math.min(to, index.offsets.length - 1)]!;
    if (end <= start) return [];
    const stream = await this.files.read(resultKey, { start, end: end - 1 });
    if (stream === null) throw new ApiError('file_not_found', messages.noFileFound);
    return readResultRows(await bytesOf(stream), index);
  }

  /** The rows numbered `wanted` (0-based, ascending), read block by block, neighbouring blocks at once. */
  async #rowsAt(resultKey: string, index: ResultIndex, wanted: number[]): Promise<ResultRow[]> {
    const rows: ResultRow[] = [];
    let i = 0;
    while (i < wanted.length) {
      const first = Math.floor(wanted[i]! / index.every);
      let last = first;
      let j = i;
      while (j < wanted.length && Math.floor(wanted[j]! / index.every) <= last + 1) {
        last = Math.floor(wanted[j]! / index.every);
        j++;
      }
      const read = await this.#blocks(resultKey, index, first, last + 1);
      for (const n of wanted.slice(i, j))
        rows.push({ row: n + 1, cells: read[n - first * index.every] ?? [] });
      i = j;
    }
    return rows;
  }

  /**
   * The data rows whose phone or mapped cells hold `search` (any case), and that `keep` keeps. A
   * search with no letter is also a number: its digits are looked for in the phone column's.
   */
  async #search(
    resultKey: string,
    index: ResultIndex,
    search: string,
    columns: { phone: number | null; others: number[] },
    keep: (n: number) => boolean,
  ): Promise<number[]> {
    const text = search.toLowerCase();
    const digits = /[a-z]/i.test(search) ? '' : search.replace(/\D/g, '');
    const cellsOf = [columns.phone, ...columns.others].filter((column) => column !== null);
    const matches = (cells: string[]) =>
      cellsOf.some((column) => (cells[column] ?? '').toLowerCase().includes(text)) ||
      (digits !== '' &&
        columns.phone !== null &&
        (cells[columns.phone] ?? '').replace(/\D/g, '').includes(digits));
    const found: number[] = [];
    const blocks = index.offsets.length - 1;
    for (let from = 0; from < blocks; from += SEARCH_BLOCKS) {
      const rows = await this.#blocks(resultKey, index, from, from + SEARCH_BLOCKS);
      rows.forEach((cells, k) => {
        const n = from * index.every + k;
        if (keep(n) && matches(cells)) found.push(n);
      });
    }
    return found;
  }

  /** A page of the job's result, filtered as the query asks. */
  async page(job: JobRow, query: ResultRowsQuery): Promise<ResultRowsPage> {
    if (job.result_key === null) throw new ApiError('results_not_ready', messages.resultsNotReady);
    const index = await this.index(job.result_key);
    const { header } = index;
    const mapping = job.file_method === 'api' ? (job.mapping as Record<string, string | number>) : {};
    const mapped: Partial<Record<MappableField, number>> = {};
    for (const field of mappableFields) {
      const at = columnIn(header, mapping[field]);
      if (at !== null) mapped[field] = at;
    }
    const phoneColumn = columnIn(header, job.phone_col);
    const { lineTypes, dnc } = filterCodes(query);
    const keep = (n: number) =>
      (lineTypes === null || lineTypes.has(index.lineTypes[n]!)) && (dnc === null || index.dnc[n] === dnc);
    const start = (query.page - 1) * query.per_page;
    let total: number;
    let wanted: number[];
    if (query.search !== undefined && query.search !== '') {
      const columns = { phone: phoneColumn, others: Object.values(mapped) };
      const found = await this.#search(job.result_key, index, query.search, columns, keep);
      total = found.length;
      wanted = found.slice(start, start + query.per_page);
    } else if (lineTypes === null && dnc === null) {
      total = index.rows;
      wanted = Array.from(
        { length: Math.max(0, Math.min(query.per_page, total - start)) },
        (_, k) => start + k,
      );
    } else {
      const found: number[] = [];
      total = 0;
      for (let n = 0; n < index.rows; n++) {
        if (!keep(n)) continue;
        if (total >= start && found.length < query.per_page) found.push(n);
        total++;
      }
      wanted = found;
    }
    return {
      file_reference: job.file_reference,
      columns: header,
      phone_column: phoneColumn,
      line_type_column: columnIn(header, findColumnByName(header, LINE_TYPE_COLUMN, { last: true })),
      dnc_column: columnIn(header, findColumnByName(header, DNC_COLUMN, { last: true })),
      mapped,
      rows: await this.#rowsAt(job.result_key, index, wanted),
      page: query.page,
      per_page: query.per_page,
      total_pages: Math.max(1, Math.ceil(total / query.per_page)),
      total_rows: total,
    };
  }
}
