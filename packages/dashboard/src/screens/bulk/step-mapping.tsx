import { zodResolver } from '@hookform/resolvers/zod';
import {
  Alert,
  Anchor,
  Button,
  Checkbox,
  Group,
  Radio,
  Select,
  SimpleGrid,
  Stack,
  Text,
  Title,
} from '@mantine/core';
import { mappableFields } from '@scrub/contract';
import type { CreditSnapshot } from '@scrub/sdk';
import { useEffect } from 'react';
import { type Control, Controller, useForm } from 'react-hook-form';
import { z } from 'zod';
import { PreviewTable } from '../../common/preview-table';
import { type ColumnMapping, fieldLabels, type WizardFile } from '../../common/wizard-state';
import { countRecordsInWorker } from '../../csv/count-records-in-worker';
import { headerLooksLikeData, previewCsv } from '../../csv/preview';
import { QuoteBanner } from './quote-banner';

const DO_NOT_MAP = '';

const MappingSchema = z.object({
  phone_col: z.string().min(1, 'Phone is required'),
  mapping: z.partialRecord(z.enum(mappableFields), z.string().optional()),
  consent_col: z.string().optional(),
  mapped_headers: z.boolean().optional(),
});

const guessedPhone = ({ preview }: WizardFile) =>
  preview.phoneColumn === null ? '' : String(preview.phoneColumn);

/** Whether the file's first row is its header, with what follows from the answer. */
function HeaderRowChoice({
  chosen,
  onHeaderRowChange,
  onBack,
}: {
  chosen: WizardFile;
  onHeaderRowChange(next: WizardFile): void;
  onBack(): void;
}) {
  // A "header" holding a phone number is a record: the seed's parser message, and the way out.
  const headerIsData = chosen.headerRow && headerLooksLikeData(chosen.preview.headers);

  const changeHeaderRow = async (value: string) => {
    const headerRow = value === 'yes';
    const preview = await previewCsv(chosen.file, headerRow);
    onHeaderRowChange({ ...chosen, preview, headerRow });
  };

  return (
    <>
      <Radio.Group
        label="Does Your CSV File Have A Header Row?"
        value={chosen.headerRow ? 'yes' : 'no'}
        onChange={changeHeaderRow}
      >
        <Group mt="xs">
          <Radio value="yes" label="Yes" />
          <Radio value="no" label="No" />
        </Group>
      </Radio.Group>
      {headerIsData && (
        <Alert color="yellow" role="status" data-testid="header-warning">
          Could not detect header. Ensure first row contains your column headers. Its first row holds a phone
          number: if that row is a record, answer No.
        </Alert>
      )}
      {!chosen.headerRow && (
        <Alert color="yellow" role="status">
          Without a header row, the first row is checked like the others and the columns are named Column 1,
          Column 2, and so on.{' '}
          <Anchor component="button" type="button" onClick={onBack} inherit>
            Click Here
          </Anchor>{' '}
          to start again with a file that has a header row.
        </Alert>
      )}
    </>
  );
}

type ColumnOption = { value: string; label: string; disabled?: boolean };

/** The phone column (required) and a column for each optional field, or Do Not Map. */
function ColumnSelects({
  control,
  optionsFor,
}: {
  control: Control<ColumnMapping>;
  optionsFor(current: string | undefined, optional: boolean): ColumnOption[];
}) {
  return (
    <>
      <Controller
        control={control}
        name="phone_col"
        render={({ field, fieldState }) => (
          <Select
            label="Select Column"
            description="The column that holds the phone numbers (required)"
            placeholder="Phone column"
            withAsterisk
            data={optionsFor(field.value, false)}
            value={field.value || null}
            onChange={(value) => field.onChange(value ?? '')}
            error={fieldState.error?.message}
            maw={360}
            data-testid="phone-column"
          />
        )}
      />
      <SimpleGrid cols={{ base: 1, sm: 2, md: 3 }}>
        {mappableFields.map((name) => (
          <Controller
            key={name}
            control={control}
            name={`mapping.${name}`}
            render={({ field }) => (
              <Select
                label={`${fieldLabels[name]} (optional)`}
                data={optionsFor(field.value, true)}
                value={field.value ?? DO_NOT_MAP}
                onChange={(value) => field.onChange(value ?? DO_NOT_MAP)}
                allowDeselect={false}
              />
            )}
          />
        ))}
      </SimpleGrid>
      <Controller
        control={control}
        name="consent_col"
        render={({ field }) => (
          <Select
            label="Consent Date (optional)"
            description="The date each number's owner gave consent: numbers disconnected since then are flagged as reassigned"
            data={optionsFor(field.value, true)}
            value={field.value ?? DO_NOT_MAP}
            onChange={(value) => field.onChange(value ?? DO_NOT_MAP)}
            allowDeselect={false}
            maw={360}
            data-testid="consent-column"
          />
        )}
      />
      <Controller
        control={control}
        name="mapped_headers"
        render={({ field }) => (
          <Checkbox
            label="Name the mapped columns with standard headers in the result (First Name, Email...)"
            description="Off: your columns come back with your own headers"
            checked={field.value === true}
            onChange={(event) => field.onChange(event.currentTarget.checked)}
          />
        )}
      />
    </>
  );
}

export function StepMapping({
  chosen,
  credits,
  initial,
  records,
  onLines,
  onHeaderRowChange,
  onBack,
  onDone,
}: {
  chosen: WizardFile;
  credits: CreditSnapshot;
  initial: ColumnMapping | null;
  records: number | null;
  onLines(lines: number): void;
  onHeaderRowChange(next: WizardFile): void;
  onBack(): void;
  onDone(mapping: ColumnMapping): void;
}) {
  const form = useForm<ColumnMapping>({
    resolver: zodResolver(MappingSchema),
    // The engine's guess is offered first; people change it when it is wrong.
    defaultValues: initial ?? { phone_col: guessedPhone(chosen), mapping: {} },
  });
  const values = form.watch();

  // The whole file is streamed once for the count, in a Web Worker; the preview never waits for it.
  useEffect(() => {
    const abort = new AbortController();
    countRecordsInWorker(chosen.file, abort.signal).then(onLines, () => undefined);
    return () => abort.abort();
  }, [chosen.file, onLines]);

  const columns = chosen.preview.headers.map((header, index) => ({ value: String(index), label: header }));
  const used = new Set(
    [values.phone_col, values.consent_col, ...Object.values(values.mapping ?? {})].filter(Boolean),
  );
  // A column already chosen for one field is disabled in the others.
  const optionsFor = (current: string | undefined, optional: boolean) => [
    ...(optional ? [{ value: DO_NOT_MAP, label: 'Do Not Map' }] : []),
    ...columns.map((column) => ({
      ...column,
      disabled: column.value !== current && used.has(column.value),
    })),
  ];
  return (
    <form onSubmit={form.handleSubmit(onDone)} noValidate>
      <Stack mt="md">
        <HeaderRowChoice chosen={chosen} onHeaderRowChange={onHeaderRowChange} onBack={onBack} />
        <Group>
          <Button variant="default" onClick={onBack}>
            Go Back
          </Button>
        </Group>
        <Title order={2} size="h4">
          Map your columns
        </Title>
        <ColumnSelects control={form.control} optionsFor={optionsFor} />
        <QuoteBanner records={records} credits={credits} />
        <Group justify="flex-end">
          <Button variant="default" onClick={onBack}>
            Cancel
          </Button>
          {/* Short of credits still goes on: step 3 says so in red and links to buying more (seed 2). */}
          <Button type="submit" disabled={records === null}>
            Process
          </Button>
        </Group>
        <Text fw={600}>Preview</Text>
        <PreviewTable preview={chosen.preview} />
      </Stack>
    </form>
  );
}
