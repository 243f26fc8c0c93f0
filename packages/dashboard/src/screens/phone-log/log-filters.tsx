import { Group, Select, TextInput } from '@mantine/core';
import type { CheckSource } from '@scrub/sdk';

/** The log's filters as the screen holds them: empty text or `all` is no filter. */
export interface LogFilters {
  number: string;
  lineType: string;
  dnc: 'all' | '0' | '1';
  from: string;
  to: string;
  source: 'all' | CheckSource;
}

export const NO_FILTERS: LogFilters = {
  number: '',
  lineType: 'all',
  dnc: 'all',
  from: '',
  to: '',
  source: 'all',
};

/** The filters as the service takes them (`GET /checks`, `GET /checks.csv`). */
export function filterParams(filters: LogFilters) {
  return {
    number: filters.number.trim() || undefined,
    line_type: filters.lineType === 'all' ? undefined : filters.lineType,
    dnc: filters.dnc === 'all' ? undefined : filters.dnc,
    from: filters.from || undefined,
    to: filters.to || undefined,
    source: filters.source === 'all' ? undefined : filters.source,
  };
}

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
const SOURCES = [
  { value: 'all', label: 'Every source' },
  { value: 'api_key', label: 'API key' },
  { value: 'token', label: 'Signed in' },
  { value: 'act_as', label: 'Admin acting' },
];

/** Number, line type, DNC, dates and source: each change asks the service again, from page 1. */
export function LogFilterFields({
  filters,
  onChange,
}: {
  filters: LogFilters;
  onChange(filters: LogFilters): void;
}) {
  const set = <K extends keyof LogFilters>(key: K, value: LogFilters[K]) =>
    onChange({ ...filters, [key]: value });
  return (
    <Group align="flex-end" wrap="wrap">
      <TextInput
        label="Number"
        type="search"
        value={filters.number}
        onChange={(event) => set('number', event.currentTarget.value)}
        w={200}
      />
      <Select
        label="Line type"
        data={LINE_TYPES}
        value={filters.lineType}
        onChange={(value) => set('lineType', value ?? 'all')}
        allowDeselect={false}
        w={160}
      />
      <Select
        label="DNC"
        data={DNC}
        value={filters.dnc}
        onChange={(value) => set('dnc', (value ?? 'all') as LogFilters['dnc'])}
        allowDeselect={false}
        w={160}
      />
      <TextInput
        label="From"
        type="date"
        value={filters.from}
        onChange={(event) => set('from', event.currentTarget.value)}
        w={160}
      />
      <TextInput
        label="To"
        type="date"
        value={filters.to}
        onChange={(event) => set('to', event.currentTarget.value)}
        w={160}
      />
      <Select
        label="Source"
        data={SOURCES}
        value={filters.source}
        onChange={(value) => set('source', (value ?? 'all') as LogFilters['source'])}
        allowDeselect={false}
        w={160}
      />
    </Group>
  );
}
