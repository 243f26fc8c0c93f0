import { Alert, Button, Group, Select, SimpleGrid, Stack } from '@mantine/core';
import { useState } from 'react';
import { PreviewTable } from '../../common/preview-table';
import type { WizardFile } from '../../common/wizard-state';

/** Columns as 0-based positions (text, for the selects); '' for the DNC column means Do Not Map. */
export interface ExistingMapping {
  phone: string;
  lineType: string;
  dnc: string;
}

/** A guess at the line type column by its header: offered first, never taken without the admin seeing it. */
/** The DNC select's own 'Do Not Map' option: a choice in the list, which a keyboard reaches like any other. */
const DO_NOT_MAP = 'none';

const guess = (headers: string[], pattern: RegExp) => {
  const index = headers.findIndex((header) => pattern.test(header));
  return index === -1 ? '' : String(index);
};

/**
 * Step 2 of Upload Existing Files: every upload has a header row; the phone and line type columns
 * are required, the DNC column optional; a column chosen for one is disabled in the others. Errors
 * show only once Process is clicked (seed 2).
 */
export function ExistingMapping({
  chosen,
  initial,
  onBack,
  onDone,
}: {
  chosen: WizardFile;
  initial: ExistingMapping | null;
  onBack(): void;
  onDone(mapping: ExistingMapping): void;
}) {
  const { headers } = chosen.preview;
  const [mapping, setMapping] = useState<ExistingMapping>(
    initial ?? {
      phone: chosen.preview.phoneColumn === null ? '' : String(chosen.preview.phoneColumn),
      lineType: guess(headers, /line.?type|^type$/i),
      dnc: guess(headers, /dnc|do.?not.?call/i),
    },
  );
  const [tried, setTried] = useState(false);
  const used = (except: keyof ExistingMapping) =>
    new Set(
      Object.entries(mapping).flatMap(([key, value]) => (key !== except && value !== '' ? [value] : [])),
    );
  const options = (field: keyof ExistingMapping) => {
    const taken = used(field);
    return headers.map((header, index) => ({
      value: String(index),
      label: header,
      disabled: taken.has(String(index)),
    }));
  };
  const set = (field: keyof ExistingMapping) => (value: string | null) =>
    setMapping({ ...mapping, [field]: value === null || value === DO_NOT_MAP ? '' : value });

  return (
    <Stack mt="md">
      <Alert color="blue" role="note">
        All uploads require a header row. Every row's line type is checked: mobile, landline, voip, toll free,
        invalid or unknown geographic. DNC cells may read 0 or clean, 1 or DNC, unchecked, or be blank, as
        Scrub's own result files write them. Nothing is charged.
      </Alert>
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Select
          label="Phone column"
          placeholder="Select Column"
          data={options('phone')}
          value={mapping.phone || null}
          onChange={set('phone')}
          error={tried && !mapping.phone ? 'Phone is required' : null}
        />
        <Select
          label="Line type column"
          placeholder="Select Column"
          data={options('lineType')}
          value={mapping.lineType || null}
          onChange={set('lineType')}
          error={tried && !mapping.lineType ? 'Line Type is required' : null}
        />
        <Select
          label="Do-not-call column"
          data={[{ value: DO_NOT_MAP, label: 'Do Not Map' }, ...options('dnc')]}
          value={mapping.dnc || DO_NOT_MAP}
          allowDeselect={false}
          onChange={set('dnc')}
        />
      </SimpleGrid>
      <Group>
        <Button variant="default" onClick={onBack}>
          Go Back
        </Button>
        <Button variant="default" onClick={onBack}>
          Cancel
        </Button>
        <Button
          onClick={() => {
            setTried(true);
            if (mapping.phone && mapping.lineType) onDone(mapping);
          }}
        >
          Process
        </Button>
      </Group>
      <PreviewTable preview={chosen.preview} />
    </Stack>
  );
}
