import { Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import type { FileView } from '@scrub/sdk';
import { useState } from 'react';
import type { ResultFilter } from '../../common/download-file';
import { showFailure } from '../../common/show-failure';
import { useEmailFile } from '../../data/files';
import { notifySuccess } from '../../shell/notify';

/** "a@x.com, b@y.com" as the list the service takes; empty means the account's own address. */
const addressesOf = (text: string) =>
  text
    .split(/[,;\s]+/)
    .map((address) => address.trim())
    .filter((address) => address !== '');

/**
 * Export's Email (seed 2 shows it disabled): mails the file's links, its result filtered as the page
 * is, to the account's own address or to the addresses typed (at most 5).
 */
export function EmailFileButton({ file, filter }: { file: FileView; filter: ResultFilter }) {
  const [open, setOpen] = useState(false);
  const [to, setTo] = useState('');
  const send = useEmailFile(file.file_reference, {
    onSuccess: (result) => {
      setOpen(false);
      setTo('');
      notifySuccess(result.message);
    },
    onError: showFailure,
  });
  return (
    <>
      <Button
        size="compact-sm"
        variant="default"
        onClick={() => setOpen(true)}
        aria-label={`Email ${file.file_name}`}
      >
        Email
      </Button>
      <Modal opened={open} onClose={() => setOpen(false)} title={`Email ${file.file_name}`} centered>
        <form
          onSubmit={(event) => {
            event.preventDefault();
            const addresses = addressesOf(to);
            send.mutate({ ...filter, ...(addresses.length ? { to: addresses } : {}) });
          }}
        >
          <Stack gap="sm">
            <Text size="sm">
              The mail holds a link to the results (with the filters of this page) and to the file's details.
              Anyone with the links can open them.
            </Text>
            <TextInput
              label="Send to"
              description="Up to 5 addresses, separated by commas. Leave empty to send it to yourself."
              placeholder="you@example.com"
              value={to}
              onChange={(event) => setTo(event.currentTarget.value)}
              data-autofocus
            />
            <Group justify="flex-end">
              <Button variant="default" onClick={() => setOpen(false)}>
                Cancel
              </Button>
              <Button type="submit" loading={send.isPending}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      </Modal>
    </>
  );
}
