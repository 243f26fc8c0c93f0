import { Alert, Loader } from '@mantine/core';
import { DncListsPanel, listsNotice } from '../../common/dnc-lists';
import { useDncLists } from '../../data/service';

/**
 * Before the customer pays: the shared do-not-call lists the job will be checked against (besides
 * their own suppression list), each with its release date and age, and plainly when none is loaded
 * or one is too old to call a number clean.
 */
export function SummaryDncLists() {
  const status = useDncLists();
  if (status.isPending) {
    return (
      <Alert color="blue" variant="light" icon={<Loader size="xs" aria-hidden />}>
        Reading the do-not-call lists...
      </Alert>
    );
  }
  // Without the lists' state the summary says nothing of them rather than something unproven.
  if (!status.data) return null;
  const lists = status.data.lists ?? [];
  return (
    <DncListsPanel
      lists={lists}
      notice={listsNotice(lists)}
      title="Do-not-call lists this job will consult"
    />
  );
}
