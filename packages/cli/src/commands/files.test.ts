import type { FileView } from '@scrub/sdk';
import { describe, expect, it } from 'vitest';
import { scrub, tempConfigDir } from '../../test/harness.js';
import { fileCells } from '../actions/files.js';

const file: FileView = {
  file_reference: 'Kq3vX0m1yJ8aT2pQ7rL4sN6uW9zB5cDe',
  file_name: 'leads.csv',
  file_url: null,
  last_updated: '2026-03-01T14:06:00.000Z',
  created_at: '2026-03-01T14:05:00.000Z',
  status: 'processing',
  total_records: 12_000,
  processed_rows: 4_500,
  duplicates: 0,
  credits_reversed: 0,
  credits_charged: 12_000,
  file_method: 'api',
  uploaded_file: null,
  line_types: {},
  dnc_status: {},
  file_message: null,
  error: null,
  part_url: null,
  expires_at: '2026-05-30T14:05:00.000Z',
};

describe('fileCells', () => {
  it("shows a running job's rows done, and what a finished one gave back", () => {
    expect(fileCells(file)).toEqual([
      'leads.csv',
      expect.stringMatching(/^2026-03-0[12] \d\d:\d5$/),
      'processing',
      '4,500 of 12,000',
      '0',
      '12,000',
      'Kq3vX0m1yJ8aT2pQ7rL4sN6uW9zB5cDe',
      '2026-05-30',
    ]);
    const failed = { ...file, status: 'failed', credits_charged: 0, credits_reversed: 12_000 } as const;
    expect(fileCells(failed).slice(2, 6)).toEqual(['failed', '12,000', '0', '0 (12,000 given back)']);
    const cut = {
      ...file,
      status: 'failed',
      part_url: 'http://x/files/f/result',
      credits_charged: 300,
    } as const;
    expect(fileCells(cut)[2]).toBe('failed, part kept');
    const removed = { ...file, expires_at: null, removed_at: '2026-04-01T00:00:00.000Z' } as const;
    expect(fileCells(removed)[7]).toBe('deleted 2026-04-01');
  });
});

describe('scrub files: usage', () => {
  const env = {
    SCRUB_CONFIG_DIR: tempConfigDir(),
    SCRUB_API_KEY: 'scrub_unused',
    SCRUB_API_URL: 'http://127.0.0.1:9',
  };

  it.each([
    [['--all', '--page', '2'], '--all lists every page: leave out --page'],
    [['--limit', '101'], '--limit must be a whole number from 1 to 100'],
    [['--page', '0'], '--page must be a whole number from 1'],
    [['--page', 'two'], '--page must be a whole number from 1'],
  ])('refuses %j with exit 2', async (options, message) => {
    const result = await scrub(['files', ...options], env);

    expect(result.stderr).toContain(message);
    expect(result.code).toBe(2);
  });
});
