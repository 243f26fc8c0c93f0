import { type CoCodeImportReport, importCoCodeFile } from './co-code-file.ts';
import { type ExchangeTable, ExchangeTableBuilder } from './exchange-table.ts';
import type { ImportInput, ImportMode, ImportReport } from './import-session.ts';
import { importNumberOverrides } from './number-overrides.ts';
import { readOcnLineTypes } from './ocn-line-types.ts';
import { importThousandsBlocks, type ThousandsBlockImportReport } from './thousands-blocks.ts';

/** The files of one exchange-data import: paths or streams. */
export interface ExchangeDataFiles {
  /** OCN-to-line-type CSV. */
  ocnLineTypes: ImportInput;
  /** NANPA's CO code file. */
  coCodes: ImportInput;
  /** The thousands-block report. */
  thousandsBlocks?: ImportInput;
  /** Ported or otherwise overridden numbers. */
  numberOverrides?: ImportInput;
}

export interface ExchangeDataImport {
  table: ExchangeTable;
  reports: {
    ocnLineTypes: ImportReport;
    coCodes: CoCodeImportReport;
    thousandsBlocks?: ThousandsBlockImportReport;
    numberOverrides?: ImportReport;
  };
}

/**
 * Imports a complete exchange dataset into a new table, beside whatever table is live: the caller
 * swaps it in (VersionedRef) once this resolves, and nothing changes if it throws. The version
 * names each file's version: `co:2025-11-26,blocks:2025-11-26,ocn:3f2a9c01b2d4`.
 */
export async function importExchangeData(
  files: ExchangeDataFiles,
  options: { mode?: ImportMode } = {},
): Promise<ExchangeDataImport> {
  const { mode } = options;
  const builder = new ExchangeTableBuilder();
  const ocn = await readOcnLineTypes(files.ocnLineTypes, { mode });
  const ocnLineTypes = ocn.lineTypes;
  const reports: ExchangeDataImport['reports'] = {
    ocnLineTypes: ocn.report,
    coCodes: await importCoCodeFile(files.coCodes, builder, { mode, ocnLineTypes }),
  };
  const versions = [`co:${reports.coCodes.version}`];
  if (files.thousandsBlocks !== undefined) {
    reports.thousandsBlocks = await importThousandsBlocks(files.thousandsBlocks, builder, {
      mode,
      ocnLineTypes,
    });
    versions.push(`blocks:${reports.thousandsBlocks.version}`);
  }
  versions.push(`ocn:${ocn.report.version}`);
  if (files.numberOverrides !== undefined) {
    reports.numberOverrides = await importNumberOverrides(files.numberOverrides, builder, { mode });
    versions.push(`numbers:${reports.numberOverrides.version}`);
  }
  return { table: builder.build(versions.join(',')), reports };
}
