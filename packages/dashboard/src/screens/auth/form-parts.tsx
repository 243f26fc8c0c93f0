import { Alert, TextInput } from '@mantine/core';
import type { UseFormRegisterReturn } from 'react-hook-form';

/** The auth forms' e-mail field (required), with its rule's message under it. */
export function EmailField({
  registration,
  error,
  placeholder,
}: {
  registration: UseFormRegisterReturn;
  error: string | undefined;
  placeholder?: string;
}) {
  return (
    <TextInput
      label="Email"
      placeholder={placeholder}
      type="email"
      autoComplete="email"
      withAsterisk
      error={error}
      {...registration}
    />
  );
}

/** What the service (or the identity pool) answered when the form's action failed. */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Alert color="red" mt="md" role="alert">
      {error}
    </Alert>
  );
}
