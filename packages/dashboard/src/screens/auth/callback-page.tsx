import { Alert, Button, Loader, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef, useState } from 'react';
import { Link, useNavigate } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { scrub } from '../../api/scrub-client';
import { sessionKey } from '../../auth/use-session';
import { AuthCard } from './auth-card';
import { takeHostedReturnPath } from './hosted-sign-in';

/**
 * The hosted sign-in callback (seed 1): reads the ID token from the address fragment, has the
 * service check it (`scrub.auth.adoptHostedSignIn`: GET /user), then goes to the saved return path
 * or /dashboard. On failure, the error and a 'Return to Login' button.
 */
export default function CallbackPage() {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const [error, setError] = useState<string | null>(null);
  // React runs an effect twice in development: the fragment is read once.
  const started = useRef(false);

  useEffect(() => {
    if (started.current) return;
    started.current = true;
    const fragment = window.location.hash;
    // The tokens leave the address (and the history) at once.
    window.history.replaceState(window.history.state, '', window.location.pathname);
    scrub.auth
      .adoptHostedSignIn(fragment)
      .then((session) => {
        queryClient.setQueryData(sessionKey, session);
        navigate(takeHostedReturnPath() ?? '/dashboard', { replace: true });
      })
      .catch((failure: unknown) => setError(errorMessage(failure, 'Failed to authenticate user')));
  }, [navigate, queryClient]);

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
