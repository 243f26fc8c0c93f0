import { Alert } from '@mantine/core';

/** What the service (or the identity pool) answered when the form's action failed. */
export function FormError({ error }: { error: string | null }) {
  if (!error) return null;
  return (
    <Alert color="red" mt="md" role="alert">
      {error}
    </Alert>
  );
}
