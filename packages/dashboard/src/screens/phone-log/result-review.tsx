import { Alert, Center, Group, Loader, Select, Stack, Text, TextInput } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { useFiles, useResultRows } from '../../data/files';
import { Pager } from '../../shell/pager';
import { ResultRowsTable } from './result-rows-table';

const PAGE_SIZE = 50;

const LINE_TYPES = [
  { value: 'all', label: 'All line types' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'landline', label: 'Landline' },
  { value: 'voip', label: 'VoIP' },
  { value: 'toll_free', label: 'Toll free' },
  { value: 'invalid', label: 'Invalid' },
];
const DNC = [
  { value: 'all', label: 'DNC and clean' },
  { value: '1', label: 'DNC only' },
  { value: '0', label: 'Clean only' },
];

/** The account's files with a result to review, newest first, for the picker. */
function useReviewableFiles() {
  const files = useFiles({ limit: 100 });
  const data = (files.data?.files ?? [])
    .filter((file) => file.status === 'completed' || file.part_url !== null)
    .map((file) => ({
      value: file.file_reference,
      label: `${file.file_name} (${file.created_at.slice(0, 10)})`,
    }));
  return { data, error: files.error };
}

/**
 * A bulk result reviewed row by row: a page at a time, read on the service from the stored result
 * (the browser never gets the whole file), with the number's answer and the mapped name and e-mail,
 * filtered by line type and DNC and searched by number, name or e-mail.
 */
export function ResultReview({ reference, onPick }: { reference: string; onPick(reference: string): void }) {
  const files = useReviewableFiles();
  const [search, setSearch] = useState('');
  const [lineType, setLineType] = useState('all');
  const [dnc, setDnc] = useState<'all' | '0' | '1'>('all');
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(search.trim(), 300);
  const rows = useResultRows(reference, {
    page,
    per_page: PAGE_SIZE,
    ...(debounced === '' ? {} : { search: debounced }),
    ...(lineType === 'all' ? {} : { line_type: lineType }),
    ...(dnc === 'all' ? {} : { dnc }),
  });
  const reset =
    <T,>(set: (value: T) => void) =>
    (value: T) => {
      set(value);
      setPage(1);
    };
  const list = rows.data;
  const failed = files.error ?? rows.error;

  return (
    <Stack>
      <Group align="flex-end" wrap="wrap">
        <Select
          label="File"
          placeholder="Pick a file"
          data={
            files.data.some((file) => file.value === reference) || reference === ''
              ? files.data
              : [{ value: reference, label: reference }, ...files.data]
          }
          value={reference || null}
          onChange={(value) => {
            onPick(value ?? '');
            setPage(1);
          }}
          searchable
          w={320}
        />
        <TextInput
          label="Search"
          type="search"
          placeholder="Number, name or e-mail"
          value={search}
          onChange={(event) => reset(setSearch)(event.currentTarget.value)}
          w={220}
        />
        <Select
          label="Line type"
          data={LINE_TYPES}
          value={lineType}
          onChange={(value) => reset(setLineType)(value ?? 'all')}
          allowDeselect={false}
          w={160}
        />
        <Select
          label="DNC"
          data={DNC}
          value={dnc}
          onChange={(value) => reset(setDnc)((value ?? 'all') as 'all' | '0' | '1')}
          allowDeselect={false}
          w={160}
        />
      </Group>
      {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      {reference === '' && <Text c="dimmed">Pick a file to review its rows.</Text>}
      {reference !== '' && rows.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading rows" />
        </Center>
      )}
      {list && (
        <Text size="sm" data-testid="rows-total">
          {`${list.total_rows.toLocaleString('en-US')} ${list.total_rows === 1 ? 'row' : 'rows'}`}
        </Text>
      )}
      {list && list.rows.length === 0 && (
        <Alert color="blue" variant="light">
          No row matches these filters.
        </Alert>
      )}
      {list && list.rows.length > 0 && <ResultRowsTable page={list} />}
      {list && list.total_pages > 1 && <Pager page={page} totalPages={list.total_pages} onPage={setPage} />}
    </Stack>
  );
}
