import type { CliIO } from './io.js';

const BAR_CELLS = 24;
/** Redraws faster than this flicker and cost more than they tell. */
const MIN_REDRAW_MS = 100;

/** `[██████░░░░░░]  45%` */
export function bar(done: number, total: number): string {
  const share = total > 0 ? Math.min(1, done / total) : 0;
  const filled = Math.round(share * BAR_CELLS);
  const percent = `${Math.floor(share * 100)}%`.padStart(4);
  return `[${'█'.repeat(filled)}${'░'.repeat(BAR_CELLS - filled)}] ${percent}`;
}

/** 1,234 bytes as `1.2 kB`, 70,000,000 as `70.0 MB`. */
export function formatBytes(bytes: number): string {
  if (bytes < 1000) return `${bytes} B`;
  const units = ['kB', 'MB', 'GB', 'TB'];
  let value = bytes / 1000;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${value.toFixed(1)} ${units[unit]}`;
}

/**
 * One line of progress on stderr, redrawn in place, for a person at a terminal; off a terminal
 * (a pipe, a CI log) it shows nothing, so logs are not filled with redraws.
 */
export function progressLine(io: CliIO) {
  const shown = io.stderr.isTTY === true;
  let visible = false;
  let lastDrawn = 0;
  return {
    /** `force` draws even right after the last redraw: a new stage, or the last figure. */
    update(text: string, force = false) {
      const now = Date.now();
      if (!shown || (!force && now - lastDrawn < MIN_REDRAW_MS)) return;
      lastDrawn = now;
      visible = true;
      io.stderr.write(`\r\u001b[K${text}`);
    },
    clear() {
      if (visible) io.stderr.write('\r\u001b[K');
      visible = false;
    },
  };
}

export type ProgressLine = ReturnType<typeof progressLine>;
