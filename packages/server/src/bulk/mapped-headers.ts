import { Transform, type TransformCallback } from 'node:stream';
import { MAPPED_FIELD_HEADERS, type MappableField, mappableFields } from '@scrub/contract';
import { findColumnByName, indexResultCsv } from '@scrub/engine';
import type { JobRow } from './job-store.js';

const QUOTE = 0x22;
const CR = 0x0d;
const LF = 0x0a;
const UTF8_BOM = Buffer.from([0xef, 0xbb, 0xbf]);

/** Where the header row's line break starts (outside quotes), and where the next row starts; null: not yet known. */
function headerEnd(buf: Buffer, final: boolean): { end: number; next: number } | null {
  let quoted = false;
  for (let i = 0; i < buf.length; i++) {
    const byte = buf[i];
    if (byte === QUOTE) quoted = !quoted;
    else if (!quoted && (byte === LF || byte === CR)) {
      if (byte === LF) return { end: i, next: i + 1 };
      if (i + 1 < buf.length) return { end: i, next: buf[i + 1] === LF ? i + 2 : i + 1 };
      return final ? { end: i, next: i + 1 } : null;
    }
  }
  return final ? { end: buf.length, next: buf.length } : null;
}

const cellOf = (name: string, separator: string) =>
  name.includes(separator) || /["\r\n]/.test(name) ? `"${name.replaceAll('"', '""')}"` : name;

/** The header row with each mapped column named by its standard header, written as the file writes it. */
async function renamedHeader(job: JobRow, line: Buffer, lineEnding: Buffer): Promise<Buffer> {
  const bom = line.subarray(0, 3).equals(UTF8_BOM);
  const index = await indexResultCsv(Buffer.concat([line, lineEnding]));
  const names = [...index.header];
  const mapping = job.mapping as Partial<Record<MappableField, string | number>>;
  for (const field of mappableFields) {
    const column = mapping[field];
    if (column === undefined) continue;
    const at = typeof column === 'number' ? column : findColumnByName(names, column);
    if (at >= 0 && at < names.length) names[at] = MAPPED_FIELD_HEADERS[field];
  }
  const text = names.map((name) => cellOf(name, index.separator)).join(index.separator);
  return Buffer.concat([bom ? UTF8_BOM : Buffer.alloc(0), Buffer.from(text), lineEnding]);
}

/**
 * For a job that asked `mapped_headers`: a stream between the scrub and the store that rewrites
 * the result's header row, each mapped column named by its standard header (`Email`...), and
 * passes every other byte as it came (copied: the scrub may reuse a chunk once written). Null for
 * any other job: the result is written as it always was.
 */
export function mappedHeaderRenamer(job: JobRow): Transform | null {
  if (!job.mapped_headers) return null;
  const mapping = job.mapping as Record<string, unknown>;
  if (!mappableFields.some((field) => mapping[field] !== undefined)) return null;
  let head: Buffer | null = Buffer.alloc(0);
  const rename = async (stream: Transform, final: boolean) => {
    const found = headerEnd(head!, final);
    if (found === null) return;
    const lineEnding = head!.subarray(found.end, found.next);
    stream.push(await renamedHeader(job, head!.subarray(0, found.end), lineEnding));
    if (found.next < head!.length) stream.push(head!.subarray(found.next));
    head = null;
  };
  return new Transform({
    transform(chunk: Buffer, _encoding, done: TransformCallback) {
      if (head === null) return done(null, Buffer.from(chunk));
      head = Buffer.concat([head, chunk]);
      rename(this, false).then(() => done(), done);
    },
    flush(done: TransformCallback) {
      if (head === null || head.length === 0) return done();
      rename(this, true).then(() => done(), done);
    },
  });
}
