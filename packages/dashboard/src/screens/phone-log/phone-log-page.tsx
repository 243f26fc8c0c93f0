import { Alert, Button, Center, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { saveBlob } from '../../common/save-blob';
import { useCheckLog, useExportCheckLog } from '../../data/checks';
import { Pager } from '../../shell/pager';
import { ChecksTable } from './checks-table';
import { filterParams, LogFilterFields, type LogFilters, NO_FILTERS } from './log-filters';
import { ResultReview } from './result-review';

const PAGE_SIZE = 50;

/**
 * The phone log (seed 000: "a phone log page lets results be reviewed one at a time"): every single
 * check of the account, and any bulk result row by row (`?file=REFERENCE`, File detail's "Review
 * rows"), both filtered and paged on the service.
 */
export default function PhoneLogPage() {
  const [params, setParams] = useSearchParams();
  const reference = params.get('file');
  const [tab, setTab] = useState(reference === null ? 'checks' : 'files');
  return (
    <Stack maw={1100}>
      <div>
        <Title order={1}>Phone log</Title>
        <Text c="dimmed">
          Every number you checked one at a time, by API, batch or the API page: its answer, when, how it came
          in and what it cost. Bulk results: any file's rows, one by one.
        </Text>
      </div>
      <Tabs value={tab} onChange={(value) => setTab(value ?? 'checks')}>
        <Tabs.List>
          <Tabs.Tab value="checks">Single checks</Tabs.Tab>
          <Tabs.Tab value="files">Bulk results</Tabs.Tab>
        </Tabs.List>
        <Tabs.Panel value="checks" pt="md">
          <SingleChecks />
        </Tabs.Panel>
        <Tabs.Panel value="files" pt="md">
          <ResultReview
            reference={reference ?? ''}
            onPick={(next) => setParams(next === '' ? {} : { file: next }, { replace: true })}
          />
        </Tabs.Panel>
      </Tabs>
    </Stack>
  );
}

/** Every single check of the account, newest first, with a CSV download of every check the filters keep. */
function SingleChecks() {
  const [filters, setFilters] = useState<LogFilters>(NO_FILTERS);
  const [page, setPage] = useState(1);
  const [debounced] = useDebouncedValue(filters, 300);
  const params = filterParams(debounced);
  const log = useCheckLog({ ...params, page, limit: PAGE_SIZE });
  const exporting = useExportCheckLog({ onSuccess: (blob) => saveBlob(blob, 'phone-log.csv') });
  const failed = log.error ?? exporting.error;
  const list = log.data;

  return (
    <Stack>
      {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      <LogFilterFields
        filters={filters}
        onChange={(next) => {
          setFilters(next);
          setPage(1);
        }}
      />
      <Group>
        <Button variant="default" onClick={() => exporting.mutate(params)} loading={exporting.isPending}>
          Download CSV
        </Button>
        {list && (
          <Text
            size="sm"
            data-testid="checks-total"
          >{`${list.total.toLocaleString('en-US')} ${list.total === 1 ? 'check' : 'checks'}`}</Text>
        )}
      </Group>
      {log.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading checks" />
        </Center>
      )}
      {list && list.checks.length === 0 && (
        <Alert color="blue" variant="light">
          No check matches these filters.
        </Alert>
      )}
      {list && list.checks.length > 0 && <ChecksTable checks={list.checks} />}
      {list && list.total_pages > 1 && <Pager page={page} totalPages={list.total_pages} onPage={setPage} />}
    </Stack>
  );
}
