import { type DncImportReport, type ImportMode, importDisconnects } from '@scrub/engine';
import { DataImportError } from './data-import-error.js';
import {
  type DatasetStore,
  DISCONNECTS,
  type DisconnectsMeta,
  type ImportSummary,
  type Manifest,
} from './dataset-store.js';
import { DAY_MS, dayStart } from './dnc-age.js';

/** `data import disconnects`: one file, with the day it is complete to. */
export interface DisconnectsRequest {
  kind: 'disconnects';
  files: string[];
  mode: ImportMode;
  version?: string;
  maxProblems?: number;
  /** The last day the file is complete to (`YYYY-MM-DD`): required, refused without it. */
  asOf?: string;
  /** The first day it covers (`YYYY-MM-DD`); default its earliest disconnect date. */
  from?: string;
  delimiter?: string;
}

/** What the import did, as `importData` reports every import. */
interface DisconnectsImported {
  status: 'imported';
  dataset: string;
  meta: DisconnectsMeta;
  previousVersion: string | null;
  reports: { kind: 'disconnects'; report: DncImportReport }[];
}

/**
 * A file of permanent disconnections replaces the live one. Its as-of date is required: a file
 * says nothing about the days after it, so answers for later consent dates are "no data".
 */
export async function importDisconnectsFile(
  store: DatasetStore,
  manifest: Manifest,
  request: DisconnectsRequest,
): Promise<{ manifest: Manifest; result: DisconnectsImported }> {
  const { asOf, from, mode, version, maxProblems, delimiter } = request;
  if (asOf === undefined) {
    throw new DataImportError(
      'A disconnects import needs the date the file is complete to, as its publisher dated it: give it with --as-of YYYY-MM-DD. Consent dates after it answer no data.',
    );
  }
  const asOfDay = dayStart(asOf);
  if (Number.isNaN(asOfDay))
    throw new DataImportError(`--as-of ${asOf} is not a date: give it as YYYY-MM-DD.`);
  if (asOfDay > Date.now() + DAY_MS) {
    throw new DataImportError(`--as-of ${asOf} is in the future: give the date the file is complete to.`);
  }
  if (from !== undefined && !(dayStart(from) <= asOfDay)) {
    throw new DataImportError(`--from ${from} is not a date on or before --as-of ${asOf} (YYYY-MM-DD).`);
  }
  const imported = await importDisconnects(request.files[0]!, {
    asOf,
    mode,
    ...(from === undefined ? {} : { from }),
    ...(version === undefined ? {} : { version }),
    ...(maxProblems === undefined ? {} : { maxProblems }),
    ...(delimiter === undefined ? {} : { delimiter }),
  });
  const live = manifest.datasets[DISCONNECTS];
  const previousVersion =
    live === undefined
      ? null
      : await store.readMeta(live.live).then(
          (meta) => meta.version,
          () => null,
        );
  const { report } = imported;
  const dir = await store.newVersionDir(DISCONNECTS);
  const imports: ImportSummary[] = [
    {
      source: report.source,
      mode,
      rowsRead: report.rowsRead,
      rowsUsed: report.rowsUsed,
      problemCount: report.problemCount,
    },
  ];
  const meta = await store.writeDisconnects(dir, imported.list, imports, new Date().toISOString());
  return {
    manifest: {
      ...manifest,
      datasets: { ...manifest.datasets, [DISCONNECTS]: { live: dir, previous: live?.live ?? null } },
    },
    result: {
      status: 'imported',
      dataset: DISCONNECTS,
      meta,
      previousVersion,
      reports: [{ kind: 'disconnects', report }],
    },
  };
}
