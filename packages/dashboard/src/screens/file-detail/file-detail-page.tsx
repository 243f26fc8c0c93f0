import { Alert, Button, Center, Group, Loader, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import type { FileView } from '@scrub/sdk';
import { Link, useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { originalLink, partLink, resultLink } from '../../common/download-file';
import { JobCreditsCard } from '../../credits/job-credits';
import { useFile } from '../../data/files';
import { DeleteFileButton, FileExpiry, isRemoved } from '../export/file-removal';
import { CountList } from './count-list';

function BackToExport() {
  return (
    <Button component={Link} to="/export" variant="default" w="fit-content">
      Go back
    </Button>
  );
}

/** Public: the unguessable file reference in the address is the only credential. */
export default function FileDetailPage() {
  const [params] = useSearchParams();
  const reference = params.get('file_reference') ?? '';
  const file = useFile(reference);

  if (!reference) return <Alert color="red">No file reference in the address.</Alert>;
  if (file.isPending) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading file" />
      </Center>
    );
  }
  if (file.isError) {
    return (
      <Stack>
        <BackToExport />
        <Alert color="red">{errorMessage(file.error, 'No file found')}</Alert>
      </Stack>
    );
  }

  return <FileDetails view={file.data} />;
}

/** The file's facts, its counts and its downloads. */
function FileDetails({ view }: { view: FileView }) {
  const failed = view.status === 'failed';
  // A failed job with a part (cut off after scrubbing some records; only a failed job has one)
  // reads as a completed job of those records: their output and their charge. Any other failed
  // job kept and charged nothing.
  const hasPart = view.part_url !== null;
  const none = failed && !hasPart;
  const facts: [string, string][] = [
    ['File ID', view.file_reference],
    ['File name', view.file_name],
    ['Uploaded', view.created_at.slice(0, 10)],
    ['Total records (CSV)', view.total_records.toLocaleString('en-US')],
    ['Total records (output)', none ? '0' : view.processed_rows.toLocaleString('en-US')],
    // The ledger's figures when the service sends them: duplicates alone, and the net the balance fell by.
    [
      'Credits reversed for duplicates',
      (view.credits?.given_back.duplicates ?? view.credits_reversed).toLocaleString('en-US'),
    ],
    ['Total credits', none ? '0' : (view.credits?.net ?? view.credits_charged).toLocaleString('en-US')],
  ];

  return (
    <Stack maw={900}>
      <BackToExport />
      <Title order={1}>File details</Title>
      <FileExpiry file={view} size="sm" />
      {view.file_message && (
        <Text c="var(--scrub-bad-text)" role="status">
          {view.file_message}
        </Text>
      )}
      {view.error && (
        <Text c="var(--scrub-bad-text)" data-testid="file-error">
          Failed: {view.error}
        </Text>
      )}
      <Paper withBorder p="lg">
        <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="xs" data-testid="file-facts">
          {facts.map(([label, value]) => (
            <div key={label}>
              <Text size="sm" c="dimmed">
                {label}
              </Text>
              <Text fw={600} style={{ wordBreak: 'break-all' }}>
                {value}
              </Text>
            </div>
          ))}
        </SimpleGrid>
      </Paper>
      <SimpleGrid cols={{ base: 1, sm: 2 }}>
        <CountList title="Line-type details" counts={view.line_types} />
        <CountList title="DNC details" counts={view.dnc_status} />
      </SimpleGrid>
      {view.credits && <JobCreditsCard credits={view.credits} />}
      <Group>
        {isRemoved(view) ? null : <FileDownloads view={view} hasPart={hasPart} failed={failed} />}
        {!isRemoved(view) && (hasPart || view.status === 'completed') && (
          // The phone log reads the result a page at a time: the rows, one by one, with their answers.
          <Button
            variant="default"
            component={Link}
            to={`/phonelog?file=${encodeURIComponent(view.file_reference)}`}
          >
            Review rows
          </Button>
        )}
        <DeleteFileButton file={view} />
      </Group>
    </Stack>
  );
}

/** The upload and the result (or the part a cut-off job kept), while the file still has them. */
function FileDownloads({ view, hasPart, failed }: { view: FileView; hasPart: boolean; failed: boolean }) {
  return (
    <>
      {view.uploaded_file && (
        <Button variant="default" component="a" {...originalLink(view.file_reference, view.file_name)}>
          Download uploaded file
        </Button>
      )}
      {hasPart ? (
        <Button component="a" {...partLink(view.file_reference, view.file_name, {})}>
          Download scrubbed part
        </Button>
      ) : failed ? (
        <Button color="red" disabled>
          Failed
        </Button>
      ) : view.status === 'completed' ? (
        <Button component="a" {...resultLink(view.file_reference, view.file_name, {})}>
          Download output file
        </Button>
      ) : (
        // A link to a result not made yet would save the service's error as the file.
        <Button disabled>Results not ready</Button>
      )}
    </>
  );
}
