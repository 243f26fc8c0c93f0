import { stat } from 'node:fs/promises';
import { basename } from 'node:path';
import {
  applyFtcChangeList,
  type CoCodeImportReport,
  type DncChangeReport,
  type DncCsvOptions,
  type DncImportReport,
  type DncList,
  type ExchangeDataFiles,
  ExchangeTable,
  ExchangeTableBuilder,
  type FtcChangeListLayout,
  type ImportMode,
  type ImportReport,
  importCoCodeFile,
  importExchangeData,
  importFtcFullList,
  importInternalDncList,
  importNumberOverrides,
  importOperatorList,
  importStateDncList,
  importThousandsBlocks,
  isOperatorList,
  MAX_DNC_LISTS,
  OPERATOR_LIST_PREFIX,
  operatorListNameProblem,
  readOcnLineTypes,
  type ThousandsBlockImportReport,
} from '@scrub/engine';
import { DataImportError } from './data-import-error.js';
import {
  type DatasetStore,
  EXCHANGE,
  EXCHANGE_PARTS,
  type ExchangeMeta,
  type ExchangePart,
  type ExchangeSources,
  FEDERAL,
  type ImportSummary,
  isSharedList,
  type Manifest,
  type SourceFile,
  type VersionMeta,
} from './dataset-store.js';
import { type DisconnectsRequest, importDisconnectsFile } from './disconnects-import.js';
import { type ImportOrigin, withEntry } from './import-history.js';
import { checkFtcAccount, checkReleaseDate, dated } from './import-request-checks.js';

/** What `scrub-server data import <kind>` reads. */
export const EXCHANGE_KINDS = {
  'co-codes': 'coCodes',
  'ocn-line-types': 'ocnLineTypes',
  'thousands-blocks': 'thousandsBlocks',
  'number-overrides': 'numberOverrides',
} as const satisfies Record<string, ExchangePart>;
export type ExchangeKind = keyof typeof EXCHANGE_KINDS;
export type DncKind = 'ftc' | 'ftc-changes' | 'state' | 'internal' | 'list';
export type DataKind = ExchangeKind | DncKind | 'disconnects';

/** The kind an exchange part is imported as: `coCodes` is `co-codes`. */
export function kindOfPart(part: ExchangePart): ExchangeKind {
  return (Object.keys(EXCHANGE_KINDS) as ExchangeKind[]).find((kind) => EXCHANGE_KINDS[kind] === part)!;
}

/** Where a CSV list keeps its numbers: see `DncCsvOptions`. */
export interface CsvMapping {
  column: string | number;
  header?: boolean;
  delimiter?: string;
}

/** The account an internal list belongs to. */
export interface ListAccount {
  id: string;
  /** As the operator named it; null when named by id. */
  email: string | null;
}

interface CommonRequest {
  files: string[];
  mode: ImportMode;
  /** The new version's name; by default the engine's (a file date, or a hash of the file). */
  version?: string;
  /** DNC lists in partial mode: how many bad rows to accept before refusing the file. */
  maxProblems?: number;
  /**
   * The list's release date (`YYYY-MM-DD`), as its publisher dated it: required for `ftc`,
   * `ftc-changes` and `state` (their age counts from it), recorded when given for `list` (shown,
   * never aged), ignored for the others.
   */
  releasedOn?: string;
  /** `ftc` and `ftc-changes`: the FTC subscription account number (SAN) the files were downloaded under. */
  ftcAccount?: string;
  /** Where the file came from when not from `data import` (the registry inbox), for `data status`'s history. */
  origin?: ImportOrigin;
}

export type ImportRequest = CommonRequest &
  (
    | { kind: ExchangeKind }
    | { kind: 'ftc' }
    | { kind: 'ftc-changes'; layout?: FtcChangeListLayout }
    /** A state list's column may also be found from its header (the registry inbox's state files). */
    | { kind: 'state'; state: string; csv: Omit<CsvMapping, 'column'> & { column: DncCsvOptions['column'] } }
    | { kind: 'internal'; account: ListAccount; csv: CsvMapping }
    | Omit<DisconnectsRequest, keyof CommonRequest>
    /** An operator's flag list (`list:<name>`); without a column, the phone column is found. */
    | { kind: 'list'; name: string; csv: Partial<CsvMapping> }
  );

/** Any importer's report: every one has source, version, rows read and used, and problems with lines. */
export type FileReport =
  | ImportReport
  | CoCodeImportReport
  | ThousandsBlockImportReport
  | DncImportReport
  | DncChangeReport;

export interface ReportOf {
  kind: DataKind;
  report: FileReport;
}

export type ImportOutcome =
  | {
      status: 'imported';
      dataset: string;
      meta: VersionMeta;
      /** The version it replaced, kept for one step; null when there was none. */
      previousVersion: string | null;
      /** The new file's report first; for exchange data, then those of the files it was built with. */
      reports: ReportOf[];
    }
  | {
      status: 'staged';
      part: ExchangePart;
      report: ImportReport;
      /** Parts staged so far, this one included. */
      staged: ExchangePart[];
      /** Parts still needed to build the exchange data. */
      missing: ExchangePart[];
    };

export { DataImportError } from './data-import-error.js';

/**
 * Imports one dataset version into the store, serialised with any other import on the same data
 * directory. A refused file (the engine's ImportError, with line numbers) or any other failure
 * changes nothing live: the manifest is only replaced once the new version is complete on disk.
 */
export async function importData(
  store: DatasetStore,
  request: ImportRequest,
  onWait?: () => void,
): Promise<ImportOutcome> {
  if (request.files.length === 0) throw new DataImportError('No file to import.');
  if (request.kind === 'list') {
    const problem = operatorListNameProblem(request.name);
    if (problem !== null) throw new DataImportError(`--name ${problem}.`);
  }
  checkReleaseDate(request);
  checkFtcAccount(request);
  if (request.files.length > 1 && request.kind !== 'ftc-changes') {
    throw new DataImportError(`A ${request.kind} import takes one file (a zip may hold several).`);
  }
  for (const file of request.files) {
    const found = await stat(file).catch(() => null);
    if (!found?.isFile()) throw new DataImportError(`No such file: ${file}`);
  }
  if (request.kind === 'disconnects') {
    const disconnects = request;
    return store.update((manifest) => importDisconnectsFile(store, manifest, disconnects), onWait);
  }
  if (request.kind in EXCHANGE_KINDS) {
    const kind = request.kind as ExchangeKind;
    return store.update((manifest) => importExchangePart(store, manifest, kind, request), onWait);
  }
  return store.update(
    async (manifest) => recorded(await importList(store, manifest, request), request),
    onWait,
  );
}

/** Exchange parts needed before a table can be built. */
const REQUIRED_PARTS: readonly ExchangePart[] = ['coCodes', 'ocnLineTypes'];

/**
 * An exchange table is built from all its parts at once (blocks override exchanges, OCN line types
 * join both), so a new part is built together with the other files of the live version. Until the
 * CO code file and the OCN list have both been imported, a part is kept aside (staged).
 */
async function importExchangePart(
  store: DatasetStore,
  manifest: Manifest,
  kind: ExchangeKind,
  request: CommonRequest,
): Promise<{ manifest: Manifest; result: ImportOutcome }> {
  const part = EXCHANGE_KINDS[kind];
  const file = request.files[0]!;
  const live = manifest.datasets[EXCHANGE];
  const liveMeta = live ? await store.readMeta(live.live) : null;
  if (liveMeta !== null && liveMeta.kind !== 'exchange') {
    throw new DataImportError(`The live exchange version (${live?.live}) is not exchange data.`);
  }
  const others: ExchangeSources = { ...(liveMeta?.sources ?? manifest.staged) };
  delete others[part];
  const missing = REQUIRED_PARTS.filter((required) => required !== part && others[required] === undefined);
  const othersPartial = Object.values(others).some((source) => source.mode === 'partial');
  const importedAt = new Date().toISOString();

  // The file on its own, in the operator's mode: for a part that is staged, and when the build
  // below has to run in partial mode for an earlier part's sake, which would let this file's bad
  // rows through where the operator asked for strict.
  if (missing.length > 0 || (request.mode === 'strict' && othersPartial)) {
    const report = await checkExchangePart(part, file, request.mode);
    if (missing.length > 0) {
      const dir = await store.newStagedDir();
      const source = await keepSource(store, file, `${dir}/${kind}`, report, request.mode, importedAt);
      const staged = { ...manifest.staged, [part]: source };
      return {
        manifest: { ...manifest, staged },
        result: {
          status: 'staged',
          part,
          report,
          staged: EXCHANGE_PARTS.filter((name) => staged[name] !== undefined),
          missing,
        },
      };
    }
  }

  const files = { [part]: file } as Partial<ExchangeDataFiles>;
  for (const [name, source] of Object.entries(others) as [ExchangePart, SourceFile][]) {
    files[name] = store.pathOf(source.path);
  }
  // Every earlier part was accepted in its own mode already: partial here skips only the bad rows
  // that import accepted skipping.
  const mode = request.mode === 'partial' || othersPartial ? 'partial' : 'strict';
  const built = await importExchangeData(files as ExchangeDataFiles, { mode });
  const table =
    request.version === undefined
      ? built.table
      : ExchangeTable.fromShared({ ...built.table.toShared(), version: request.version });

  const dir = await store.newVersionDir(EXCHANGE);
  const sources: ExchangeSources = {};
  for (const name of EXCHANGE_PARTS) {
    const report = built.reports[name];
    if (report === undefined) continue;
    const earlier = others[name];
    const at = `${dir}/sources/${kindOfPart(name)}`;
    sources[name] =
      earlier === undefined
        ? await keepSource(store, file, at, report, request.mode, importedAt)
        : await keepSource(store, earlier, at, report, earlier.mode, earlier.importedAt);
  }
  const meta = await store.writeExchange(dir, table, sources as ExchangeMeta['sources'], importedAt);
  const reports: ReportOf[] = [{ kind, report: built.reports[part]! }];
  for (const name of EXCHANGE_PARTS) {
    const report = built.reports[name];
    if (name !== part && report !== undefined) reports.push({ kind: kindOfPart(name), report });
  }
  return {
    manifest: {
      ...manifest,
      datasets: { ...manifest.datasets, [EXCHANGE]: { live: dir, previous: live?.live ?? null } },
      staged: {},
    },
    result: {
      status: 'imported',
      dataset: EXCHANGE,
      meta,
      previousVersion: liveMeta?.version ?? null,
      reports,
    },
  };
}

/**
 * Keeps a source file in the store under `dir`, by its own name: the operator's file (copied), or
 * one the store already keeps (linked).
 */
async function keepSource(
  store: DatasetStore,
  from: string | SourceFile,
  dir: string,
  report: ImportReport,
  mode: ImportMode,
  importedAt: string,
): Promise<SourceFile> {
  const ours = typeof from !== 'string';
  const name = ours ? from.name : basename(from);
  const path = `${dir}/${name}`;
  await store.keepFile(ours ? from.path : from, path, { ours });
  return { path, name, version: report.version, sha256: report.sha256, mode, importedAt };
}

/**
 * Reads one exchange part alone, in the operator's mode, for its report (or its refusal). The OCN
 * list only decides line types, never whether a row is good: an empty one will do, and the counts
 * of rows without a line type it leads to are dropped from the report.
 */
async function checkExchangePart(part: ExchangePart, file: string, mode: ImportMode): Promise<ImportReport> {
  const ocnLineTypes = new Map();
  switch (part) {
    case 'ocnLineTypes':
      return (await readOcnLineTypes(file, { mode })).report;
    case 'coCodes': {
      const { withoutLineType: _, ...report } = await importCoCodeFile(file, new ExchangeTableBuilder(), {
        mode,
        ocnLineTypes,
      });
      return report;
    }
    case 'thousandsBlocks': {
      const { withoutLineType: _, ...report } = await importThousandsBlocks(
        file,
        new ExchangeTableBuilder(),
        {
          mode,
          ocnLineTypes,
        },
      );
      return report;
    }
    case 'numberOverrides':
      return importNumberOverrides(file, new ExchangeTableBuilder(), { mode });
  }
}

function datasetOf(request: ImportRequest): string {
  switch (request.kind) {
    case 'state':
      return `state:${request.state}`;
    case 'internal':
      return `internal:${request.account.id}`;
    case 'list':
      return `${OPERATOR_LIST_PREFIX}${request.name}`;
    default:
      return FEDERAL;
  }
}

/** A new list must fit: each is one bit of a DncSet's mask (operator lists have a set of their own). */
function checkRoomFor(manifest: Manifest, dataset: string): void {
  const names = Object.keys(manifest.datasets);
  if (isOperatorList(dataset)) {
    const operator = names.filter(isOperatorList).length;
    if (operator >= MAX_DNC_LISTS) {
      throw new DataImportError(
        `There are ${operator} operator lists already, the most there may be: replace one by importing under its name.`,
      );
    }
  }
  if (isSharedList(dataset)) {
    // An account's own list takes one more bit.
    const shared = names.filter(isSharedList).length;
    if (shared + 1 > MAX_DNC_LISTS - 1) {
      throw new DataImportError(
        `There are ${shared} federal and state lists already: at most ${MAX_DNC_LISTS - 1} fit beside an account's own list.`,
      );
    }
  }
}

async function importList(
  store: DatasetStore,
  manifest: Manifest,
  request: ImportRequest,
): Promise<{ manifest: Manifest; result: ImportOutcome }> {
  const dataset = datasetOf(request);
  const live = manifest.datasets[dataset];
  if (live === undefined) checkRoomFor(manifest, dataset);
  const { mode, version, maxProblems } = request;
  const options = { mode, maxProblems, version };
  const file = request.files[0]!;
  const reports: ReportOf[] = [];
  let list: DncList;
  let previousVersion: string | null = null;
  let ftcAccount = request.ftcAccount;
  switch (request.kind) {
    case 'ftc': {
      const imported = await importFtcFullList(file, { ...options, name: FEDERAL });
      reports.push({ kind: 'ftc', report: imported.report });
      list = imported.list;
      break;
    }
    case 'ftc-changes': {
      if (live === undefined) {
        throw new DataImportError(
          'There is no federal list to apply changes to: import the full list first (`scrub-server data import ftc <file>`).',
        );
      }
      const base = await store.load(live.live);
      if (base.kind !== 'dnc')
        throw new DataImportError(`The live federal version (${live.live}) is not a list.`);
      previousVersion = base.list.version;
      ftcAccount ??= base.meta.ftcAccount;
      list = base.list;
      // In order, each on the result of the one before; the version asked for names the last.
      for (const [i, changes] of request.files.entries()) {
        const last = i === request.files.length - 1;
        const applied = await applyFtcChangeList(list, changes, {
          ...options,
          version: last ? version : undefined,
          layout: request.layout,
        });
        reports.push({ kind: 'ftc-changes', report: applied.report });
        list = applied.list;
      }
      break;
    }
    case 'state': {
      const imported = await importStateDncList(file, { ...options, ...request.csv, state: request.state });
      reports.push({ kind: 'state', report: imported.report });
      list = imported.list;
      break;
    }
    case 'internal': {
      const imported = await importInternalDncList(file, {
        ...options,
        ...request.csv,
        account: request.account.id,
      });
      reports.push({ kind: 'internal', report: imported.report });
      list = imported.list;
      break;
    }
    case 'list': {
      const imported = await importOperatorList(file, { ...options, ...request.csv, name: request.name });
      reports.push({ kind: 'list', report: imported.report });
      list = imported.list;
      break;
    }
    default:
      throw new DataImportError(`Not a list: ${request.kind}`);
  }
  if (previousVersion === null && live !== undefined) {
    previousVersion = await store.readMeta(live.live).then(
      (meta) => meta.version,
      () => null,
    );
  }

  const importedAt = new Date().toISOString();
  const dir = await store.newVersionDir(dataset);
  const imports: ImportSummary[] = reports.map(({ report }) => ({
    source: report.source,
    mode,
    rowsRead: report.rowsRead,
    rowsUsed: report.rowsUsed,
    problemCount: report.problemCount,
  }));
  const account = request.kind === 'internal' ? { account: request.account } : {};
  const san = ftcAccount === undefined ? {} : { ftcAccount };
  const meta = await store.writeDnc(dir, dated(list, request), { imports, ...account, ...san }, importedAt);
  return {
    manifest: {
      ...manifest,
      datasets: { ...manifest.datasets, [dataset]: { live: dir, previous: live?.live ?? null } },
    },
    result: { status: 'imported', dataset, meta, previousVersion, reports },
  };
}

/** The new manifest with the import added to its history, for `data status`. */
function recorded(
  done: { manifest: Manifest; result: ImportOutcome },
  request: ImportRequest,
): { manifest: Manifest; result: ImportOutcome } {
  const { manifest, result } = done;
  if (result.status !== 'imported' || result.meta.kind !== 'dnc') return done;
  const { meta } = result;
  const entry = {
    dataset: result.dataset,
    version: meta.version,
    kind: request.kind,
    files: request.files.map((file) => basename(file)),
    via: request.origin?.via ?? ('command' as const),
    importedAt: meta.importedAt,
    ...(meta.releasedOn === undefined ? {} : { releasedOn: meta.releasedOn }),
    ...(meta.ftcAccount === undefined ? {} : { ftcAccount: meta.ftcAccount }),
    ...(request.origin === undefined ? {} : { sha256: request.origin.sha256 }),
  };
  return { manifest: { ...manifest, history: withEntry(manifest.history, entry) }, result };
}
