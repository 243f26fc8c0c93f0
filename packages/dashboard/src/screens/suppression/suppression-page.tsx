import { Alert, Button, Center, Group, Loader, Paper, Stack, Text, Textarea, Title } from '@mantine/core';
import type { DncChange, DncSummary } from '@scrub/sdk';
import { useState } from 'react';
import { errorMessage } from '../../api/error-message';
import { SearchBox, usePagedSearch } from '../../common/paged-search';
import { saveBlob } from '../../common/save-blob';
import {
  useAddSuppressed,
  useExportSuppressed,
  useImportSuppressed,
  useRemoveSuppressed,
  useSuppressedNumbers,
  useSuppressionSummary,
} from '../../data/suppression';
import { notifySuccess } from '../../shell/notify';
import { Pager } from '../../shell/pager';
import { ImportPanel } from './import-panel';
import { NumbersTable } from './numbers-table';

const PAGE_SIZE = 20;

/** Numbers as typed in the box: one a line, or separated by commas or semicolons. */
const numbersIn = (text: string) =>
  text
    .split(/[\n,;]+/)
    .map((number) => number.trim())
    .filter((number) => number !== '');

const plural = (n: number, one: string) => `${n.toLocaleString('en-US')} ${n === 1 ? one : `${one}s`}`;

/** What a change did, in one sentence; the numbers not read are listed under it. */
function changeSentence(change: DncChange, verb: 'added' | 'removed' | 'imported'): string {
  const done =
    verb === 'removed'
      ? `${plural(change.changed, 'number')} removed`
      : verb === 'imported'
        ? `${plural(change.changed, 'number')} changed`
        : `${plural(change.changed, 'number')} added`;
  const unread = change.rejected_count > 0 ? `, ${plural(change.rejected_count, 'number')} not read` : '';
  return `${done}${unread}. Your list holds ${plural(change.summary.count, 'number')}.`;
}

/** How many numbers the list holds, and how many more the operator imported for the account. */
function countSentence({ count, operator_count }: DncSummary): string {
  const imported =
    operator_count > 0 ? `, plus ${plural(operator_count, 'number')} imported for you by the operator` : '';
  return `${plural(count, 'number')} on your list${imported}.`;
}

function Rejected({ change }: { change: DncChange | null }) {
  if (!change || change.rejected.length === 0) return null;
  return (
    <Alert color="yellow" title="Not read" data-testid="dnc-rejected">
      <Stack gap={2}>
        {change.rejected.slice(0, 20).map((rejected) => (
          <Text key={rejected.index} size="sm">
            {rejected.input === undefined ? `Line ${rejected.index}` : `"${rejected.input}"`}:{' '}
            {rejected.message}
          </Text>
        ))}
      </Stack>
    </Alert>
  );
}

/** The account's own suppression list: add, remove, import, search, page and export its numbers. */
export default function SuppressionPage() {
  const [typed, setTyped] = useState('');
  const { search, debounced: debouncedSearch, page, setPage, onSearch } = usePagedSearch();
  const [lastChange, setLastChange] = useState<DncChange | null>(null);

  const params = { page, limit: PAGE_SIZE, search: debouncedSearch || undefined };
  const summary = useSuppressionSummary();
  const numbers = useSuppressedNumbers(params);

  const changed = (verb: 'added' | 'removed' | 'imported') => (change: DncChange) => {
    setLastChange(change);
    notifySuccess(changeSentence(change, verb));
  };
  const add = useAddSuppressed({
    onSuccess: (change) => {
      setTyped('');
      changed('added')(change);
    },
  });
  const remove = useRemoveSuppressed({ onSuccess: changed('removed') });
  const upload = useImportSuppressed({ onSuccess: changed('imported') });
  const exporting = useExportSuppressed({ onSuccess: (blob) => saveBlob(blob, 'suppression-list.csv') });
  const failed = add.error ?? remove.error ?? upload.error ?? exporting.error;
  const list = numbers.data;

  return (
    <Stack maw={900}>
      <div>
        <Title order={1}>Suppression list</Title>
        <Text c="dimmed">
          Numbers you never want called. Every check counts them as do-not-call (listed as “internal”) from
          the next check on.
        </Text>
      </div>
      <Text data-testid="dnc-count">{summary.data ? countSentence(summary.data) : 'Loading…'}</Text>
      {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      <Rejected change={lastChange} />
      <Paper withBorder p="md">
        <Stack>
          <Textarea
            label="Numbers to add"
            description="One a line, or separated by commas: (201) 555-0123, +1 201 555 0124"
            autosize
            minRows={2}
            maxRows={8}
            value={typed}
            onChange={(event) => setTyped(event.currentTarget.value)}
          />
          <Group>
            <Button
              onClick={() => add.mutate(numbersIn(typed))}
              loading={add.isPending}
              disabled={numbersIn(typed).length === 0}
            >
              Add numbers
            </Button>
          </Group>
        </Stack>
      </Paper>
      <ImportPanel
        onImport={(file, mode, phoneCol) => upload.mutate({ file, mode, phoneCol })}
        importing={upload.isPending}
        onExport={() => exporting.mutate()}
        exporting={exporting.isPending}
      />
      <SearchBox label="Search by digits" value={search} onSearch={onSearch} />
      {numbers.isPending && (
        <Center py="xl">
          <Loader aria-label="Loading numbers" />
        </Center>
      )}
      {list && list.numbers.length === 0 && (
        <Alert color="blue" variant="light">
          {debouncedSearch ? 'No number on your list contains those digits.' : 'Your list is empty.'}
        </Alert>
      )}
      {list && list.numbers.length > 0 && (
        <NumbersTable numbers={list.numbers} onRemove={(number) => remove.mutate([number])} />
      )}
      {list && list.total_pages > 1 && <Pager page={page} totalPages={list.total_pages} onPage={setPage} />}
    </Stack>
  );
}
