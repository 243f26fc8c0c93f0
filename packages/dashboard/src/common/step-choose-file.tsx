import { Alert, Button, CloseButton, Group, Paper, Stack, Text } from '@mantine/core';
import { Dropzone } from '@mantine/dropzone';
import { useRef, useState } from 'react';
import { CsvError, previewCsv } from '../csv/preview';
import { showErrorDialog } from '../shell/error-dialog';
import { FileIcon, UploadIcon } from '../shell/icons';
import type { WizardFile } from './wizard-state';

/** Browsers name a .csv's type differently (Windows says it is Excel's): the extension decides. */
const CSV_TYPES = { 'text/csv': ['.csv'], 'application/vnd.ms-excel': ['.csv'], 'text/plain': ['.csv'] };
const isCsv = (file: File) => file.name.toLowerCase().endsWith('.csv');

/** The bulk wizard's note under the file: the header row, and what a check costs. */
const BULK_NOTE =
  'Your CSV file must have a header row: otherwise the first row is taken as the header and is not processed (if it has none, answer No at the next step). Each phone number verification costs 1 credit.';

export function StepChooseFile({
  initial,
  onReady,
  note = BULK_NOTE,
}: {
  initial: File | null;
  onReady(file: WizardFile): void;
  /** What the screen says about the file under it; the bulk wizard's by default. */
  note?: string;
}) {
  const [file, setFile] = useState<File | null>(initial);
  const [rejected, setRejected] = useState(false);
  const [reading, setReading] = useState(false);
  const openRef = useRef<() => void>(null);

  const read = async () => {
    if (!file) return;
    setReading(true);
    try {
      const preview = await previewCsv(file, true);
      onReady({ file, preview, headerRow: true });
    } catch (error) {
      showErrorDialog('Attention', error instanceof CsvError ? error.message : 'Csv is empty');
      setFile(null);
    } finally {
      setReading(false);
    }
  };

  return (
    <Stack mt="md">
      <Dropzone
        openRef={openRef}
        accept={CSV_TYPES}
        multiple={false}
        validator={(candidate) =>
          isCsv(candidate) ? null : { code: 'file-invalid-type', message: 'Only .csv files are accepted' }
        }
        onDrop={(files) => {
          setRejected(false);
          setFile(files[0] ?? null);
        }}
        onReject={() => setRejected(true)}
        activateOnClick={false}
        aria-label="CSV file drop zone"
        data-testid="dropzone"
      >
        <Stack align="center" gap="xs" py="xl" style={{ pointerEvents: 'none' }}>
          <UploadIcon />
          <Text size="lg" fw={600}>
            Drag and drop your CSV file here
          </Text>
          <Text size="sm" c="dimmed">
            Only .csv files are accepted
          </Text>
        </Stack>
      </Dropzone>
      <Group justify="center">
        <Button variant="default" onClick={() => openRef.current?.()}>
          Or select file
        </Button>
      </Group>
      {rejected && (
        <Alert color="red" role="alert">
          Only .csv files are accepted. Please choose a CSV file.
        </Alert>
      )}
      {file && (
        <Paper withBorder p="sm">
          <Group justify="space-between">
            <Group gap="xs">
              <FileIcon />
              <Text data-testid="chosen-file">{file.name}</Text>
            </Group>
            <CloseButton aria-label="Remove file" onClick={() => setFile(null)} />
          </Group>
        </Paper>
      )}
      <Alert color="blue" variant="light" data-testid="file-note">
        {note}
      </Alert>
      <Group justify="flex-end">
        <Button onClick={read} disabled={!file} loading={reading}>
          Upload File
        </Button>
      </Group>
    </Stack>
  );
}
