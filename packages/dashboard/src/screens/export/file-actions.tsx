import { Button, Group, Stack, Text } from '@mantine/core';
import type { FileView } from '@scrub/sdk';
import { Link } from 'react-router';
import { originalLink, partLink, type ResultFilter, resultLink } from '../../common/download-file';
import { EmailFileButton } from './email-file-button';
import { DeleteFileButton, FileExpiry, isRemoved } from './file-removal';

/**
 * View (file detail) and the downloads: the filtered result once completed, the original always;
 * Email sends the result's links once completed. A failed job that kept the result of the records
 * it scrubbed (a streamed job cut off part-way) offers that part, filtered the same way. With the
 * Clean filter on a file none of whose numbers was checked, the service's reason comes with it.
 */
export function FileActions({ file, filter }: { file: FileView; filter: ResultFilter }) {
  const cleanFindsNothing = filter.dnc === '0' && file.dnc_notice !== undefined;
  // A file scrubbed without the calling window cannot be filtered on it: no result link, and why.
  const noWindow = filter.callableNow !== undefined && !file.columns_evaluated_at;
  return (
    <Stack gap={4}>
      <FileButtons file={file} filter={filter} results={!noWindow && !isRemoved(file)} />
      <FileExpiry file={file} />
      {cleanFindsNothing && (
        <Text size="xs" c="var(--scrub-bad-text)" maw={360} data-testid="clean-filter-notice">
          {file.dnc_notice}
        </Text>
      )}
      {noWindow && (file.status === 'completed' || file.part_url !== null) && (
        <Text size="xs" c="dimmed" maw={360} data-testid="no-calling-window">
          Scrubbed without the calling window: set Calling window to All to export it.
        </Text>
      )}
    </Stack>
  );
}

function FileButtons({ file, filter, results }: { file: FileView; filter: ResultFilter; results: boolean }) {
  const ready = results && file.status === 'completed' && file.file_url && file.file_url !== 'Failed';
  // Only a failed job has a part: the records it scrubbed before it was cut off.
  const part = results && file.part_url !== null;
  return (
    <Group gap="xs">
      {(file.status === 'completed' || file.status === 'failed') && (
        <Button
          size="compact-sm"
          variant="light"
          component={Link}
          to={`/fileinfo?file_reference=${encodeURIComponent(file.file_reference)}`}
          aria-label={`View ${file.file_name}`}
        >
          View
        </Button>
      )}
      {ready && (
        <Button
          size="compact-sm"
          component="a"
          {...resultLink(file.file_reference, file.file_name, filter)}
          aria-label={`Get CSV of ${file.file_name}`}
          data-testid="get-csv"
        >
          Get CSV
        </Button>
      )}
      {part && (
        <Button
          size="compact-sm"
          component="a"
          {...partLink(file.file_reference, file.file_name, filter)}
          aria-label={`Get part: the scrubbed part of ${file.file_name}`}
          data-testid="get-part"
        >
          Get part
        </Button>
      )}
      {ready && <EmailFileButton file={file} filter={filter} />}
      {file.uploaded_file && !isRemoved(file) && (
        <Button
          size="compact-sm"
          variant="default"
          component="a"
          {...originalLink(file.file_reference, file.file_name)}
          aria-label={`Download the original of ${file.file_name}`}
        >
          Original
        </Button>
      )}
      <DeleteFileButton file={file} compact />
    </Group>
  );
}
