import { describe, expect, it } from 'vitest';
import { jsonDepth, MAX_JSON_DEPTH } from './json-body.js';

describe('JSON nesting depth', () => {
  it.each([
    ['{}', 1],
    ['[]', 1],
    ['1', 0],
    ['{"a":[1,{"b":2}]}', 3],
    ['{"a":"[[[[{{{{"}', 1],
    ['{"a":"\\"[[["}', 1],
    ['[[],[],[[]]]', 3],
  ])('of %s is %i', (text, depth) => {
    expect(jsonDepth(text)).toBe(depth);
  });

  it('is counted without recursion however deep the body is, and stops past the limit', () => {
    const deep = `${'['.repeat(1_000_000)}${']'.repeat(1_000_000)}`;
    expect(jsonDepth(deep)).toBe(MAX_JSON_DEPTH + 1);
    expect(jsonDepth(deep, 2_000_000)).toBe(1_000_000);
  });
});
