import { z } from 'zod';

/**
 * The password rules every form and the identity provider share, as NIST SP 800-63B recommends:
 * a length floor, any Unicode characters, no composition rules. The built-in pool also refuses
 * the most common passwords (a list the server keeps, not shipped to browsers).
 */
export const PASSWORD_MIN_LENGTH = 8;
/** Amazon Cognito's ceiling; it also bounds the hashing work one request can ask for. */
export const PASSWORD_MAX_LENGTH = 256;

export const passwordMessages = {
  tooShort: `Password must be at least ${PASSWORD_MIN_LENGTH} characters`,
  tooLong: `Password must be at most ${PASSWORD_MAX_LENGTH} characters`,
} as const;

/** Characters as a person counts them: an emoji or an accented letter is one, not two UTF-16 units. */
export function passwordLength(password: string): number {
  return [...password.normalize('NFC')].length;
}

/** A new password's length rule; `tooShort` lets a form keep its own wording. */
export function newPasswordSchema(tooShort: string = passwordMessages.tooShort) {
  return z
    .string()
    .refine((password) => passwordLength(password) >= PASSWORD_MIN_LENGTH, tooShort)
    .refine((password) => passwordLength(password) <= PASSWORD_MAX_LENGTH, passwordMessages.tooLong);
}
