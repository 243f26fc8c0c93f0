import { Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import type { FileView } from '@scrub/sdk';
import { Link } from 'react-router';
import { JobCreditsCard } from '../../credits/job-credits';
import { useFollowedFile } from '../../data/files';

/** Where the job is, in a sentence: its credits are final only once it has ended. */
function jobState(file: FileView): string {
  if (file.status === 'completed') return 'Your file is ready. These are its final credits.';
  if (file.status === 'failed') return 'The job failed. Whatever it was not able to scrub was given back.';
  return 'Scrubbing… What is given back (duplicates, invalid numbers) is counted when the job ends.';
}

/**
 * The wizard's last step: the job is queued; it is followed until it ends, with its credits as the
 * ledger has them (charged, given back by reason, and net), as on Export and File detail.
 */
export function StepThankYou({ fileReference }: { fileReference: string }) {
  const file = useFollowedFile(fileReference);
  return (
    <Stack mt="md" maw={640}>
      <Paper withBorder p="xl">
        <Stack>
          <Title order={2}>Thank You!</Title>
          <Text>
            Your file is queued. It can take up to 20 minutes depending on the number of records; we will
            e-mail you when it is ready (check your junk/spam folder).
          </Text>
          <Group>
            <Button component={Link} to="/export" w="fit-content">
              Check File Status
            </Button>
            <Button
              variant="default"
              component={Link}
              to={`/fileinfo?file_reference=${encodeURIComponent(fileReference)}`}
            >
              View file
            </Button>
          </Group>
        </Stack>
      </Paper>
      {file.data ? (
        <>
          <Text size="sm" role="status" data-testid="job-state">
            {jobState(file.data)}
          </Text>
          {file.data.credits && <JobCreditsCard credits={file.data.credits} />}
        </>
      ) : (
        <Loader size="sm" aria-label="Loading the job's credits" />
      )}
    </Stack>
  );
}
