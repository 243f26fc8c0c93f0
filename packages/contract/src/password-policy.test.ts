import { describe, expect, it } from 'vitest';
import { AdminCreateUserSchema, AdminResetPasswordSchema, adminMessages } from './admin.js';
import { newPasswordSchema, passwordLength } from './password-policy.js';

const messageOf = (result: { success: boolean; error?: { issues: { message: string }[] } }) =>
  result.error?.issues[0]?.message;

describe('password length rule shared by the forms and the provider', () => {
  it('needs 8 characters, counting code points', () => {
    expect(passwordLength('🔑🔑🔑🔑')).toBe(4);
    expect(newPasswordSchema().safeParse('abcdefg').success).toBe(false);
    expect(newPasswordSchema().safeParse('abcdefgh').success).toBe(true);
    expect(messageOf(newPasswordSchema().safeParse('🔑🔑🔑🔑'))).toBe(
      'Password must be at least 8 characters',
    );
  });

  it("the admin screens keep the seed's wording with the length of the policy", () => {
    const reset = AdminResetPasswordSchema.safeParse({ password: 'abcdefg', confirm_password: 'abcdefg' });
    expect(messageOf(reset)).toBe('You have to enter at least 8 characters!');
    expect(messageOf(AdminResetPasswordSchema.safeParse({ password: '', confirm_password: '' }))).toBe(
      adminMessages.passwordBlank,
    );
    const create = AdminCreateUserSchema.safeParse({
      le: 'a@b.co',
      lp: 'abc1234',
      lp_confirm: 'abc1234',
      ut: 'user',
    });
    expect(messageOf(create)).toBe('You have to enter at least 8 characters!');
  });
});
