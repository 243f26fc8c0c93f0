import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { AuthCard } from './auth-card';

/**
 * The hosted sign-in callback. The service's `GET /config` names no hosted sign-in domain, and the
 * SDK cannot adopt a bare ID token from the address fragment (it needs the refresh token too), so
 * this screen reports what it received and sends the user back to Login.
 */
export default function CallbackPage() {
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    const fragment = new URLSearchParams(window.location.hash.slice(1));
    const failure = fragment.get('error_description') ?? fragment.get('error');
    if (failure) setError(failure);
    else if (!fragment.get('id_token')) setError('No ID token in callback');
    else
      setError(
        'Failed to authenticate user: hosted sign-in is not enabled on this service. Please log in here.',
      );
  }, []);

  return (
    <AuthCard title="Signing in">
      {error ? (
        <Stack>
          <Alert color="red" role="alert">
            {error}
          </Alert>
          <Button component={Link} to="/login">
            Return to Login
          </Button>
        </Stack>
      ) : (
        <Stack align="center">
          <Loader aria-label="Completing sign in" />
          <Text>Completing sign in...</Text>
        </Stack>
      )}
    </AuthCard>
  );
}
