import { Button, FileButton, Group, Paper, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import type { DncImportMode } from '@scrub/sdk';
import { useState } from 'react';

/** The phone column as typed: a position (0 is the first column) or a header name. */
const phoneColumn = (typed: string): string | number => {
  const column = typed.trim() || '0';
  return /^\d+$/.test(column) ? Number(column) : column;
};

/** Upload a CSV of numbers (merged into the list or replacing it), and export the list. */
export function ImportPanel({
  onImport,
  importing,
  onExport,
  exporting,
}: {
  onImport(file: File, mode: DncImportMode, phoneCol: string | number): void;
  importing: boolean;
  onExport(): void;
  exporting: boolean;
}) {
  const [mode, setMode] = useState<DncImportMode>('merge');
  const [phoneCol, setPhoneCol] = useState('0');
  return (
    <Paper withBorder p="md">
      <Stack>
        <Text fw={600}>Upload a CSV</Text>
        <Text size="sm" c="dimmed">
          Up to 1 MB. Name the phone column by its header (the file then has a header row) or by its position
          (0 is the first column). Merge adds the numbers to your list; Replace makes them your whole list.
        </Text>
        <Group align="flex-end">
          <TextInput
            label="Phone column"
            value={phoneCol}
            onChange={(event) => setPhoneCol(event.currentTarget.value)}
            w={160}
          />
          <SegmentedControl
            aria-label="Import mode"
            value={mode}
            onChange={(value) => setMode(value as DncImportMode)}
            data={[
              { value: 'merge', label: 'Merge' },
              { value: 'replace', label: 'Replace' },
            ]}
          />
          <FileButton
            onChange={(file) => file && onImport(file, mode, phoneColumn(phoneCol))}
            accept=".csv,text/csv,text/plain"
          >
            {(props) => (
              <Button {...props} variant="light" loading={importing}>
                Choose CSV
              </Button>
            )}
          </FileButton>
          <Button variant="default" onClick={onExport} loading={exporting}>
            Export CSV
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}
