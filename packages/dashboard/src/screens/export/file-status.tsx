import { Badge, Loader } from '@mantine/core';
import type { FileView } from '@scrub/sdk';

/** A badge keeps its whole word: a narrow table column must not cut it to "COMPL…". */
const WHOLE = { miw: 'max-content' } as const;

/** Completed, Failed, or Pending for anything else (queued, processing). */
export function FileStatus({ file }: { file: FileView }) {
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

export const uploadedAt = (file: FileView) => file.created_at.slice(0, 10);
export const methodLabel = (file: FileView) => (file.file_method === 'upload' ? 'Direct DB' : 'Bulk upload');
