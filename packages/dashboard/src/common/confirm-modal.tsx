import { Button, Group, Modal } from '@mantine/core';
import type { ReactNode } from 'react';

/** A question before an action: its text, Cancel, and the action's own button. */
export function ConfirmModal({
  opened,
  title,
  confirmLabel,
  color,
  onCancel,
  onConfirm,
  children,
}: {
  opened: boolean;
  title: string;
  confirmLabel: string;
  color?: string;
  onCancel(): void;
  onConfirm(): void;
  children: ReactNode;
}) {
  return (
    <Modal
      closeButtonProps={{ 'aria-label': 'Close' }}
      opened={opened}
      onClose={onCancel}
      title={title}
      centered
    >
      {children}
      <Group justify="flex-end" mt="md">
        <Button variant="default" onClick={onCancel}>
          Cancel
        </Button>
        <Button color={color} onClick={onConfirm}>
          {confirmLabel}
        </Button>
      </Group>
    </Modal>
  );
}
