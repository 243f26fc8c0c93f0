import { Notifications } from '@mantine/notifications';
import type { FileView } from '@scrub/sdk';
import { act, screen, waitFor } from '@testing-library/react';
import { expect, test } from 'vitest';
import { FileStatus } from '../screens/export/file-status';
import { renderScreen } from '../test/render';
import { NOTIFICATIONS_POSITION, notifyJobQueued } from './notify';

const QUEUED = 'Your file is queued. It can take up to 20 minutes.';

const file = (status: FileView['status']) => ({ file_reference: 'ref-1', status }) as FileView;

test("toasts keep off the header's credit counter and menu, and 'queued' closes once the row says Completed", async () => {
  const page = renderScreen(
    <>
      <Notifications position={NOTIFICATIONS_POSITION} />
      <FileStatus file={file('pending')} />
    </>,
  );
  act(() => notifyJobQueued(QUEUED, 'ref-1'));
  const toast = await screen.findByText(QUEUED);
  // The header is at the top: the toasts' corner is at the bottom.
  expect(toast.closest('[data-position]')?.getAttribute('data-position')).toMatch(/^bottom-/);

  page.rerender(
    <>
      <Notifications position={NOTIFICATIONS_POSITION} />
      <FileStatus file={file('completed')} />
    </>,
  );
  await waitFor(() => expect(screen.queryByText(QUEUED)).toBeNull());
  expect(screen.getByText('Completed')).toBeTruthy();
});
