import { Alert, Center, Group, Loader, Select, Stack, Text, Title } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import type { LineType } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import type { ResultFilter } from '../../common/download-file';
import { SearchBox, usePagedSearch } from '../../common/paged-search';
import { useFiles } from '../../data/files';
import { Pager } from '../../shell/pager';
import { FileCards, FileTable } from './file-list';

/** Seed 2: ten files a page. */
const PAGE_SIZE = 10;

const lineTypes = [
  { value: 'all', label: 'All' },
  { value: 'mobile', label: 'Mobile' },
  { value: 'landline', label: 'Landline' },
  { value: 'invalid', label: 'Invalid' },
  { value: 'toll_free', label: 'Toll free' },
  { value: 'voip', label: 'VoIP' },
];
const dncValues = [
  { value: 'all', label: 'All' },
  { value: '0', label: 'Clean' },
  { value: '1', label: 'DNC' },
];

const callableValues = [
  { value: 'all', label: 'All' },
  { value: '1', label: 'Callable now' },
  { value: '0', label: 'Not callable now' },
];

/** An empty list: no file at all yet, or none whose name matches the search. */
export function emptyListText(search: string): string {
  return search
    ? `No files match "${search}". Clear the search to see every file.`
    : 'No files yet. Upload a CSV on the Bulk Upload page.';
}

export default function ExportPage() {
  const [lineType, setLineType] = useState('all');
  const [dnc, setDnc] = useState('all');
  const [callable, setCallable] = useState('all');
  const { search, debounced: debouncedSearch, page, setPage, onSearch } = usePagedSearch();
  const wide = useMediaQuery('(min-width: 600px)', true);

  const params = { page, limit: PAGE_SIZE, search: debouncedSearch || undefined };
  const files = useFiles(params);

  const filter: ResultFilter = {
    lineType: lineType === 'all' ? undefined : (lineType as LineType),
    dnc: dnc === 'all' ? undefined : (dnc as '0' | '1'),
    callableNow: callable === 'all' ? undefined : (callable as '0' | '1'),
  };
  const list = files.data;
  const first = (page - 1) * PAGE_SIZE + 1;

  return (
    <Stack maw={1200}>
      <div>
        <Title order={1}>Export</Title>
        <Text c="dimmed">Uploaded Files</Text>
      </div>
      <Group align="flex-end" wrap="wrap">
        <Select
          label="Line type"
          data={lineTypes}
          value={lineType}
          onChange={(value) => setLineType(value ?? 'all')}
          allowDeselect={false}
          w={180}
          data-testid="line-type-filter"
        />
        <Select
          label="DNC"
          data={dncValues}
          value={dnc}
          onChange={(value) => setDnc(value ?? 'all')}
          allowDeselect={false}
          w={140}
        />
        <Select
          label="Calling window"
          data={callableValues}
          value={callable}
          onChange={(value) => setCallable(value ?? 'all')}
          allowDeselect={false}
          w={180}
          data-testid="calling-window-filter"
        />
        <SearchBox label="Search by file name" value={search} onSearch={onSearch} />
      </Group>
      <Text size="sm" c="dimmed">
        The line type, DNC and calling window filters apply to the exported CSV (Get CSV). Set them to All to
        see all results. The calling window is as of when the file was scrubbed, for files scrubbed with it.
      </Text>
      {files.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading files" />
        </Center>
      )}
      {files.isError && <Alert color="red">{errorMessage(files.error)}</Alert>}
      {list && list.files.length === 0 && (
        <Alert color="blue" variant="light">
          {emptyListText(debouncedSearch)}
        </Alert>
      )}
      {list &&
        list.files.length > 0 &&
        (wide ? (
          <FileTable files={list.files} first={first} filter={filter} />
        ) : (
          <FileCards files={list.files} first={first} filter={filter} />
        ))}
      {list && list.total_pages > 1 && <Pager page={page} totalPages={list.total_pages} onPage={setPage} />}
    </Stack>
  );
}
