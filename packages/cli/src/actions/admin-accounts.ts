import { USER_TYPES } from '@scrub/contract';
import { z } from 'zod';
import type { Context } from '../context.js';
import { requireCredentials } from '../credentials.js';
import { emailFrom, newPasswordFrom, note } from '../input.js';
import { parseInput } from '../validate.js';

const type = z.enum(USER_TYPES, { error: `--type must be one of ${USER_TYPES.join(', ')}` });
const CreateOptionsSchema = z.object({
  email: z.string().optional(),
  type: type.optional(),
  name: z.string().trim().max(100, '--name takes at most 100 characters').optional(),
  agency: z.string().trim().min(1, '--agency cannot be empty').optional(),
  passwordStdin: z.boolean().optional(),
});
const EditOptionsSchema = z.object({
  email: z.string().trim().min(1, '--email cannot be empty').optional(),
  type: type.optional(),
  name: z.string().trim().max(100, '--name takes at most 100 characters').optional(),
  /** An Agency's e-mail or id; false (`--no-agency`) unlinks. */
  agency: z.union([z.string().trim().min(1, '--agency cannot be empty'), z.literal(false)]).optional(),
  passwordStdin: z.boolean().optional(),
});
const PasswordOptionsSchema = z.object({ passwordStdin: z.boolean().optional() });

async function done(context: Context, value: object, message: string): Promise<void> {
  if ((await context.output()) === 'json') context.io.stdout.write(`${JSON.stringify(value)}\n`);
  note(context, message);
}

/** `scrub admin create`: the password is piped or asked twice, never an argument. */
export async function adminCreate(rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(CreateOptionsSchema, rawOptions);
  const email = await emailFrom(options.email, context, 'scrub admin create');
  const password = await newPasswordFrom(options.passwordStdin, context, 'scrub admin create');
  const { scrub } = await requireCredentials(context);
  const user = await scrub.admin.users.create({
    le: email,
    lp: password,
    lp_confirm: password,
    ut: options.type ?? 'user',
    ...(options.name ? { full_name: options.name } : {}),
    ...(options.agency ? { agency: options.agency } : {}),
  });
  await done(
    context,
    user,
    `Account created successfully: ${user.email} (${user.role_name}, id ${user.user_id})`,
  );
}

/** `scrub admin edit <user>`: only what is given changes; no --password-stdin, the password stays. */
export async function adminEdit(user: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(EditOptionsSchema, rawOptions);
  const password = options.passwordStdin
    ? await newPasswordFrom(true, context, 'scrub admin edit')
    : undefined;
  const { scrub } = await requireCredentials(context);
  const answer = await scrub.admin.users.update(user, {
    ...(options.email ? { le: options.email } : {}),
    ...(options.type ? { ut: options.type } : {}),
    ...(options.name !== undefined ? { full_name: options.name } : {}),
    ...(options.agency !== undefined ? { agency: options.agency || null } : {}),
    ...(password ? { lp: password } : {}),
  });
  await done(context, answer, answer.message);
}

/** `scrub admin disable|enable|sign-out <user>`. */
export async function adminSetStatus(
  action: 'disable' | 'enable' | 'sign-out',
  user: string,
  context: Context,
): Promise<void> {
  const { scrub } = await requireCredentials(context);
  const answer = await (action === 'disable'
    ? scrub.admin.users.disable(user)
    : action === 'enable'
      ? scrub.admin.users.enable(user)
      : scrub.admin.users.signOut(user));
  await done(context, answer, answer.message);
}

/** `scrub admin reset-password <user>`. */
export async function adminResetPassword(user: string, rawOptions: unknown, context: Context): Promise<void> {
  const options = parseInput(PasswordOptionsSchema, rawOptions);
  const password = await newPasswordFrom(options.passwordStdin, context, 'scrub admin reset-password');
  const { scrub } = await requireCredentials(context);
  const answer = await scrub.admin.users.resetPassword(user, password);
  await done(context, answer, answer.message);
}
