import { expect, test } from 'vitest';
import { passEnd } from './plan-credits-card';

test('an unlimited pass shows when it ends, and once over, when it ended', () => {
  const now = new Date(2026, 10, 27, 12, 0);
  expect(passEnd(new Date(2026, 10, 28, 14, 5).toISOString(), now)).toBe(
    'Unlimited until Nov 28, 2026, 2:05 PM',
  );
  expect(passEnd(new Date(2026, 10, 26, 9, 0).toISOString(), now)).toBe('Ended Nov 26, 2026, 9:00 AM');
});
