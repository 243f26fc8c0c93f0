import { errorMessage } from '../api/error-message';
import { showErrorDialog } from '../shell/error-dialog';

/** The seeds' 'Error!' dialog with the service's sentence: what most failed actions show. */
export function showFailure(error: unknown): void {
  showErrorDialog('Error!', errorMessage(error));
}
