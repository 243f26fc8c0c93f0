import { Anchor, Button, Group, Paper, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { CreateBulkJobSchema, messages } from '@scrub/contract';
import {
  APIConnectionError,
  APIUserAbortError,
  type BulkJobCreateParams,
  type CreditSnapshot,
} from '@scrub/sdk';
import { useRef, useState } from 'react';
import { Link } from 'react-router';
import type { ColumnMapping, WizardFile } from '../../common/wizard-state';
import { creditsLeft, isUnlimited } from '../../credits/format-credits';
import { createBulkJob, submitBulkJob, uploadBulkFile } from '../../data/bulk';
import { useRecordPrice } from '../../data/service';
import { notifyJobQueued } from '../../shell/notify';
import { type JobChoices, JobOptions, jobChoicesPayload, NO_CHOICES, useLookupPrice } from './job-options';
import { clearPendingUpload, savePendingUpload } from './pending-upload';
import { insufficientDialog, showSubmitError } from './submit-errors';
import { SummaryDncLists } from './summary-dnc-lists';
import { UploadProgress } from './upload-progress';

const today = () => new Date().toISOString().slice(0, 10);

/**
 * The consent-date column as the bulk option `consent_col` takes it: its header, or its position
 * when the file has no header row (its columns have no names then); absent when not mapped.
 */
function consentColumn(chosen: WizardFile, mapping: ColumnMapping): { consent_col?: string | number } {
  if (!mapping.consent_col) return {};
  const position = Number(mapping.consent_col);
  return { consent_col: chosen.headerRow ? (chosen.preview.headers[position] ?? position) : position };
}

/** The job as the contract takes it: columns by position, unmapped fields left out. */
const jobPayload = (
  chosen: WizardFile,
  mapping: ColumnMapping,
  choices: JobChoices,
): BulkJobCreateParams => ({
  ...CreateBulkJobSchema.parse({
    file_name: chosen.file.name,
    phone_col: Number(mapping.phone_col),
    header_row: chosen.headerRow ? 1 : 0,
    mapping: Object.fromEntries(
      Object.entries(mapping.mapping)
        .filter(([, column]) => column)
        .map(([field, column]) => [field, Number(column)]),
    ),
    ...consentColumn(chosen, mapping),
    ...jobChoicesPayload(choices),
  }),
  // Sent only when asked: the job as before otherwise.
  mapped_headers: mapping.mapped_headers === true ? true : undefined,
});

/** The summary's facts as a definition list, each value with a test id named after its label. */
function SummaryList({ rows }: { rows: [string, React.ReactNode][] }) {
  return (
    <SimpleGrid cols={2} spacing="xs" component="dl" style={{ margin: 0 }}>
      {rows.map(([label, value]) => (
        <div key={label} style={{ display: 'contents' }}>
          <Text component="dt" c="dimmed">
            {label}
          </Text>
          <Text
            component="dd"
            m={0}
            fw={600}
            data-testid={`summary-${label.toLowerCase().replace(/ /g, '-')}`}
          >
            {value}
          </Text>
        </div>
      ))}
    </SimpleGrid>
  );
}

/** Creates the job, uploads the file with its progress, and submits it; cancelled by `cancel`. */
function useSendJob(
  chosen: WizardFile,
  mapping: ColumnMapping,
  choices: JobChoices,
  records: number,
  onDone: (fileReference: string) => void,
) {
  const [working, setWorking] = useState(false);
  const [progress, setProgress] = useState<number | null>(null);
  const cancel = useRef<AbortController | null>(null);

  const process = async () => {
    const payload = jobPayload(chosen, mapping, choices);
    const abort = new AbortController();
    cancel.current = abort;
    setWorking(true);
    try {
      const job = await createBulkJob(payload);
      // Kept until the submit, so that a reload meanwhile can offer to finish this job.
      if (job.upload_url) savePendingUpload(job.job_id, job.upload_url, chosen.file);
      setProgress(0);
      // In parts, read from the File one at a time: a dropped connection resends only what is missing.
      await uploadBulkFile(job, chosen.file, {
        signal: abort.signal,
        onProgress: (sent, total) => setProgress(total ? (sent / total) * 100 : 0),
        onUpload: (started) => {
          if (job.upload_url) savePendingUpload(job.job_id, job.upload_url, chosen.file, started.upload_id);
        },
      });
      const submitted = await submitBulkJob(job.job_id);
      clearPendingUpload();
      // The submit's news, not the create's instructions to a script (seed 2: 'Success' with the message).
      notifyJobQueued(messages.jobQueued, submitted.file_reference);
      onDone(submitted.file_reference);
    } catch (error) {
      // Cancelled or refused: the job is left unsubmitted (never charged), not to be resumed. A
      // broken connection (the page going away mid-upload, the network dropping) keeps it offered.
      if (!(error instanceof APIConnectionError)) clearPendingUpload();
      if (error instanceof APIUserAbortError) return;
      showSubmitError(error, records);
    } finally {
      setWorking(false);
      setProgress(null);
      cancel.current = null;
    }
  };

  return { working, progress, process, cancel: () => cancel.current?.abort() };
}

/** Step 3: what is about to be sent, then create the job, upload the file, submit. */
export function StepSummary({
  chosen,
  mapping,
  records,
  credits,
  onBack,
  onDone,
}: {
  chosen: WizardFile;
  mapping: ColumnMapping;
  records: number;
  credits: CreditSnapshot;
  onBack(): void;
  /** Called with the submitted job's file reference. */
  onDone(fileReference: string): void;
}) {
  const unlimited = isUnlimited(credits);
  const [choices, setChoices] = useState(NO_CHOICES);
  // With a consent-date column each record also pays for its reassigned-number answer, and with
  // a carrier lookup for its lookup.
  const required = records * (useRecordPrice(Boolean(mapping.consent_col)) + useLookupPrice(choices));
  const enough = unlimited || creditsLeft(credits) >= required;
  const phoneHeader = chosen.preview.headers[Number(mapping.phone_col)] ?? '';
  const { working, progress, process, cancel } = useSendJob(chosen, mapping, choices, records, onDone);
  const start = () => {
    // The same check again at submit time (seed 2); the server makes it once more when it charges.
    if (!enough) return insufficientDialog(required, creditsLeft(credits));
    void process();
  };

  const rows: [string, React.ReactNode][] = [
    ['File name', chosen.file.name],
    ['Uploaded at', today()],
    ['Total records', records.toLocaleString('en-US')],
    ['Phone column', phoneHeader],
    ...(mapping.consent_col
      ? [
          ['Consent date column', chosen.preview.headers[Number(mapping.consent_col)] ?? ''] as [
            string,
            string,
          ],
        ]
      : []),
    ['Credits required', unlimited ? 0 : required.toLocaleString('en-US')],
    [
      'Your credits',
      <Text
        key="credits"
        c={enough ? 'var(--scrub-ok-text)' : 'var(--scrub-bad-text)'}
        fw={700}
        component="span"
      >
        {unlimited ? '(Unlimited)' : creditsLeft(credits).toLocaleString('en-US')}
      </Text>,
    ],
  ];

  return (
    <Stack mt="md" maw={640}>
      <Paper withBorder p="lg">
        <Title order={2} size="h4" mb="sm">
          Summary
        </Title>
        <SummaryList rows={rows} />
      </Paper>
      <SummaryDncLists />
      <JobOptions value={choices} onChange={setChoices} />
      {!enough && (
        <Text c="var(--scrub-bad-text)">
          It looks like you don't have enough credits.{' '}
          <Anchor component={Link} to="/purchase" inherit>
            Click here to add more.
          </Anchor>
        </Text>
      )}
      {progress !== null && <UploadProgress progress={progress} testId="upload-progress" />}
      <Group justify="flex-end">
        {working ? (
          <Button variant="default" color="red" onClick={cancel}>
            Cancel upload
          </Button>
        ) : (
          <Button variant="default" onClick={onBack}>
            Go Back
          </Button>
        )}
        <Button onClick={start} disabled={working || !enough} data-testid="process-records">
          {working ? 'Processing...' : 'Process Records'}
        </Button>
      </Group>
    </Stack>
  );
}
