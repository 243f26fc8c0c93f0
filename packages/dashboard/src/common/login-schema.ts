import { z } from 'zod';

/**
 * The Login form's rules (seed 1, section 5), apart from the other auth forms' (auth-schemas.ts):
 * they need nothing of the contract or the SDK, so the first screen does not wait for either.
 */
const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[a-zA-Z]{2,}$/;

export const email = (required: string, invalid: string) =>
  z.string().trim().min(1, required).regex(EMAIL_PATTERN, invalid);

export const LoginSchema = z.object({
  email: email('Email is required', 'Invalid email address'),
  password: z.string().min(1, 'Password is required'),
  remember: z.boolean(),
});
export type LoginForm = z.infer<typeof LoginSchema>;

/** The e-mail kept between sign-up and confirmation (seed 1, section 3). */
export const SIGNUP_EMAIL_KEY = 'scrub.signupEmail';
