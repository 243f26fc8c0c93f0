import { describe, expect, it } from 'vitest';
import { detectDialect } from './dialect.ts';

const dialect = (text: string, complete = true) => detectDialect(Buffer.from(text), complete);

describe('detectDialect', () => {
  it.each([
    ['a,b;c;d\n1,2;3;4\n', ';'],
    ['a\tb\tc,d\n', '\t'],
    ['a,b;c\n', ','],
    ['a;b\tc\n', ';'],
    ['phone\n2012345678\n', ','],
    ['"a;b;c",d\n"x;y",z\n', ','],
    ['"say ""a;b;c""",d\n', ','],
  ])('%j: the most frequent outside quotes, ties to comma then semicolon', (text, separator) => {
    expect(dialect(text).separator).toBe(separator);
  });

  it('counts the first 20 lines only', () => {
    const text = `${'a,b\n'.repeat(20)}${'a;b;c;d\n'.repeat(100)}`;
    expect(dialect(text).separator).toBe(',');
  });

  it.each([
    ['a,b\r\nc,d\r\n', true, '\r\n'],
    ['a,b\nc,d\r\n', true, '\n'],
    ['a,b\rc,d\r', true, '\r'],
    ['"two\r\nlines",b\rc,d', true, '\r'],
    ['a,b', true, '\r\n'],
    // A CR last in a head cut short may have its LF in the next chunk.
    ['a,b\r', false, '\r\n'],
    ['a,b\r', true, '\r'],
  ])('%j: the first line break outside quotes', (text, complete, lineEnding) => {
    expect(dialect(text, complete).lineEnding).toBe(lineEnding);
  });
});
