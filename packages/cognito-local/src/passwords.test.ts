import { PASSWORD_MIN_LENGTH, passwordLength } from '@scrub/contract';
import { describe, expect, it } from 'vitest';
import { COMMON_PASSWORDS } from './generated/common-passwords.js';
import { defaultPasswordPolicy, isCommonPassword, passwordProblems } from './passwords.js';

const problems = (password: string) => passwordProblems(password, defaultPasswordPolicy);

describe('the password policy (NIST SP 800-63B)', () => {
  it('needs 8 characters, counted as a person counts them', () => {
    expect(problems('Abc-123')).toEqual(['Password not long enough: use at least 8 characters']);
    // Four emoji are 8 UTF-16 units but 4 characters.
    expect(problems('🔑🔑🔑🔑')).toEqual(['Password not long enough: use at least 8 characters']);
    expect(problems('🔑🔑🔑🔑🔑🔑🔑🔑')).toEqual([]);
  });

  it('has no composition rules: lower case only, spaces inside and any script are fine', () => {
    expect(problems('lamp orbit velvet')).toEqual([]);
    expect(problems('ключ-от-дома')).toEqual([]);
    expect(problems('パスワードは長い')).toEqual([]);
  });

  it('refuses the most common passwords, whatever their case or width', () => {
    expect(problems('password1')).toEqual([
      'Password is too common: it is on a list of the most used passwords, choose another',
    ]);
    expect(isCommonPassword('PassWord1')).toBe(true);
    expect(isCommonPassword('ｐａｓｓｗｏｒｄ')).toBe(true);
    expect(isCommonPassword('iloveyou')).toBe(true);
    expect(isCommonPassword('lamp orbit velvet')).toBe(false);
  });

  it('bundles a few thousand entries, each long enough to pass the length rule on its own', () => {
    const entries = COMMON_PASSWORDS.split(' ');
    expect(entries.length).toBe(5000);
    expect(new Set(entries).size).toBe(entries.length);
    expect(entries.every((entry) => passwordLength(entry) >= PASSWORD_MIN_LENGTH)).toBe(true);
  });

  it('refuses a leading or trailing space, as Cognito does, and more than 256 characters', () => {
    expect(problems(' lamp orbit velvet')).toEqual(['Password must not begin or end with a space']);
    expect(problems('x'.repeat(257))).toEqual(['Password too long: use at most 256 characters']);
  });
});
