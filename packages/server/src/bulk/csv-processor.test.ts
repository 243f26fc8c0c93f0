import { createHash } from 'node:crypto';
import { Readable, Writable } from 'node:stream';
import { describe, expect, it, vi } from 'vitest';
import type { BlobStore } from '../blob-store/blob-store.js';
import { ReferenceData } from '../reference-data/reference-data.js';
import { UnprocessableFile } from './bulk-worker.js';
import { CsvJobProcessor } from './csv-processor.js';
import type { JobRow } from './job-store.js';

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

const job = {
  id: 'j',
  profile_id: 'p',
  file_reference: 'ref',
  upload_key: 'uploads/ref.csv',
  phone_col: 'Phone',
  header_row: true,
  attempts: 2,
  consent_col: null,
  record_price: 1,
  lookup: null,
  lookup_price: 0,
} as JobRow;

const bigCsv = () =>
  Readable.from(
    (function* () {
      yield Buffer.from('Name,Phone\n');
      for (let i = 0; i < 2000; i++) yield Buffer.from(`Lead ${i},201${String(2_000_000 + i)}\n`.repeat(50));
    })(),
  );

/** Uploads in parts, which these tests do not make. */
const noPartUploads = {
  startParts: vi.fn(),
  partUploadUrl: vi.fn(),
  listParts: vi.fn(),
  completeParts: vi.fn(),
  abortParts: vi.fn(),
};

/** A store whose writes fail after `failAfter` bytes, as a full disk or a refusing bucket does. */
function store(failAfter: number): BlobStore & { keys: string[] } {
  const keys: string[] = [];
  return {
    keys,
    ...noPartUploads,
    createUploadUrl: vi.fn(),
    stat: vi.fn(),
    delete: vi.fn(),
    probe: async () => true,
    read: async () => bigCsv(),
    write: vi.fn(),
    createWriteStream: (key: string) => {
      keys.push(key);
      let size = 0;
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          size += chunk.length;
          callback(size > failAfter ? new Error('ENOSPC: no space left on device') : null);
        },
      });
    },
  };
}

/** A store holding one small upload, keeping what each result key was written. */
function smallStore(csv: string): BlobStore & { written: Map<string, string> } {
  const written = new Map<string, string>();
  return {
    written,
    ...noPartUploads,
    createUploadUrl: vi.fn(),
    stat: async () => ({ size: Buffer.byteLength(csv) }) as Awaited<ReturnType<BlobStore['stat']>>,
    probe: vi.fn(),
    delete: vi.fn(),
    read: async () => Readable.from([Buffer.from(csv)]),
    write: vi.fn(),
    createWriteStream: (key: string) => {
      let text = '';
      return new Writable({
        write(chunk: Buffer, _encoding, callback) {
          text += chunk.toString();
          written.set(key, text);
          callback();
        },
      });
    },
  };
}

describe('the CSV job processor', () => {
  it('counts and scrubs a small file on the event loop exactly as a thread does', async () => {
    const csv = 'Name,Phone\r\nAnn,(201) 234-5678\r\n=Bob,=1+2\r\nCid,800-555-1234\r\nAnn,2012345678\r\n';
    const outcomes = [];
    for (const [attempt, smallFileBytes] of [
      [1, 0],
      [2, 64 * 1024],
    ] as const) {
      const files = smallStore(csv);
      const processor = new CsvJobProcessor(files, ReferenceData.sample(), [], smallFileBytes);
      expect(await processor.count(job)).toBe(4);
      const outcome = await processor.process(
        { ...job, attempts: attempt },
        () => {},
        new AbortController().signal,
      );
      outcomes.push({ ...outcome, resultKey: undefined, result: files.written.get(outcome.resultKey) });
    }
    expect(outcomes[1]).toEqual(outcomes[0]);
    expect(outcomes[0]).toMatchObject({ totalRows: 4, duplicates: 1 });
    // Formulas neutralised, the phone column as sent: the same rule both ways.
    // Formula cells are neutralised in every column, the phone column included.
    expect(outcomes[0]?.result).toContain("'=Bob,'=1+2,invalid,");
    // Both files hashed as they streamed through, on a thread and on the event loop alike.
    expect(outcomes[0]).toMatchObject({
      uploadSha256: sha256(csv),
      resultSha256: sha256(outcomes[0]?.result ?? ''),
      numbersChecked: 2,
      datasetVersions: { exchange: expect.any(String), nanpa_npa: expect.any(String) },
    });
  });

  it('writes each attempt to a result file of its own, named at random', async () => {
    const files = store(Number.POSITIVE_INFINITY);
    const processor = new CsvJobProcessor(files, ReferenceData.sample());
    const outcome = await processor.process(job, () => {}, new AbortController().signal);
    const again = await processor.process(job, () => {}, new AbortController().signal);
    expect(files.keys).toEqual([outcome.resultKey, again.resultKey]);
    expect(outcome.resultKey).not.toBe(again.resultKey);
    expect(outcome.resultKey).toMatch(/^results\/[0-9a-f]{48}\.csv$/);
    expect(outcome.resultKey).not.toContain(job.file_reference);
    expect(outcome).toMatchObject({
      totalRows: 100_000,
      chargeable: 2000,
      duplicates: 98_000,
    });
  });

  it('stops scrubbing and fails when the result cannot be stored, without an unhandled rejection', async () => {
    const unhandled = vi.fn();
    process.on('unhandledRejection', unhandled);
    try {
      const failing = new CsvJobProcessor(store(64 * 1024), ReferenceData.sample()).process(
        job,
        () => {},
        new AbortController().signal,
      );
      await expect(failing).rejects.toThrow(/ENOSPC/);
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('refuses to scrub while imported reference data cannot be loaded', async () => {
    const referenceData = ReferenceData.sample();
    vi.spyOn(referenceData, 'missing').mockReturnValue(['federal']);
    const refused = new CsvJobProcessor(store(Number.POSITIVE_INFINITY), referenceData).process(
      job,
      () => {},
      new AbortController().signal,
    );
    await expect(refused).rejects.toThrow(UnprocessableFile);
    await expect(refused).rejects.toThrow(/federal could not be loaded/);
  });
});
