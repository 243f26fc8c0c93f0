import { Alert, Button, Group, Text } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';

/** A signing secret, shown the one time the service answers it (an endpoint added or rotated). */
export function SecretAlert({
  secret,
  previousUntil,
  onDismiss,
}: {
  secret: string;
  /** Until when the rotated-out secret still signs beside this one; null: it no longer signs. */
  previousUntil: string | null | undefined;
  onDismiss(): void;
}) {
  const clipboard = useClipboard({ timeout: 3000 });
  return (
    <Alert
      color="orange"
      role="status"
      title="Signing secret"
      withCloseButton
      onClose={onDismiss}
      closeButtonLabel="Hide secret"
    >
      <Group gap="sm" wrap="wrap">
        <Text ff="monospace" data-testid="webhook-secret" style={{ wordBreak: 'break-all' }}>
          {secret}
        </Text>
        <Button size="xs" variant="default" onClick={() => clipboard.copy(secret)}>
          {clipboard.copied ? 'Copied!' : 'Copy'}
        </Button>
      </Group>
      <Text size="sm" mt="xs">
        This is the ONLY time you will see this secret: keep it to verify deliveries (docs: webhooks).
        {previousUntil
          ? ` The old secret keeps signing beside it until ${new Date(previousUntil).toLocaleString('en-US')}, so receivers using either keep working.`
          : ''}
      </Text>
    </Alert>
  );
}
