import {
  Alert,
  Button,
  Center,
  Group,
  Loader,
  SegmentedControl,
  Select,
  Stack,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import type { UsageParams } from '@scrub/sdk';
import { useState } from 'react';
import { useSearchParams } from 'react-router';
import { errorMessage } from '../../api/error-message';
import { readActing } from '../../auth/acting';
import { ADMIN_ROLES, hasRole } from '../../auth/use-session';
import { saveBlob } from '../../common/save-blob';
import { useOwnRole } from '../../data/account';
import { useExportUsage, useUsage } from '../../data/usage';
import { AdminAccountPicker } from './admin-account-picker';
import { UsageCharts } from './usage-charts';
import { AccountsTable, UsageStats } from './usage-stats';

const DAY_MS = 86_400_000;
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** The last 30 days, to today (UTC). */
function lastThirtyDays() {
  const today = Date.now();
  return { from: dayOf(today - 29 * DAY_MS), to: dayOf(today) };
}

/**
 * Client Performance (seed 000: the sidebar's button for every role): what the account used, by
 * day or week, drawn as charts, with a CSV download. An Agency picks one client or sees them all
 * with the total; an admin picks any account (kept in the address as `?account=ID`).
 */
export default function ClientPerformancePage() {
  const [range, setRange] = useState(lastThirtyDays);
  const [interval, setPeriod] = useState<'day' | 'week'>('day');
  const [search, setSearch] = useSearchParams();
  const account = search.get('account') ?? undefined;
  const rangeParams: UsageParams = { from: range.from || undefined, to: range.to || undefined, interval };
  // The accounts counted without a pick: an Agency's own and its clients', for the picker and the table.
  const everyone = useUsage(rangeParams);
  const picked = useUsage({ ...rangeParams, account });
  const report = account ? picked.data : everyone.data;
  const exporting = useExportUsage({ onSuccess: (blob) => saveBlob(blob, 'usage.csv') });
  const failed = (account ? picked.error : everyone.error) ?? exporting.error;
  const accounts = everyone.data?.accounts ?? [];
  // An admin (not acting as someone) reads any account's usage.
  const admin = hasRole(useOwnRole().data, ADMIN_ROLES) && !readActing();

  return (
    <Stack maw={1200}>
      <div>
        <Title order={1}>Client Performance</Title>
        <Text c="dimmed">
          Numbers checked by source, the line-type mix, the DNC hit rate and credits spent and bought, by day
          or week.
        </Text>
      </div>
      {failed && <Alert color="red">{errorMessage(failed)}</Alert>}
      <Group align="flex-end" wrap="wrap">
        <TextInput
          label="From"
          type="date"
          value={range.from}
          onChange={(event) => setRange({ ...range, from: event.currentTarget.value })}
          w={160}
        />
        <TextInput
          label="To"
          type="date"
          value={range.to}
          onChange={(event) => setRange({ ...range, to: event.currentTarget.value })}
          w={160}
        />
        <SegmentedControl
          aria-label="Interval"
          value={interval}
          onChange={(value) => setPeriod(value as 'day' | 'week')}
          data={[
            { value: 'day', label: 'By day' },
            { value: 'week', label: 'By week' },
          ]}
        />
        {admin && (
          <AdminAccountPicker
            account={account}
            onChange={(next) => setSearch(next ? { account: next } : {})}
          />
        )}
        {!admin && accounts.length > 1 && (
          <Select
            label="Client"
            data={[
              { value: '', label: 'All clients (total)' },
              ...accounts.map((a) => ({ value: a.id, label: a.name ? `${a.name} (${a.email})` : a.email })),
            ]}
            value={account ?? ''}
            onChange={(value) => setSearch(value ? { account: value } : {})}
            allowDeselect={false}
            w={280}
          />
        )}
        <Button
          variant="default"
          onClick={() => exporting.mutate({ ...rangeParams, account })}
          loading={exporting.isPending}
        >
          Download CSV
        </Button>
      </Group>
      {!report && !failed && (
        <Center py="xl">
          <Loader aria-label="Loading usage" />
        </Center>
      )}
      {report && (
        <>
          <UsageStats figures={report.total} />
          <UsageCharts report={report} />
          {!account && report.accounts.length > 1 && (
            <AccountsTable accounts={report.accounts} total={report.total} />
          )}
        </>
      )}
    </Stack>
  );
}
