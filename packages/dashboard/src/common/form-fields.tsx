import {
  PasswordInput,
  type PasswordInputProps,
  Textarea,
  type TextareaProps,
  TextInput,
  type TextInputProps,
} from '@mantine/core';
import type { FieldValues, Path, UseFormReturn } from 'react-hook-form';

/**
 * The forms' fields, each tied to one react-hook-form field: its registration, and its rule's
 * message under it. Any other Mantine prop (label, `mt`, `withAsterisk`, ...) passes through.
 */
interface Bound<T extends FieldValues, O> {
  form: UseFormReturn<T, unknown, O>;
  name: Path<T>;
}

function bind<T extends FieldValues, O>({ form, name }: Bound<T, O>) {
  return { error: form.getFieldState(name, form.formState).error?.message, ...form.register(name) };
}

export function FormTextInput<T extends FieldValues, O>({
  form,
  name,
  ...props
}: Bound<T, O> & Omit<TextInputProps, keyof Bound<T, O>>) {
  return <TextInput {...bind({ form, name })} {...props} />;
}

export function FormPasswordInput<T extends FieldValues, O>({
  form,
  name,
  ...props
}: Bound<T, O> & Omit<PasswordInputProps, keyof Bound<T, O>>) {
  return <PasswordInput {...bind({ form, name })} {...props} />;
}

export function FormTextarea<T extends FieldValues, O>({
  form,
  name,
  ...props
}: Bound<T, O> & Omit<TextareaProps, keyof Bound<T, O>>) {
  return <Textarea {...bind({ form, name })} {...props} />;
}

/** A required e-mail field. */
export function EmailField<T extends FieldValues, O>(
  props: Bound<T, O> & Omit<TextInputProps, keyof Bound<T, O>>,
) {
  return <FormTextInput label="Email" type="email" autoComplete="email" withAsterisk {...props} />;
}

/** The props of a field for the 6-digit code the identity pool e-mails. */
export const EMAILED_CODE = { inputMode: 'numeric', autoComplete: 'one-time-code', maxLength: 6 } as const;
