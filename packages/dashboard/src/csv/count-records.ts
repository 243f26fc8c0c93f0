/**
 * Counts the file's records by streaming it once (never held whole): record ends outside quotes,
 * blank lines left out. For the quote "Found N phone numbers" before anything is uploaded.
 */
export async function countRecords(file: Blob, signal?: AbortSignal): Promise<number> {
  const QUOTE = 0x22;
  const NEWLINE = 0x0a;
  const CR = 0x0d;
  let records = 0;
  let quoted = false;
  let lineHasContent = false;
  const reader = file.stream().getReader();
  for (;;) {
    if (signal?.aborted) {
      await reader.cancel();
      throw new DOMException('Counting was cancelled', 'AbortError');
    }
    const { done, value } = await reader.read();
    if (done) break;
    for (const byte of value) {
      if (byte === QUOTE) {
        quoted = !quoted;
        lineHasContent = true;
      } else if (byte === NEWLINE && !quoted) {
        if (lineHasContent) records++;
        lineHasContent = false;
      } else if (byte !== CR && byte !== 0x20 && byte !== 0x09 && byte !== 0x2c && byte !== 0x3b) {
        lineHasContent = true;
      }
    }
  }
  if (lineHasContent) records++;
  return records;
}
