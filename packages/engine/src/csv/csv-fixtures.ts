// Shared by the CSV tests: a sink that collects what is written, and small line-type data.
import { Writable } from 'node:stream';
import { ClassCode, type ExchangeData } from '../classify.ts';

/** A Writable that keeps every byte written to it. */
export function collector(): Writable & { bytes(): Buffer; text(): string } {
  const chunks: Buffer[] = [];
  const sink = new Writable({
    write(chunk: Buffer, _encoding, callback) {
      chunks.push(chunk);
      callback();
    },
  });
  return Object.assign(sink, {
    bytes: () => Buffer.concat(chunks),
    text: () => Buffer.concat(chunks).toString('utf8'),
  });
}

/** Exchange 201-234 is mobile, 201-345 landline, 201-456 VoIP; other geographic exchanges unknown. */
export const testExchanges: ExchangeData = {
  version: 'test-exchanges',
  lineTypeCode(number) {
    const exchange = Math.floor(number / 10_000);
    if (exchange === 201_234) return ClassCode.MOBILE;
    if (exchange === 201_345) return ClassCode.LANDLINE;
    if (exchange === 201_456) return ClassCode.VOIP;
    return ClassCode.UNKNOWN_GEOGRAPHIC;
  },
};

/** The bytes split into chunks at the given offsets. */
export function splitAt(bytes: Buffer, offsets: readonly number[]): Buffer[] {
  const chunks: Buffer[] = [];
  let from = 0;
  for (const offset of offsets) {
    chunks.push(bytes.subarray(from, offset));
    from = offset;
  }
  chunks.push(bytes.subarray(from));
  return chunks.filter((chunk) => chunk.length > 0);
}
