import { Badge, Loader, Text, type TextProps } from '@mantine/core';
import type { FileView } from '@scrub/sdk';
import { useEffect } from 'react';
import type { ResultFilter } from '../../common/download-file';
import { JobCreditsLines } from '../../credits/job-credits';
import { jobFinished } from '../../shell/notify';

/** A badge keeps its whole word: a narrow table column must not cut it to "COMPL…". */
const WHOLE = { miw: 'max-content' } as const;

/** Completed, Failed, Processing (its counts are spinners meanwhile), or Pending for anything else. */
export function FileStatus({ file }: { file: FileView }) {
  const finished = file.status === 'completed' || file.status === 'failed';
  useEffect(() => {
    if (finished) jobFinished(file.file_reference);
  }, [finished, file.file_reference]);
  if (file.status === 'completed')
    return (
      <Badge color="teal.9" {...WHOLE}>
        Completed
      </Badge>
    );
  if (file.status === 'failed')
    return (
      <Badge color="red.9" {...WHOLE}>
        Failed
      </Badge>
    );
  if (file.status === 'processing') {
    return (
      <Badge color="blue.9" leftSection={<Loader size={10} color="white" aria-hidden />} {...WHOLE}>
        Processing
      </Badge>
    );
  }
  return (
    <Badge color="gray.8" {...WHOLE}>
      Pending
    </Badge>
  );
}

/** A count, or a spinner while the job is still working it out. */
export function FileCount({ file, value }: { file: FileView; value: number }) {
  if (file.status === 'processing' || file.status === 'pending') {
    return <Loader size="xs" aria-label="Still processing" />;
  }
  return <>{value.toLocaleString('en-US')}</>;
}

/** Why a failed job failed, in the job's own words (null for any other job). */
export function FileError({ file, ...props }: { file: FileView } & TextProps) {
  if (!file.error) return null;
  return (
    <Text size="xs" c="var(--scrub-bad-text)" data-testid="file-error" {...props}>
      {file.error}
    </Text>
  );
}

/**
 * Credits a job cost: what it was charged, or for a failed job what it kept (the records a job cut
 * off part-way scrubbed; none otherwise) and what was given back.
 */
export function FileCredits({ file }: { file: FileView }) {
  // The ledger's figures (charged, given back by reason, net) once a job that took credits has ended.
  if (file.credits && file.credits.charged > 0 && (file.status === 'completed' || file.status === 'failed'))
    return <JobCreditsLines credits={file.credits} />;
  if (file.status !== 'failed') return <FileCount file={file} value={file.credits_charged} />;
  const kept = Math.max(file.credits_charged - file.credits_reversed, 0);
  return (
    <>
      {kept.toLocaleString('en-US')} (reversed {file.credits_reversed.toLocaleString('en-US')})
    </>
  );
}

const pad = (value: number) => String(value).padStart(2, '0');

/** When the file was uploaded, in the browser's time zone and 12-hour time (seed 2): `2026-11-27 2:05 PM`. */
export function uploadedAt(file: FileView): string {
  return localTime(file.created_at);
}

/**
 * The file's calling window: when its Callable Now cells were evaluated (`as of 2026-11-27 2:05 PM`),
 * "Not added" for a file scrubbed without them, "Pending" until its job runs.
 */
export function callingWindow(file: FileView): string {
  if (file.columns_evaluated_at) return `as of ${localTime(file.columns_evaluated_at)}`;
  return file.status === 'pending' || file.status === 'processing' ? 'Pending' : 'Not added';
}

function localTime(iso: string): string {
  const at = new Date(iso);
  const hour = at.getHours() % 12 || 12;
  const half = at.getHours() < 12 ? 'AM' : 'PM';
  const day = `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
  return `${day} ${hour}:${pad(at.getMinutes())} ${half}`;
}
export const methodLabel = (file: FileView) => (file.file_method === 'upload' ? 'Direct DB' : 'Bulk upload');

/** What the file list shows, as a table or as cards: a page of files, the first one's number, the export filter. */
export interface FileListProps {
  files: FileView[];
  first: number;
  filter: ResultFilter;
}
