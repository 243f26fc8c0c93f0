import { notifications } from '@mantine/notifications';

/**
 * The seeds' 'Success' messages as a notification: a named close button and the description in the
 * text colour (Mantine's dimmed description under a title is below AA contrast on the teal accent).
 */
export function notifySuccess(message: string, options: { id?: string } = {}): void {
  notifications.show({
    ...options,
    closeButtonProps: { 'aria-label': 'Close notification' },
    color: 'teal',
    title: 'Success',
    message,
    styles: { description: { color: 'var(--mantine-color-text)' } },
  });
}

/**
 * Toasts show at the bottom right: at the top they covered the header's credit counter and account
 * menu.
 */
export const NOTIFICATIONS_POSITION = 'bottom-right';

const queuedId = (fileReference: string) => `job-queued-${fileReference}`;

/** 'Queued, up to 20 minutes': kept while the job waits, closed by `jobFinished` once its row says so. */
export function notifyJobQueued(message: string, fileReference: string): void {
  notifySuccess(message, { id: queuedId(fileReference) });
}

/** The file's row shows it completed or failed: its 'queued' news is over. */
export function jobFinished(fileReference: string): void {
  notifications.hide(queuedId(fileReference));
}
