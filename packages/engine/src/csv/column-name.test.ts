import { describe, expect, it } from 'vitest';
import { findColumnByName } from './column-name.ts';

describe('findColumnByName', () => {
  it('finds a header name trimmed and in any case, the first of several unless asked for the last', () => {
    const names = ['Name', ' PHONE ', 'Line Type', 'line type'];
    expect(findColumnByName(names, 'phone')).toBe(1);
    expect(findColumnByName(names, '  Phone')).toBe(1);
    expect(findColumnByName(names, 'Line Type')).toBe(2);
    expect(findColumnByName(names, 'Line Type', { last: true })).toBe(3);
    expect(findColumnByName(names, 'Tel')).toBe(-1);
  });
});
