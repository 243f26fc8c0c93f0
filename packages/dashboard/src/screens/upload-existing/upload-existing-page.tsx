import { Button, Group, List, Paper, Stack, Stepper, Text, Title } from '@mantine/core';
import { APIError, type FileView } from '@scrub/sdk';
import { useEffect, useState } from 'react';
import { Link } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { LoadingAccount, NotAllowedYet } from '../../common/account-gate';
import { StepChooseFile } from '../../common/step-choose-file';
import type { WizardFile } from '../../common/wizard-state';
import { useCredits } from '../../data/account';
import { useUploadExisting } from '../../data/files';
import { showErrorDialog } from '../../shell/error-dialog';
import { ExistingMapping, type ExistingMapping as Mapping } from './existing-mapping';

/** Step 3: what will be stored; the service checks every row before anything is kept. */
function Summary({
  chosen,
  mapping,
  onBack,
  onStored,
}: {
  chosen: WizardFile;
  mapping: Mapping;
  onBack(): void;
  onStored(file: FileView): void;
}) {
  const header = (column: string) => chosen.preview.headers[Number(column)] ?? '';
  const store = useUploadExisting({
    onSuccess: onStored,
    onError: (error) => {
      const issues = error instanceof APIError ? (error.issues ?? []) : [];
      showErrorDialog(
        'Error',
        issues.length > 0 ? (
          <Stack gap="xs">
            <Text>Nothing was stored. Fix these rows and upload the file again:</Text>
            <List size="sm">
              {issues.map((issue) => (
                <List.Item key={issue.message}>{issue.message}</List.Item>
              ))}
            </List>
          </Stack>
        ) : (
          errorMessage(error, 'An Error Occurred')
        ),
      );
    },
  });
  return (
    <Paper withBorder p="lg" mt="md">
      <Stack gap={4}>
        <Text>
          <b>Filename:</b> {chosen.file.name}
        </Text>
        <Text>
          <b>Uploaded at:</b> {new Date().toISOString().slice(0, 10)}
        </Text>
        <Text>
          <b>Phone column:</b> {header(mapping.phone)}
        </Text>
        <Text>
          <b>Line type column:</b> {header(mapping.lineType)}
        </Text>
        <Text>
          <b>DNC column:</b> {mapping.dnc ? header(mapping.dnc) : 'Do Not Map'}
        </Text>
        <Text>
          <b>Credits required:</b> 0 (the file was scrubbed already)
        </Text>
      </Stack>
      <Group mt="md">
        <Button variant="default" onClick={onBack} disabled={store.isPending}>
          Go Back
        </Button>
        <Button
          onClick={() =>
            store.mutate({
              file: chosen.file,
              columns: {
                phone_col: Number(mapping.phone),
                line_type_col: Number(mapping.lineType),
                ...(mapping.dnc ? { dnc_col: Number(mapping.dnc) } : {}),
              },
            })
          }
          loading={store.isPending}
        >
          {store.isPending ? 'Processing...' : 'Process Records'}
        </Button>
      </Group>
    </Paper>
  );
}

/** Step 1's note, in step 2's words: a header row always, and nothing charged. */
export const EXISTING_NOTE =
  'All uploads require a header row. The file was scrubbed already (a Scrub result file is fine as it is): nothing is charged.';

/** Upload Existing Files (seed 2): the bulk wizard for a file scrubbed elsewhere, stored as Direct DB. */
export default function UploadExistingPage() {
  const credits = useCredits();
  const [step, setStep] = useState(0);
  const [chosen, setChosen] = useState<WizardFile | null>(null);
  const [mapping, setMapping] = useState<Mapping | null>(null);
  const [stored, setStored] = useState<FileView | null>(null);
  // biome-ignore lint/correctness/useExhaustiveDependencies: the step is the trigger, not an input
  useEffect(() => {
    window.scrollTo(0, 0);
  }, [step]);

  if (!credits.data) return <LoadingAccount />;
  // Seed 2: gated on the plan status being active only (nothing is charged).
  if (credits.data.user_plan.plan_status !== 'active' && step === 0) {
    return <NotAllowedYet title="Upload Existing Files" remedy="activate" />;
  }
  const restart = () => {
    setChosen(null);
    setMapping(null);
    setStep(0);
  };

  return (
    <Stack maw={1100}>
      <Title order={1}>Upload Existing Files</Title>
      <Stepper active={step} size="sm" allowNextStepsSelect={false}>
        <Stepper.Step label="Upload" description="Choose a CSV">
          <StepChooseFile
            note={EXISTING_NOTE}
            initial={chosen?.file ?? null}
            onReady={(file) => {
              setChosen(file);
              setMapping(null);
              setStep(1);
            }}
          />
        </Stepper.Step>
        <Stepper.Step label="Map" description="Columns">
          {chosen && (
            <ExistingMapping
              chosen={chosen}
              initial={mapping}
              onBack={restart}
              onDone={(next) => {
                setMapping(next);
                setStep(2);
              }}
            />
          )}
        </Stepper.Step>
        <Stepper.Step label="Summary" description="Check and store">
          {chosen && mapping && (
            <Summary
              chosen={chosen}
              mapping={mapping}
              onBack={() => setStep(1)}
              onStored={(file) => {
                setStored(file);
                setStep(3);
              }}
            />
          )}
        </Stepper.Step>
        <Stepper.Completed>
          <Stack align="center" py="lg" data-testid="existing-stored">
            <Title order={2}>Thank You!</Title>
            <Text>
              {stored?.file_name} is stored with its {stored?.total_records.toLocaleString('en-US')} records,
              charged nothing. It is listed on Export as Direct DB.
            </Text>
            <Button component={Link} to="/export">
              Check File Status
            </Button>
          </Stack>
        </Stepper.Completed>
      </Stepper>
    </Stack>
  );
}
