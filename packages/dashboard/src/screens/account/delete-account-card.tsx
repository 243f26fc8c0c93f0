import { Button, Group, Modal, Paper, Stack, Text, TextInput, Title } from '@mantine/core';
import type { UserInfo } from '@scrub/sdk';
import { useState } from 'react';
import { useNavigate } from 'react-router';
import { signOut } from '../../auth/sign-out';
import { saveBlob } from '../../common/save-blob';
import { showFailure } from '../../common/show-failure';
import { useDeleteAccount, useExportAccount } from '../../data/account';

/**
 * Your data: download everything kept about the account (profile, files, purchases, phone log),
 * then delete the account, typing its e-mail address to confirm. The owner's alone: not shown to
 * an admin acting as the user (the service refuses them anyway).
 */
export function DeleteAccountCard({ user }: { user: UserInfo }) {
  const navigate = useNavigate();
  const [exported, setExported] = useState(false);
  const [asking, setAsking] = useState(false);
  const [typed, setTyped] = useState('');
  const download = useExportAccount({
    onSuccess: (bundle) => {
      saveBlob(
        new Blob([JSON.stringify(bundle, null, 2)], { type: 'application/json' }),
        'scrub-account.json',
      );
      setExported(true);
    },
    onError: showFailure,
  });
  const remove = useDeleteAccount({
    onSuccess: async ({ message }) => {
      setAsking(false);
      await signOut();
      navigate(`/login?message=${encodeURIComponent(message)}`, { replace: true });
    },
    onError: showFailure,
  });
  const matches = typed.trim().toLowerCase() === user.email.toLowerCase();

  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="your-data-title">
      <Title order={2} size="h4" id="your-data-title">
        Your data
      </Title>
      <Text size="sm" mt="sm">
        Download everything kept about your account: your profile, files, purchases and phone log. Then, if
        you wish, delete the account: files, phone log, suppression list, webhooks, API keys, saved cards and
        your sign-in go for good. The credit ledger and audit rows stay, without your e-mail address.
      </Text>
      <Group mt="md">
        <Button variant="default" onClick={() => download.mutate()} loading={download.isPending}>
          Download my data
        </Button>
        <Button color="red" variant="light" disabled={!exported} onClick={() => setAsking(true)}>
          Delete account
        </Button>
      </Group>
      {!exported && (
        <Text size="xs" c="dimmed" mt="xs">
          Download your data first to delete the account.
        </Text>
      )}
      <Modal
        closeButtonProps={{ 'aria-label': 'Close' }}
        opened={asking}
        onClose={() => setAsking(false)}
        title="Delete your account?"
        centered
      >
        <form
          onSubmit={(event) => {
            event.preventDefault();
            if (matches) remove.mutate(typed.trim());
          }}
        >
          <Stack gap="sm">
            <Text size="sm">This cannot be undone. Credits left on the account are lost.</Text>
            <TextInput
              label="Type your e-mail address to confirm"
              placeholder={user.email}
              value={typed}
              onChange={(event) => setTyped(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setAsking(false)}>
                Cancel
              </Button>
              <Button type="submit" color="red" disabled={!matches} loading={remove.isPending}>
                Delete my account
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </Paper>
  );
}
