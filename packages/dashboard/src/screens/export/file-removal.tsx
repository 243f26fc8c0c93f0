import { Button, Text } from '@mantine/core';
import type { FileView } from '@scrub/sdk';
import { useState } from 'react';
import { useSession } from '../../auth/use-session';
import { ConfirmModal } from '../../common/confirm-modal';
import { showFailure } from '../../common/show-failure';
import { useDeleteFile } from '../../data/files';
import { notifySuccess } from '../../shell/notify';

const REASONS: Record<NonNullable<FileView['removed_by']>, string> = {
  retention: 'the service keeps files for a set number of days',
  customer: 'you deleted it',
  account: 'its account was deleted',
};

/** Whether the file's upload and result are gone (its downloads then answer 410). */
export const isRemoved = (file: FileView) => Boolean(file.removed_at);

/**
 * When the file's upload and result are deleted by the service's retention, or when and why they
 * were. Nothing from an older service that does not say.
 */
export function FileExpiry({ file, size = 'xs' }: { file: FileView; size?: 'xs' | 'sm' }) {
  if (file.removed_at) {
    return (
      <Text size={size} c="dimmed" data-testid="file-removed">
        Deleted on {file.removed_at.slice(0, 10)}: {REASONS[file.removed_by ?? 'retention']}.
      </Text>
    );
  }
  if (!file.expires_at) return null;
  return (
    <Text size={size} c="dimmed" data-testid="file-expires">
      Kept until {file.expires_at.slice(0, 10)}, then deleted
    </Text>
  );
}

/**
 * Delete: the file's upload and result go now, after a confirmation; its counts, credits and proof
 * of scrub stay. Only a finished file that still has them offers it, to a signed-in visitor.
 */
export function DeleteFileButton({ file, compact = false }: { file: FileView; compact?: boolean }) {
  const [open, setOpen] = useState(false);
  // File detail is public: only a signed-in visitor (the owner, the service checks) may delete.
  const session = useSession();
  const remove = useDeleteFile(file.file_reference, {
    onSuccess: () => {
      setOpen(false);
      notifySuccess(`${file.file_name}: upload and result deleted.`);
    },
    onError: (error) => {
      setOpen(false);
      showFailure(error);
    },
  });
  if (!session.data || isRemoved(file) || (file.status !== 'completed' && file.status !== 'failed'))
    return null;
  return (
    <>
      <Button
        size={compact ? 'compact-sm' : 'sm'}
        variant="light"
        color="red"
        onClick={() => setOpen(true)}
        loading={remove.isPending}
        aria-label={`Delete ${file.file_name}`}
      >
        Delete
      </Button>
      <ConfirmModal
        opened={open}
        title={`Delete ${file.file_name}?`}
        confirmLabel="Delete file"
        color="red"
        onCancel={() => setOpen(false)}
        onConfirm={() => remove.mutate()}
      >
        <Text size="sm">
          The uploaded file and its result are deleted for good. The counts, the credits charged and the proof
          of scrub stay; no credits are given back.
        </Text>
      </ConfirmModal>
    </>
  );
}
