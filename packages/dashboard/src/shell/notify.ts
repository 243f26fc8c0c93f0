import { notifications } from '@mantine/notifications';

/**
 * The seeds' 'Success' messages as a notification: a named close button and the description in the
 * text colour (Mantine's dimmed description under a title is below AA contrast on the teal accent).
 */
export function notifySuccess(message: string): void {
  notifications.show({
    closeButtonProps: { 'aria-label': 'Close notification' },
    color: 'teal',
    title: 'Success',
    message,
    styles: { description: { color: 'var(--mantine-color-text)' } },
  });
}
