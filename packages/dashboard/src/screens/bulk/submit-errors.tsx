import { Button } from '@mantine/core';
import { InsufficientCreditsError, PlanPausedError } from '@scrub/sdk';
import { Link } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { openActivateModal } from '../../payments/account-status';
import { showErrorDialog } from '../../shell/error-dialog';

export function insufficientDialog(required: number, available: number) {
  showErrorDialog(
    'Insufficient Credits',
    `You need ${required.toLocaleString('en-US')} credits but only have ${available.toLocaleString('en-US')}.`,
    <Button component={Link} to="/purchase" variant="default">
      Purchase More Credits
    </Button>,
  );
}

/** Seed 2's dialogs for a bulk job that could not be created, uploaded or submitted. */
export function showSubmitError(error: unknown, records: number | null): void {
  if (error instanceof InsufficientCreditsError) {
    insufficientDialog(error.creditsRequired ?? records ?? 0, error.creditsAvailable ?? 0);
  } else if (error instanceof PlanPausedError) {
    void openActivateModal();
  } else {
    showErrorDialog('Error', errorMessage(error, 'Failed to upload file. Please try again.'));
  }
}
