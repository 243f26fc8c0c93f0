import type { FileView } from '@scrub/sdk';
import { expect, test } from 'vitest';
import { emptyListText } from './export-page';
import { callingWindow, uploadedAt } from './file-status';

test('a search that matches no file says so, rather than "No files yet"', () => {
  expect(emptyListText('leads')).toBe('No files match "leads". Clear the search to see every file.');
  expect(emptyListText('')).toBe('No files yet. Upload a CSV on the Bulk Upload page.');
});

test('the upload time shows in 12-hour time, in the browser time zone', () => {
  const at = (hours: number, minutes: number) =>
    ({ created_at: new Date(2026, 10, 27, hours, minutes).toISOString() }) as FileView;
  expect(uploadedAt(at(14, 5))).toBe('2026-11-27 2:05 PM');
  expect(uploadedAt(at(0, 30))).toBe('2026-11-27 12:30 AM');
  expect(uploadedAt(at(12, 0))).toBe('2026-11-27 12:00 PM');
});

test('the calling window column says when it was evaluated, or that the file has none', () => {
  const file = (status: FileView['status'], at: string | null) =>
    ({ status, columns_evaluated_at: at }) as FileView;
  const evaluated = new Date(2026, 10, 27, 14, 5).toISOString();
  expect(callingWindow(file('completed', evaluated))).toBe('as of 2026-11-27 2:05 PM');
  expect(callingWindow(file('completed', null))).toBe('Not added');
  expect(callingWindow(file('pending', null))).toBe('Pending');
});
