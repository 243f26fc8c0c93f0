import { Button, Paper, Text, Title } from '@mantine/core';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { signOutEverywhere } from '../../auth/sign-out';
import { ConfirmModal } from '../../common/confirm-modal';

/** Ends every session of this account on every device (GlobalSignOut), this one included. */
export function SignOutEverywhere() {
  const navigate = useNavigate();
  const [asking, setAsking] = useState(false);

  async function confirm() {
    setAsking(false);
    let message = 'You have been signed out on every device.';
    try {
      await signOutEverywhere();
    } catch (failure) {
      message = `Signed out here; the other devices could not be signed out: ${errorMessage(failure)}`;
    }
    navigate(`/login?message=${encodeURIComponent(message)}`, { replace: true });
  }

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="sessions-title">
      <Title order={2} size="h4" id="sessions-title">
        Sessions
      </Title>
      <Text size="sm" mt="sm">
        Lost a device, or signed in somewhere you should not have? End every session at once.
      </Text>
      <Button mt="md" color="red" variant="light" onClick={() => setAsking(true)}>
        Sign out everywhere
      </Button>
      <ConfirmModal
        opened={asking}
        title="Sign out everywhere?"
        confirmLabel="Sign out everywhere"
        color="red"
        onCancel={() => setAsking(false)}
        onConfirm={() => void confirm()}
      >
        <Text size="sm">
          Every browser, phone and scrub command signed in to this account is signed out, this one included.
          API keys keep working.
        </Text>
      </ConfirmModal>
    </Paper>
  );
}
