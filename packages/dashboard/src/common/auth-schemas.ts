import { newPasswordSchema } from '@scrub/contract';
import { z } from 'zod';
import { email } from './login-schema';

export { type LoginForm, LoginSchema, SIGNUP_EMAIL_KEY } from './login-schema';

/**
 * The auth forms' rules and messages, word for word from seed 1 (section 5). Sign-up and sign-in go
 * to the identity provider, not the API; a new password follows the contract's length rule (8
 * characters, the provider's policy), and the provider names anything else it refuses.
 */

export const SignUpSchema = z.object({
  email: email('Email is required', 'Invalid email address'),
  password: z.string().min(1, 'Password is required').pipe(newPasswordSchema()),
  terms: z.boolean().refine((accepted) => accepted, 'Please Accept Terms of Service'),
});
export type SignUpForm = z.infer<typeof SignUpSchema>;

export const ConfirmCodeSchema = z.object({
  code: z.string().regex(/^[0-9]{6}$/, 'Enter the 6-digit code'),
});
export type ConfirmCodeForm = z.infer<typeof ConfirmCodeSchema>;

export const ForgotSchema = z.object({
  email: email('Email is Required', 'Invalid Email Format'),
});
export type ForgotForm = z.infer<typeof ForgotSchema>;

export const ResetSchema = z
  .object({
    code: z.string().regex(/^[0-9]{6}$/, 'Enter the 6-digit code from the e-mail'),
    password: z.string().min(1, 'Password is Required').pipe(newPasswordSchema()),
    confirm: z.string().min(1, 'Confirm Password is Required'),
  })
  .refine((form) => form.password === form.confirm, {
    path: ['confirm'],
    message: 'Please Make Sure Password and Confirm password Matches',
  });
export type ResetForm = z.infer<typeof ResetSchema>;

/** Account page: the new password must be non-empty once trimmed (seed 1), the current one is needed by the provider. */
export const ChangePasswordSchema = z.object({
  oldPassword: z.string().min(1, 'Password is Required'),
  newPassword: z.string().trim().min(1, 'Password is Required').pipe(newPasswordSchema()),
});
export type ChangePasswordForm = z.infer<typeof ChangePasswordSchema>;
