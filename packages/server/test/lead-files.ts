import { areaCodeInfo } from '@scrub/engine';
import { crmLeadLines, mulberry32, usAreaCodes } from '@scrub/test-fixtures';

/** The header and `rows` records of a CRM export. */
export function leadRecords(rows: number, seed = 16): string[] {
  return [...crmLeadLines(rows, { random: mulberry32(seed), areaCodes: usAreaCodes(areaCodeInfo) })];
}

/** A CRM export (25,000 rows make several credit blocks), with a byte-order mark and CRLF; or its first `records`. */
export function leadFile(rows: number, seed = 16, records = rows): Buffer {
  const lines = leadRecords(rows, seed).slice(0, records + 1);
  return Buffer.from(`\uFEFF${lines.join('\r\n')}\r\n`);
}

/** The file in pieces of `rows` lines, `pauseMs` apart: a pipe from a slow producer. */
export function slowly(file: Buffer, rows: number, pauseMs: number): ReadableStream<Uint8Array> {
  const lines = file.toString('utf8').split('\r\n');
  let at = 0;
  return new ReadableStream({
    async pull(controller) {
      if (at >= lines.length) return controller.close();
      if (at > 0) await new Promise((resolve) => setTimeout(resolve, pauseMs));
      const piece = lines.slice(at, at + rows);
      at += rows;
      controller.enqueue(Buffer.from(at >= lines.length ? piece.join('\r\n') : `${piece.join('\r\n')}\r\n`));
    },
  });
}
