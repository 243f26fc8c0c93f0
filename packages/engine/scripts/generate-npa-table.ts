// Regenerates src/generated/npa-table.ts from NANPA's NPA report. The report itself is not
// committed (see README): it is read from the path given as the first argument, SCRUB_NPA_REPORT,
// or the shared data folder beside the repository.
//
//   pnpm --filter @scrub/engine generate [path/to/npa_report.csv]
import { writeFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import { ImportError } from '../src/import-error.ts';
import { readNpaReport } from '../src/nanpa/npa-report.ts';
import { buildNpaTable, renderNpaTableModule } from '../src/nanpa/npa-table.ts';
import { sharedNpaReportPath } from '../src/nanpa/shared-report-path.ts';

const input = process.argv[2] ?? sharedNpaReportPath();
if (!input) {
  process.stderr.write('NANPA NPA report not found: pass its path or set SCRUB_NPA_REPORT\n');
  process.exit(2);
}
const output = fileURLToPath(new URL('../src/generated/npa-table.ts', import.meta.url));

try {
  const table = buildNpaTable(await readNpaReport(input));
  await writeFile(output, renderNpaTableModule(table));
  process.stderr.write(
    `wrote ${output}\n  from ${input}\n  file date ${table.fileDate}, sha256 ${table.sha256}\n`,
  );
} catch (error) {
  if (!(error instanceof ImportError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exitCode = 1;
}
