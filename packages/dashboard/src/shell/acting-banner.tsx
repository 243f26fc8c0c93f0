import { Alert, Button, Group, Modal, Text } from '@mantine/core';
import { useState } from 'react';
import { type Acting, stopActing } from '../auth/acting';

/** 'Logged in as {email}' with a switch back, on every screen while an admin acts as a user (seed 2). */
export function ActingBanner({ acting }: { acting: Acting }) {
  const [asking, setAsking] = useState(false);
  return (
    <>
      <Alert color="orange" variant="light" mb="md" role="status" data-testid="acting-banner">
        <Group justify="space-between" gap="xs">
          <Text fw={600} size="sm">
            Logged in as {acting.email}
          </Text>
          <Button size="xs" onClick={() => setAsking(true)}>
            Switch back
          </Button>
        </Group>
      </Alert>
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={asking}
        onClose={() => setAsking(false)}
        title="Switch back"
        centered
      >
        <Text>Are you sure you want to switch to your account?</Text>
        <Group justify="flex-end" mt="md">
          <Button variant="default" onClick={() => setAsking(false)}>
            No
          </Button>
          <Button onClick={stopActing}>Yes</Button>
        </Group>
      </Modal>
    </>
  );
}
