// Synthetic registry data in the real formats, for tests: no real registry data is ever committed.
import { Readable } from 'node:stream';
import { crc32, deflateRawSync } from 'node:zlib';

/** Numbers as the FTC full list writes them: `AAA,NNNNNNN`, one per line. */
export function fullListText(numbers: readonly number[], lineBreak = '\n'): string {
  return numbers
    .map((number) => `${String(number).slice(0, 3)},${String(number).slice(3)}${lineBreak}`)
    .join('');
}

/** `count` distinct numbers in one exchange (NPA-NXX as 6 digits), spread over its lines. */
export function exchangeNumbers(exchange: number, count: number, stride = 7919): number[] {
  const numbers: number[] = [];
  // A stride prime to 10,000 visits every line once before repeating.
  for (let i = 0; i < count; i++) numbers.push(exchange * 10_000 + ((i * stride) % 10_000));
  return numbers;
}

/** The bytes, in chunks of `size`: lines cut at every place a stream may cut them. */
export function streamOf(text: string | Buffer, size = 1000): Readable {
  const bytes = typeof text === 'string' ? Buffer.from(text) : text;
  const chunks: Buffer[] = [];
  for (let i = 0; i < bytes.length; i += size) chunks.push(bytes.subarray(i, i + size));
  return Readable.from(chunks);
}

export interface ZipEntry {
  name: string;
  text: string | Buffer;
  /** Default `deflate`, as the FTC's downloads are compressed. */
  method?: 'store' | 'deflate';
  /** zlib's compression level, 1-9. */
  level?: number;
}

/** A zip archive (PKWARE APPNOTE: local headers, central directory, end record), written here so tests need no zip tool. */
export function zipOf(entries: readonly ZipEntry[], options: { corruptCrc?: boolean } = {}): Buffer {
  const locals: Buffer[] = [];
  const centrals: Buffer[] = [];
  let offset = 0;
  for (const entry of entries) {
    const data = typeof entry.text === 'string' ? Buffer.from(entry.text) : entry.text;
    const method = entry.method === 'store' ? 0 : 8;
    const stored = method === 0 ? data : deflateRawSync(data, { level: entry.level ?? 6 });
    const crc = (crc32(data) ^ (options.corruptCrc ? 1 : 0)) >>> 0;
    const name = Buffer.from(entry.name);

    const local = Buffer.alloc(30);
    local.writeUInt32LE(0x04034b50, 0);
    local.writeUInt16LE(20, 4);
    local.writeUInt16LE(0x0800, 6);
    local.writeUInt16LE(method, 8);
    local.writeUInt16LE(0, 10);
    local.writeUInt16LE(0x21, 12);
    local.writeUInt32LE(crc, 14);
    local.writeUInt32LE(stored.length, 18);
    local.writeUInt32LE(data.length, 22);
    local.writeUInt16LE(name.length, 26);
    local.writeUInt16LE(0, 28);
    locals.push(local, name, stored);

    const central = Buffer.alloc(46);
    central.writeUInt32LE(0x02014b50, 0);
    central.writeUInt16LE(20, 4);
    central.writeUInt16LE(20, 6);
    central.writeUInt16LE(0x0800, 8);
    central.writeUInt16LE(method, 10);
    central.writeUInt16LE(0, 12);
    central.writeUInt16LE(0x21, 14);
    central.writeUInt32LE(crc, 16);
    central.writeUInt32LE(stored.length, 20);
    central.writeUInt32LE(data.length, 24);
    central.writeUInt16LE(name.length, 28);
    central.writeUInt32LE(offset, 42);
    centrals.push(central, name);
    offset += local.length + name.length + stored.length;
  }
  const directory = Buffer.concat(centrals);
  const end = Buffer.alloc(22);
  end.writeUInt32LE(0x06054b50, 0);
  end.writeUInt16LE(entries.length, 8);
  end.writeUInt16LE(entries.length, 10);
  end.writeUInt32LE(directory.length, 12);
  end.writeUInt32LE(offset, 16);
  return Buffer.concat([...locals, directory, end]);
}
