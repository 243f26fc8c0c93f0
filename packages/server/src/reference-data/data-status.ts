import { type ImportMode, sampleExchangeTable } from '@scrub/engine';
import Table from 'cli-table3';
import { type ExchangeKind, kindOfPart } from './data-import.js';
import {
  type DatasetStore,
  EXCHANGE,
  EXCHANGE_PARTS,
  type ExchangeSources,
  FEDERAL,
  type SourceFile,
  type VersionMeta,
} from './dataset-store.js';
import { DAY_MS, DEFAULT_DNC_MAX_AGE_DAYS, dayStart, isAgedList } from './dnc-age.js';

export interface DatasetFile {
  kind: ExchangeKind;
  name: string;
  version: string;
  mode: ImportMode;
  imported_at: string;
}

/** One line of `scrub-server data status`, as `--json` prints it. */
export interface DatasetStatus {
  dataset: string;
  /** `staged`: exchange parts waiting for their pair; `unreadable`: the version named live cannot be read. */
  state: 'imported' | 'sample' | 'staged' | 'none' | 'unreadable';
  version: string | null;
  source: 'imported' | 'sample' | null;
  /** Exchange data: exchanges by answer, blocks, numbers; a list: numbers and exchanges. */
  counts: Record<string, number>;
  imported_at: string | null;
  /** Bytes the tables take in memory (and on disk), once loaded. */
  bytes: number | null;
  /** The version kept for one step. */
  previous_version: string | null;
  /** The files exchange data is built from (or, staged, waits with). */
  files?: DatasetFile[];
  /** Staged: the parts still needed. */
  missing?: ExchangeKind[];
  /** An internal list's account. */
  account?: { id: string; email: string | null };
  /**
   * Federal and state lists: the release date recorded at import (null: not recorded, so stale),
   * whole days since, and whether that is past the maximum age (SCRUB_DNC_MAX_AGE_DAYS). An
   * operator list (`list:<name>`): its release date when one was given, never aged.
   */
  released_on?: string | null;
  age_days?: number | null;
  stale?: boolean;
  /** Disconnections: the last day and the first day the file speaks for (`YYYY-MM-DD`). */
  as_of?: string;
  from?: string;
  /** The federal list: the FTC subscription account number (SAN) it was downloaded under, when recorded. */
  ftc_account?: string | null;
  problem?: string;
}

/** One import of `data status`'s history, newest first, as `--json` prints it. */
export interface HistoryStatus {
  dataset: string;
  version: string;
  kind: string;
  files: string[];
  /** `command` (`data import`) or `inbox` (SCRUB_DNC_INBOX). */
  via: 'command' | 'inbox';
  imported_at: string;
  released_on: string | null;
  ftc_account: string | null;
}

/** The imports the manifest remembers, newest first. */
export async function readHistory(store: DatasetStore): Promise<HistoryStatus[]> {
  const { history } = await store.readManifest();
  return history
    .map((entry) => ({
      dataset: entry.dataset,
      version: entry.version,
      kind: entry.kind,
      files: entry.files,
      via: entry.via,
      imported_at: entry.importedAt,
      released_on: entry.releasedOn ?? null,
      ftc_account: entry.ftcAccount ?? null,
    }))
    .reverse();
}

/** The history under the status table: the last imports, with where each came from. */
export function formatHistory(history: readonly HistoryStatus[], shown = 5): string {
  if (history.length === 0 || shown === 0) return '';
  const lines = history.slice(0, shown).map((entry) => {
    const released = entry.released_on === null ? '' : `, released ${entry.released_on}`;
    const san = entry.ftc_account === null ? '' : `, FTC account ${entry.ftc_account}`;
    return `  ${formatTime(entry.imported_at)}  ${entry.dataset} ${entry.version} from ${entry.via === 'inbox' ? 'the inbox' : 'data import'}: ${entry.files.join(', ')}${released}${san}`;
  });
  return [`Last imports (newest first; ${history.length} kept):`, ...lines].join('\n');
}

/** Every dataset the service answers from, or would once a staged import is complete. */
export async function readStatus(
  store: DatasetStore,
  { now = new Date(), maxAgeDays = DEFAULT_DNC_MAX_AGE_DAYS }: { now?: Date; maxAgeDays?: number } = {},
): Promise<DatasetStatus[]> {
  const manifest = await store.readManifest();
  const rows: DatasetStatus[] = [];
  const names = Object.keys(manifest.datasets);
  const listNames = names.filter((name) => name !== EXCHANGE && name !== FEDERAL).sort();
  for (const name of [EXCHANGE, FEDERAL, ...listNames]) {
    const entry = manifest.datasets[name];
    if (entry === undefined) {
      rows.push(name === EXCHANGE ? sampleStatus() : noneStatus(name));
      continue;
    }
    const previous =
      entry.previous === null
        ? null
        : await store.readMeta(entry.previous).then(
            (meta) => meta.version,
            () => null,
          );
    rows.push(
      await store.readMeta(entry.live).then(
        (meta) => importedStatus(meta, previous, now, maxAgeDays),
        (error: Error) => ({ ...noneStatus(name), state: 'unreadable' as const, problem: error.message }),
      ),
    );
  }
  const staged = filesOf(manifest.staged);
  if (staged.length > 0) {
    rows.splice(1, 0, {
      ...noneStatus(EXCHANGE),
      state: 'staged',
      files: staged,
      missing: (['coCodes', 'ocnLineTypes'] as const)
        .filter((part) => manifest.staged[part] === undefined)
        .map(kindOfPart),
    });
  }
  return rows;
}

function noneStatus(dataset: string): DatasetStatus {
  return {
    dataset,
    state: 'none',
    version: null,
    source: null,
    counts: {},
    imported_at: null,
    bytes: null,
    previous_version: null,
  };
}

function sampleStatus(): DatasetStatus {
  const table = sampleExchangeTable();
  return {
    ...noneStatus(EXCHANGE),
    state: 'sample',
    version: table.version,
    source: 'sample',
    counts: exchangeCounts(table.stats),
    bytes: table.memory().total,
  };
}

/** A table's stats as `data status --json` names them. */
export function exchangeCounts(stats: ExchangeStats): Record<string, number> {
  return {
    exchanges: stats.exchanges,
    mobile: stats.mobile,
    landline: stats.landline,
    voip: stats.voip,
    unknown: stats.unknown,
    not_in_service: stats.notInService,
    blocks: stats.blocks,
    numbers: stats.numbers,
  };
}

function filesOf(sources: ExchangeSources): DatasetFile[] {
  return EXCHANGE_PARTS.flatMap((part) => {
    const source: SourceFile | undefined = sources[part];
    if (source === undefined) return [];
    const { name, version, mode, importedAt } = source;
    return [{ kind: kindOfPart(part), name, version, mode, imported_at: importedAt }];
  });
}

function importedStatus(
  meta: VersionMeta,
  previous: string | null,
  now: Date,
  maxAgeDays: number,
): DatasetStatus {
  const common = {
    dataset: meta.dataset,
    state: 'imported' as const,
    version: meta.version,
    source: 'imported' as const,
    imported_at: meta.importedAt,
    previous_version: previous,
  };
  if (meta.kind === 'exchange') {
    const buffers = Object.values(meta.buffers).filter((buffer) => buffer !== null);
    return {
      ...common,
      counts: exchangeCounts(meta.table.stats),
      bytes: buffers.reduce((sum, buffer) => sum + buffer.bytes, 0),
      files: filesOf(meta.sources),
    };
  }
  if (meta.kind === 'disconnects') {
    const { asOf: as_of, from } = meta;
    return { ...common, counts: { numbers: meta.size }, bytes: meta.buffer.bytes, as_of, from };
  }
  return {
    ...common,
    counts: { numbers: meta.list.size, exchanges: meta.list.exchanges },
    bytes: meta.buffer.bytes,
    ...(meta.account ? { account: meta.account } : {}),
    ...(isAgedList(meta.dataset) ? ageOf(meta.releasedOn, now, maxAgeDays) : {}),
    ...(meta.dataset.startsWith('list:') ? { released_on: meta.releasedOn ?? null } : {}),
    ...(meta.dataset === FEDERAL ? { ftc_account: meta.ftcAccount ?? null } : {}),
  };
}

/** A federal or state list's age, as answers count it (dnc-age.ts): unknown is stale. */
function ageOf(releasedOn: string | undefined, now: Date, maxAgeDays: number) {
  const released = releasedOn === undefined ? Number.NaN : dayStart(releasedOn);
  if (Number.isNaN(released)) return { released_on: null, age_days: null, stale: true };
  const age = Math.floor((now.getTime() - released) / DAY_MS);
  return { released_on: releasedOn ?? null, age_days: age, stale: age >= maxAgeDays };
}

/** A list's release and age in a cell: `2026-11-21\n6 days old`, `not recorded\nstale`. */
function releasedCell(row: DatasetStatus): string {
  if (row.stale === undefined) return row.released_on ?? '-';
  if (row.released_on == null) return 'not recorded\nstale';
  const age = `${plural(row.age_days ?? 0, 'day')} old`;
  return `${row.released_on}\n${row.stale ? `${age}: stale` : age}`;
}

export const number = (n: number) => n.toLocaleString('en-US');
/** `1 number`, `2,000 numbers`. */
export const plural = (n: number, noun: string) => `${number(n)} ${noun}${n === 1 ? '' : 's'}`;

/** A list's contents in a line. */
export function listContents(numbers: number, exchanges: number): string {
  return `${plural(numbers, 'number')} in ${plural(exchanges, 'exchange')}`;
}

type ExchangeStats = Extract<VersionMeta, { kind: 'exchange' }>['table']['stats'];

/**
 * Exchange data in a line, from its counts. In service only: the table also answers (not in
 * service) for the unassigned exchanges of each area code it covers.
 */
export function exchangeContents(counts: Record<string, number>): string {
  const inService = (counts.exchanges ?? 0) - (counts.not_in_service ?? 0);
  return `${plural(inService, 'exchange')} in service, ${plural(counts.blocks ?? 0, 'block')}, ${plural(counts.numbers ?? 0, 'number')}`;
}

/** Bytes as people read sizes: 15.1 MB, 33 KB. */
export function formatBytes(bytes: number): string {
  if (bytes >= 1e9) return `${(bytes / 1e9).toFixed(2)} GB`;
  if (bytes >= 1e6) return `${(bytes / 1e6).toFixed(1)} MB`;
  if (bytes >= 1e3) return `${Math.round(bytes / 1e3)} KB`;
  return `${bytes} B`;
}

/** An ISO time as the other operator commands print it: `2026-01-02 10:00 UTC`. */
export function formatTime(iso: string): string {
  return `${iso.slice(0, 16).replace('T', ' ')} UTC`;
}

function contents(row: DatasetStatus): string {
  const { counts } = row;
  switch (row.state) {
    case 'none':
      return row.dataset === FEDERAL ? 'not imported: no number is on the federal list' : 'not imported';
    case 'unreadable':
      return `cannot be read: ${row.problem}`;
    case 'staged':
      return [
        ...(row.files ?? []).map((file) => `${file.kind}: ${file.name} (${file.version})`),
        `waiting for ${(row.missing ?? []).join(' and ')}`,
      ].join('\n');
    default:
      if (row.dataset === EXCHANGE) {
        const lines = [exchangeContents(counts)];
        for (const file of row.files ?? []) lines.push(`${file.kind}: ${file.name}`);
        return lines.join('\n');
      }
      return [
        listContents(counts.numbers ?? 0, counts.exchanges ?? 0),
        ...(row.ftc_account ? [`FTC account ${row.ftc_account}`] : []),
      ].join('\n');
  }
}

/** `data status` for people: one row per dataset. */
export function formatStatus(
  rows: readonly DatasetStatus[],
  color: boolean,
  maxAgeDays = DEFAULT_DNC_MAX_AGE_DAYS,
): string {
  const table = new Table({
    head: ['Dataset', 'Version', 'Source', 'Contents', 'Released', 'Imported', 'Size'],
    style: color ? { head: ['cyan'], border: ['grey'] } : { head: [], border: [] },
  });
  for (const row of rows) {
    const name =
      row.state === 'staged'
        ? `${row.dataset} (staged)`
        : row.account?.email
          ? `${row.dataset}\n(${row.account.email})`
          : row.dataset;
    table.push([
      name,
      row.version ?? '-',
      row.source ?? row.state,
      contents(row),
      releasedCell(row),
      row.state === 'sample' ? 'generated' : row.imported_at ? formatTime(row.imported_at) : '-',
      row.bytes === null ? '-' : formatBytes(row.bytes),
    ]);
  }
  const notes: string[] = [];
  if (rows.some((row) => row.state === 'sample')) {
    notes.push('Line types come from generated sample data: every answer says data_source "sample".');
  }
  const stale = rows.filter((row) => row.stale === true);
  if (stale.length > 0) {
    const undated = stale.filter((row) => row.released_on == null).map((row) => row.dataset);
    notes.push(
      `Stale: ${stale.map((row) => row.dataset).join(', ')} ${stale.length === 1 ? 'is' : 'are'} past ${maxAgeDays} days (SCRUB_DNC_MAX_AGE_DAYS)${undated.length > 0 ? ` or ${undated.length === 1 ? 'has' : 'have'} no release date recorded (${undated.join(', ')})` : ''}: numbers not on ${stale.length === 1 ? 'it' : 'them'} answer unchecked, not clean, and /health says degraded. Import the newest release with --released YYYY-MM-DD.`,
    );
  }
  return [table.toString(), ...notes].join('\n');
}
