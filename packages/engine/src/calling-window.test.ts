import { describe, expect, it } from 'vitest';
import { CallingClock, callingWindowOf } from './calling-window.ts';

const at = (iso: string) => new CallingClock(new Date(iso));
const callable = (e164: string, clock: CallingClock) => callingWindowOf(e164, 'mobile', clock).callableNow;

describe('the calling window', () => {
  it('is open from 08:00 up to 20:59 local time, closed at 21:00', () => {
    // New York in July is UTC-4.
    expect(callable('+12125550123', at('2026-07-02T00:59:00Z'))).toBe(true);
    expect(callable('+12125550123', at('2026-07-02T01:00:00Z'))).toBe(false);
    expect(callable('+12125550123', at('2026-07-01T11:59:00Z'))).toBe(false);
    expect(callable('+12125550123', at('2026-07-01T12:00:00Z'))).toBe(true);
  });

  it('gives an area code spanning zones the strictest answer', () => {
    // 219 (Indiana) is Eastern and Central: 08:30 in New York is 07:30 in Chicago.
    const morning = at('2026-07-01T12:30:00Z');
    expect(callingWindowOf('+12195550123', 'landline', morning)).toEqual({
      timeZones: ['America/New_York', 'America/Chicago'],
      callableNow: false,
      reason: null,
    });
    expect(callable('+13175550123', morning)).toBe(true); // 317: Eastern only
    // 21:00 in New York is 20:00 in Chicago: closed in one zone is closed.
    expect(callable('+12195550123', at('2026-07-02T01:00:00Z'))).toBe(false);
    expect(callable('+12195550123', at('2026-07-02T00:30:00Z'))).toBe(true);
  });

  it('follows daylight saving time where it is kept', () => {
    // US DST began 2026-03-08: 12:30 UTC is 07:30 EST the day before and 08:30 EDT that day.
    expect(callable('+12125550123', at('2026-03-07T12:30:00Z'))).toBe(false);
    expect(callable('+12125550123', at('2026-03-08T12:30:00Z'))).toBe(true);
  });

  it('keeps Arizona on standard time all year', () => {
    // 14:30 UTC in July: 07:30 in Phoenix (UTC-7 all year), 08:30 in Denver (MDT).
    const july = at('2026-07-01T14:30:00Z');
    expect(callingWindowOf('+16025550123', 'mobile', july)).toMatchObject({
      timeZones: ['America/Phoenix'],
      callableNow: false,
    });
    expect(callable('+13035550123', july)).toBe(true);
    // In January both are UTC-7: the same answer.
    const january = at('2026-01-15T14:30:00Z');
    expect(callable('+16025550123', january)).toBe(false);
    expect(callable('+13035550123', january)).toBe(false);
  });

  it('answers null with a reason, never true, for what has no local time', () => {
    const clock = at('2026-07-01T16:00:00Z');
    expect(callingWindowOf(null, 'invalid', clock)).toEqual({
      timeZones: [],
      callableNow: null,
      reason: 'The number is invalid: there is no one to call.',
    });
    expect(callingWindowOf('+18005550123', 'toll_free', clock)).toMatchObject({
      timeZones: [],
      callableNow: null,
      reason: expect.stringContaining('Toll-free numbers have no local time zone'),
    });
    expect(callingWindowOf('+15005550123', 'unknown_geographic', clock)).toMatchObject({
      callableNow: null,
      reason: 'Area code 500 is not geographic: it has no local time zone.',
    });
  });
});
