import { spawnSync } from 'node:child_process';
import { createReadStream, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable, Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { DncListBuilder } from '../dnc/builder.ts';
import { DncSet } from '../dnc/set.ts';
import { sampleExchangeTable } from '../exchange/sample.ts';
import { CsvError } from './csv-error.ts';
import { collector } from './csv-fixtures.ts';
import { countCsvInThread, countCsvRowsInThread, scrubCsvInThread, warmThreadId } from './csv-thread.ts';
import { countCsv, countCsvRows, scrubCsv } from './scrub-csv.ts';

const exchange = sampleExchangeTable();
const builder = new DncListBuilder('federal');
builder.add(2012345678);
const dnc = new DncSet([builder.build('v1')]);

// Enough rows for many chunks and many pulls from the thread.
const rows = Array.from(
  { length: 20_000 },
  (_, i) => `Lead ${i},"Street ${i}, Apt 2",(201) ${234 + (i % 700)}-${String(i % 10_000).padStart(4, '0')}`,
);
const file = Buffer.from(
  `Name,Address,Phone\r\n${rows.join('\r\n')}\r\n2012345678\r\n`.replace(
    '\r\n2012345678',
    '\r\nDNC,x,2012345678',
  ),
);
const chunks = () =>
  Readable.from(
    Array.from({ length: Math.ceil(file.length / 4096) }, (_, i) => file.subarray(i * 4096, (i + 1) * 4096)),
  );

describe('scrubbing on a worker thread', () => {
  it('writes the same file and counts as scrubbing in place', async () => {
    const here = collector();
    const there = collector();
    const progress: number[] = [];
    const [expected, actual] = await Promise.all([
      scrubCsv(chunks(), here, { phoneColumn: 'Phone', exchange, dnc }),
      scrubCsvInThread(chunks(), there, {
        phoneColumn: 'Phone',
        exchange,
        dnc,
        onProgress: ({ rows }) => progress.push(rows),
      }),
    ]);
    expect(there.bytes().equals(here.bytes())).toBe(true);
    expect(actual).toEqual(expected);
    expect(actual.dncStatus.dnc).toBe(1);
    expect(progress.length).toBeGreaterThan(1);
    expect(progress.at(-1)).toBe(actual.rows);
  });

  it('cuts the file into parts on threads of its own when asked, with the same file and counts', async () => {
    const here = collector();
    const there = collector();
    const progress: number[] = [];
    const [expected, actual] = await Promise.all([
      scrubCsv(chunks(), here, { phoneColumn: 'Phone', exchange, dnc, columns: ['timezone'] }),
      scrubCsvInThread(chunks(), there, {
        phoneColumn: 'Phone',
        exchange,
        dnc,
        columns: ['timezone'],
        threads: 2,
        onProgress: ({ rows }) => progress.push(rows),
      }),
    ]);
    expect(there.bytes().equals(here.bytes())).toBe(true);
    expect(actual).toEqual(expected);
    expect(progress.at(-1)).toBe(actual.rows);
  });

  it('counts the same as counting in place', async () => {
    expect(await countCsvInThread(chunks(), { phoneColumn: 2, exchange })).toEqual(
      await countCsv(chunks(), { phoneColumn: 2, exchange }),
    );
  });

  it('counts records the same as counting them in place', async () => {
    expect(await countCsvRowsInThread(chunks(), { phoneColumn: 'Phone' })).toEqual(
      await countCsvRows(chunks(), { phoneColumn: 'Phone' }),
    );
  });

  it('scrubs UTF-16 sent in small chunks, the head spread over several, as in place', async () => {
    const utf16 = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from(file.toString('utf8'), 'utf16le')]);
    const small = () =>
      Readable.from(
        Array.from({ length: Math.ceil(utf16.length / 1000) }, (_, i) =>
          utf16.subarray(i * 1000, (i + 1) * 1000),
        ),
      );
    const here = collector();
    const there = collector();
    await scrubCsv(small(), here, { phoneColumn: 'Phone', exchange, dnc });
    await scrubCsvInThread(small(), there, { phoneColumn: 'Phone', exchange, dnc });
    expect(there.bytes().equals(here.bytes())).toBe(true);
  });

  it('frees each piece of the result once written when the output is done with it (releaseWritten)', async () => {
    const here = collector();
    await scrubCsv(chunks(), here, { phoneColumn: 'Phone', exchange, dnc });
    const copies: Buffer[] = [];
    const pieces: Uint8Array[] = [];
    const copying = new Writable({
      write(chunk: Buffer, _encoding, callback) {
        copies.push(Buffer.from(chunk));
        pieces.push(chunk);
        callback();
      },
    });
    await scrubCsvInThread(chunks(), copying, { phoneColumn: 'Phone', exchange, dnc, releaseWritten: true });
    expect(Buffer.concat(copies).equals(here.bytes())).toBe(true);
    expect(pieces.length).toBeGreaterThan(1);
    expect(pieces.every((piece) => piece.byteLength === 0)).toBe(true);

    // Without it, the output may keep what it was given.
    const kept = collector();
    await scrubCsvInThread(chunks(), kept, { phoneColumn: 'Phone', exchange, dnc });
    expect(kept.bytes().equals(here.bytes())).toBe(true);
  });

  it('runs each job on the thread the one before left warm, with the same results; never one that failed', async () => {
    const options = { phoneColumn: 'Phone', exchange, dnc };
    const here = collector();
    const expected = await scrubCsv(chunks(), here, options);
    const first = collector();
    expect(await scrubCsvInThread(chunks(), first, options)).toEqual(expected);
    const thread = warmThreadId();
    expect(thread).not.toBeNull();

    // Another kind of job, then the same again, on that thread: nothing of the job before is left.
    expect(await countCsvRowsInThread(chunks(), { phoneColumn: 'Phone' })).toEqual(
      await countCsvRows(chunks(), { phoneColumn: 'Phone' }),
    );
    expect(warmThreadId()).toBe(thread);
    const second = collector();
    expect(await scrubCsvInThread(chunks(), second, options)).toEqual(expected);
    expect(second.bytes().equals(here.bytes())).toBe(true);
    expect(warmThreadId()).toBe(thread);

    // A refused file stops its thread: the next job starts a new one, with the same result.
    await expect(countCsvInThread(Buffer.from('Name,Tel\r\nAnn,2012345678\r\n'), options)).rejects.toThrow(
      CsvError,
    );
    expect(warmThreadId()).toBeNull();
    const third = collector();
    expect(await scrubCsvInThread(chunks(), third, options)).toEqual(expected);
    expect(third.bytes().equals(here.bytes())).toBe(true);
    expect(warmThreadId()).not.toBe(thread);
  });

  it('refuses a file with the same CsvError, code and line', async () => {
    const error = await countCsvInThread(Buffer.from('Name,Tel\r\nAnn,2012345678\r\n'), {
      phoneColumn: 'Phone',
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(CsvError);
    expect(error).toMatchObject({ code: 'csv_column_not_found' });
    const empty = await countCsvInThread(Buffer.alloc(0), { phoneColumn: 0 }).catch((e: unknown) => e);
    expect(empty).toMatchObject({ code: 'csv_empty', message: 'Csv is empty' });
  });

  it('stops the thread and destroys the output when aborted', async () => {
    const controller = new AbortController();
    const output = collector();
    const destroyed = new Promise((resolve) => output.on('error', resolve));
    const running = scrubCsvInThread(chunks(), output, {
      phoneColumn: 'Phone',
      exchange,
      signal: controller.signal,
      onProgress: () => controller.abort(new Error('stop')),
    });
    await expect(running).rejects.toThrow('stop');
    expect(await destroyed).toMatchObject({ message: 'stop' });
  });

  it('fails, not waits forever, when the output is closed before the end (a store that stops reading)', async () => {
    const stalled = new Writable({ highWaterMark: 1, write() {} });
    const input = chunks();
    const running = scrubCsvInThread(input, stalled, { phoneColumn: 'Phone', exchange });
    setTimeout(() => stalled.destroy(), 200);
    await expect(running).rejects.toThrow('The output was closed before the CSV was written');
    expect(input.destroyed).toBe(true);
  });

  it('closes its input when asked to stop before it starts', async () => {
    const input = chunks();
    const running = countCsvInThread(input, {
      phoneColumn: 'Phone',
      signal: AbortSignal.abort(new Error('no')),
    });
    await expect(running).rejects.toThrow('no');
    expect(input.destroyed).toBe(true);
  });

  it('runs in a process started with V8 flags (which a Worker refuses when given them explicitly)', () => {
    const script = join(mkdtempSync(join(tmpdir(), 'scrub-thread-')), 'count.mjs');
    const module = fileURLToPath(new URL('./csv-thread.ts', import.meta.url));
    writeFileSync(
      script,
      `import { countCsvRowsInThread } from ${JSON.stringify(module)};\n` +
        `const { rows } = await countCsvRowsInThread(Buffer.from('Phone\\n2012345678\\n'), { phoneColumn: 0 });\n` +
        'console.log(rows);\n',
    );
    const runs = [
      ['--max-semi-space-size=1', script],
      ['--expose-gc', '--input-type=module', '-e', `await import(${JSON.stringify(script)})`],
    ];
    for (const flags of runs) {
      const child = spawnSync(process.execPath, flags, { encoding: 'utf8' });
      expect(child.stderr, flags.join(' ')).not.toContain('ERR_WORKER_INVALID_EXEC_ARGV');
      expect(child.stdout.trim(), flags.join(' ')).toBe('1');
    }
  });

  it("moves a file's chunks to the thread, and never takes a buffer the caller still holds", async () => {
    const path = join(mkdtempSync(join(tmpdir(), 'scrub-thread-')), 'leads.csv');
    writeFileSync(path, file);
    const here = collector();
    const there = collector();
    await scrubCsv(chunks(), here, { phoneColumn: 'Phone', exchange, dnc });
    await scrubCsvInThread(createReadStream(path, { highWaterMark: 64 * 1024 }), there, {
      phoneColumn: 'Phone',
      exchange,
      dnc,
    });
    expect(there.bytes().equals(here.bytes())).toBe(true);

    const held = Buffer.from(file);
    await countCsvRowsInThread(Readable.from([held]), { phoneColumn: 'Phone' });
    expect(held.equals(file)).toBe(true);
  });
});
