import { Button, Group, Text } from '@mantine/core';
import { modals } from '@mantine/modals';
import type { ReactNode } from 'react';

/** The seeds' dialogs ('Error!', 'Insufficient Credits', 'Access Denied'...): a title, a text and a Close button. */
export function showErrorDialog(title: string, message: ReactNode, extra?: ReactNode): void {
  const id = modals.open({
    title,
    closeButtonProps: { 'aria-label': 'Close dialog' },
    children: (
      <>
        <Text>{message}</Text>
        <Group justify="flex-end" mt="md">
          {extra}
          <Button onClick={() => modals.close(id)}>Close</Button>
        </Group>
      </>
    ),
  });
}
