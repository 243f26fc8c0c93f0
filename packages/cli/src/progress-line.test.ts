import { Readable } from 'node:stream';
import { describe, expect, it } from 'vitest';
import { refusingPrompter } from '../test/harness.js';
import type { CliIO } from './io.js';
import { bar, formatBytes, progressLine } from './progress-line.js';

function io(isTTY: boolean): { io: CliIO; stderr: () => string } {
  let stderr = '';
  return {
    io: {
      stdout: { write: () => true },
      stderr: { write: (chunk: string) => (stderr += chunk), isTTY },
      stdin: Readable.from([]),
      env: {},
      prompter: refusingPrompter,
    },
    stderr: () => stderr,
  };
}

describe('progress', () => {
  it('draws a bar of 24 cells with the percentage done', () => {
    expect(bar(0, 200)).toBe(`[${'░'.repeat(24)}]   0%`);
    expect(bar(50, 200)).toBe(`[${'█'.repeat(6)}${'░'.repeat(18)}]  25%`);
    expect(bar(200, 200)).toBe(`[${'█'.repeat(24)}] 100%`);
    expect(bar(5, 0)).toBe(`[${'░'.repeat(24)}]   0%`);
  });

  it('writes sizes in decimal units', () => {
    expect([999, 1_234, 70_000_000, 2_147_483_648].map(formatBytes)).toEqual([
      '999 B',
      '1.2 kB',
      '70.0 MB',
      '2.1 GB',
    ]);
  });

  it('redraws one line on a terminal and clears it at the end', () => {
    const terminal = io(true);
    const line = progressLine(terminal.io);

    line.update('Uploading 1%');
    line.update('Uploading 2%');
    line.update('Uploading 100%', true);
    line.clear();

    expect(terminal.stderr()).toBe('\r\u001b[KUploading 1%\r\u001b[KUploading 100%\r\u001b[K');
  });

  it('shows nothing off a terminal', () => {
    const pipe = io(false);
    const line = progressLine(pipe.io);

    line.update('Uploading 100%', true);
    line.clear();

    expect(pipe.stderr()).toBe('');
  });
});
