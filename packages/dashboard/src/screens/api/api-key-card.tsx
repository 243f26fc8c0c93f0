import { Alert, Button, Group, Paper, Text, TextInput, Title } from '@mantine/core';
import { useClipboard } from '@mantine/hooks';
import { modals } from '@mantine/modals';
import { APIError, type ApiKeyRotation } from '@scrub/sdk';
import { useRotateApiKey } from '../../data/api-key';
import { showErrorDialog } from '../../shell/error-dialog';

/** Seed 2: 'Copied!' shows for 3 seconds. */
const COPIED_MS = 3000;

const masked = (last4: string) => `scrub_${'•'.repeat(24)}${last4}`;

export function ApiKeyCard({
  last4,
  generated,
  onGenerated,
}: {
  last4: string | null;
  generated: ApiKeyRotation | null;
  onGenerated(rotation: ApiKeyRotation): void;
}) {
  const clipboard = useClipboard({ timeout: COPIED_MS });
  const rotate = useRotateApiKey({
    onSuccess: onGenerated,
    // A refusal (403: an acting session may not touch the owner's keys) is shown by the app's
    // Access Denied dialog, in the service's words; anything else gets the seed's sentence.
    onError: (error) => {
      if (!(error instanceof APIError && error.status === 403))
        showErrorDialog('Error', 'Failed to generate API key. Please try again.');
    },
  });

  const confirmGenerate = () =>
    modals.openConfirmModal({
      title: 'Generate New API Key',
      children: <Text>Generating a new API key will invalidate your current key. Continue?</Text>,
      labels: { confirm: 'Continue', cancel: 'Cancel' },
      onConfirm: () => rotate.mutate(),
    });

  const copy = () => {
    if (!generated) return showErrorDialog('Error', 'No API key to copy. Please generate a new key first.');
    clipboard.copy(generated.api_key);
  };

  const shown = generated ? generated.api_key : last4 ? masked(last4) : '';
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="key-title">
      <Title order={2} size="h4" id="key-title">
        Your API key
      </Title>
      <Group mt="sm" align="flex-end" wrap="wrap">
        <TextInput
          label="API key"
          value={shown}
          placeholder="No API key yet"
          readOnly
          style={{ flex: 1, minWidth: 240 }}
          styles={{ input: { fontFamily: 'monospace' } }}
          data-testid="api-key"
        />
        <Button variant="default" onClick={copy} disabled={!generated} data-testid="copy-key">
          {clipboard.copied ? 'Copied!' : 'Copy'}
        </Button>
        <Button onClick={confirmGenerate} loading={rotate.isPending} data-testid="generate-key">
          Generate New API Key
        </Button>
      </Group>
      {generated && (
        <Alert color="orange" mt="md" role="status">
          This is the ONLY time you will see this API key. Copy it and keep it somewhere safe.
        </Alert>
      )}
      {!generated && !last4 && (
        <Text mt="md" size="sm">
          Generate your first API key to start using the API.
        </Text>
      )}
      {!generated && last4 && (
        <Text mt="md" size="sm" c="dimmed">
          Only the last 4 digits of your key are displayed. If you lose it, generate a new one: that
          invalidates the old key at once.
        </Text>
      )}
    </Paper>
  );
}
