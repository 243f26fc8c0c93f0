import { Alert, Button, FileButton, Group, Stack, Text } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { messages } from '@scrub/contract';
import {
  APIUserAbortError,
  ConflictError,
  InsufficientCreditsError,
  PermissionDeniedError,
  PlanPausedError,
} from '@scrub/sdk';
import { useRef, useState } from 'react';
import { submitBulkJob, uploadBulkFile } from '../../data/bulk';
import { notifyJobQueued } from '../../shell/notify';
import { clearPendingUpload, mismatch, type PendingUpload } from './pending-upload';
import { showSubmitError } from './submit-errors';
import { UploadProgress } from './upload-progress';

/** Forgets the unfinished upload, and says so: nothing was charged for it. */
function discardPendingUpload(pending: PendingUpload): void {
  clearPendingUpload();
  notifications.show({
    closeButtonProps: { 'aria-label': 'Close notification' },
    message: `The unfinished upload of ${pending.fileName} was discarded. Nothing was charged.`,
  });
}

/**
 * An upload interrupted by a reload: the customer picks the same file again (name, size and
 * modification time checked) and the job is uploaded and submitted, or discards it. The upload
 * goes in parts, so only the parts the service does not hold yet are sent; nothing was charged
 * for the job, which is charged only when submitted.
 */
export function ResumeUpload({
  pending,
  onDone,
  onDiscard,
}: {
  pending: PendingUpload;
  /** Called with the submitted job's file reference. */
  onDone(fileReference: string): void;
  onDiscard(): void;
}) {
  const [error, setError] = useState<string | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const cancel = useRef<AbortController | null>(null);

  const resume = async (file: File | null) => {
    if (!file) return;
    const wrong = mismatch(pending, file);
    setError(wrong);
    if (wrong) return;
    const abort = new AbortController();
    cancel.current = abort;
    setProgress(0);
    try {
      try {
        await uploadBulkFile({ job_id: pending.jobId, upload_url: pending.uploadUrl }, file, {
          uploadId: pending.uploadId,
          signal: abort.signal,
          onProgress: (sent, total) => setProgress(total ? (sent / total) * 100 : 0),
        });
      } catch (failure) {
        // The whole file had arrived before the page went away: only the submit is missing.
        if (!(failure instanceof ConflictError)) throw failure;
      }
      const submitted = await submitBulkJob(pending.jobId);
      clearPendingUpload();
      // The submit's news, not the create's instructions to a script (seed 2: 'Success' with the message).
      notifyJobQueued(messages.jobQueued, submitted.file_reference);
      onDone(submitted.file_reference);
    } catch (failure) {
      if (failure instanceof APIUserAbortError) return;
      // Short of credits or paused: kept, to be finished once that is put right.
      if (failure instanceof InsufficientCreditsError || failure instanceof PlanPausedError) {
        return showSubmitError(failure, null);
      }
      clearPendingUpload();
      if (failure instanceof PermissionDeniedError) {
        setError('The upload link has expired. Please upload the file again.');
        return;
      }
      showSubmitError(failure, null);
      onDiscard();
    } finally {
      setProgress(null);
      cancel.current = null;
    }
  };

  const discard = () => {
    discardPendingUpload(pending);
    onDiscard();
  };

  return (
    <Alert color="yellow" mt="md" title="Unfinished upload" data-testid="pending-upload">
      <Stack gap="sm">
        <Text>
          The upload of <strong>{pending.fileName}</strong> ({pending.size.toLocaleString('en-US')} bytes) was
          interrupted before it was processed. Choose the same file to finish it, or discard it. Nothing has
          been charged for it.
        </Text>
        {error && (
          <Text c="var(--scrub-bad-text)" role="alert">
            {error}
          </Text>
        )}
        {progress !== null ? (
          <UploadProgress progress={progress}>
            <Button variant="default" w="fit-content" onClick={() => cancel.current?.abort()}>
              Cancel upload
            </Button>
          </UploadProgress>
        ) : (
          <Group>
            <FileButton
              onChange={resume}
              accept=".csv"
              inputProps={{ 'data-testid': 'resume-file' } as object}
            >
              {(props) => <Button {...props}>Choose {pending.fileName} to resume</Button>}
            </FileButton>
            <Button variant="default" onClick={discard}>
              Discard
            </Button>
          </Group>
        )}
      </Stack>
    </Alert>
  );
}
