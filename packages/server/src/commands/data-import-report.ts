// How `scrub-server data import` reports an import: refused, staged or imported, for people
// (`describe`, `refusal`) and as JSON (`outcomeJson`).
import type { ImportError } from '@scrub/engine';
import {
  type DataKind,
  type FileReport,
  type ImportOutcome,
  type ImportRequest,
  kindOfPart,
} from '../reference-data/data-import.js';
import {
  exchangeContents,
  exchangeCounts,
  formatBytes,
  listContents,
  number,
  plural,
} from '../reference-data/data-status.js';

export function refusal(error: ImportError, request: ImportRequest, shown: number): string {
  const lines = [
    `${error.source}: refused (${request.mode} mode), ${plural(error.problems.length, 'problem')}:`,
  ];
  for (const problem of error.problems.slice(0, shown))
    lines.push(`  line ${problem.line}: ${problem.message}`);
  if (error.problems.length > shown)
    lines.push(`  ...${error.problems.length - shown} more (--problems to show more)`);
  const csv =
    request.kind === 'state' || request.kind === 'internal' || request.kind === 'list' ? request.csv : null;
  if (csv && typeof csv.column === 'number' && csv.header === undefined && error.problems[0]?.line === 1) {
    lines.push('Line 1 may be a header: add --header, or name the column with --column <name>.');
  }
  if (request.mode === 'strict' && error.problems.length > 0) {
    lines.push('--mode partial skips bad rows instead (a broken header or format is refused either way).');
  }
  return `${lines.join('\n')}\n`;
}

/** What else a report counts, beyond rows: change-list effects, exchanges without a line type. */
function extras(report: FileReport): string[] {
  const found: string[] = [];
  if ('added' in report) {
    found.push(
      `${number(report.added)} added (${number(report.alreadyPresent)} already listed), ${number(report.deleted)} deleted (${number(report.notPresent)} not listed)`,
    );
  }
  if ('withoutLineType' in report && report.withoutLineType > 0) {
    found.push(`${number(report.withoutLineType)} whose OCN has no line type (they answer unknown)`);
  }
  if ('notInService' in report && report.notInService > 0)
    found.push(`${number(report.notInService)} not in service`);
  if ('notAssigned' in report && report.notAssigned > 0)
    found.push(`${number(report.notAssigned)} blocks not assigned`);
  return found;
}

function describeReport(kind: DataKind, report: FileReport, shown: number): string[] {
  const head = `  ${kind} ${report.source} (version ${report.version}): ${plural(report.rowsRead, 'row')} read, ${number(report.rowsUsed)} used`;
  const lines = [[head, ...extras(report)].join('; ')];
  if (report.problemCount > 0) {
    lines.push(`    ${plural(report.problemCount, 'bad row')} skipped:`);
    for (const problem of report.problems.slice(0, shown)) {
      const file = 'file' in problem && problem.file ? `${problem.file}: ` : '';
      lines.push(`      line ${problem.line}: ${file}${problem.message}`);
    }
    if (report.problemCount > shown)
      lines.push(`      ...${number(report.problemCount - shown)} more (--problems to show more)`);
  }
  return lines;
}

export function describe(outcome: ImportOutcome, shown: number): string {
  if (outcome.status === 'staged') {
    const kind = kindOfPart(outcome.part);
    const missing = outcome.missing.map(kindOfPart);
    return `${[
      `Staged ${kind}; the exchange data is not built yet.`,
      ...describeReport(kind, outcome.report, shown),
      `Exchange data is built from the CO code file and the OCN line types together: import ${missing.join(' and ')} next (scrub-server data import ${missing[0]} <file>). Until then, line types come from sample data.`,
    ].join('\n')}\n`;
  }
  const { meta } = outcome;
  const contents =
    meta.kind === 'exchange'
      ? exchangeContents(exchangeCounts(meta.table.stats))
      : meta.kind === 'disconnects'
        ? `${plural(meta.size, 'disconnected number')}, from ${meta.from} to ${meta.asOf}`
        : listContents(meta.list.size, meta.list.exchanges);
  const bytes =
    meta.kind === 'exchange'
      ? Object.values(meta.buffers).reduce((sum, buffer) => sum + (buffer?.bytes ?? 0), 0)
      : meta.buffer.bytes;
  const released =
    meta.kind === 'dnc' && meta.releasedOn !== undefined ? `, released ${meta.releasedOn}` : '';
  const lines = [
    `Imported ${outcome.dataset} version ${meta.version}${released}: ${contents} (${formatBytes(bytes)}).`,
  ];
  for (const { kind, report } of outcome.reports) lines.push(...describeReport(kind, report, shown));
  if (outcome.previousVersion !== null)
    lines.push(`Replaces version ${outcome.previousVersion}, kept for one step.`);
  lines.push('A running server switches to it within a few seconds.');
  return `${lines.join('\n')}\n`;
}

const snake = (key: string) => key.replace(/[A-Z]/g, (letter) => `_${letter.toLowerCase()}`);

function reportJson(kind: DataKind, report: FileReport, shown: number) {
  const { problems, ...rest } = report;
  return {
    kind,
    ...Object.fromEntries(Object.entries(rest).map(([key, value]) => [snake(key), value])),
    problems: problems.slice(0, shown),
  };
}

export function outcomeJson(outcome: ImportOutcome, shown: number) {
  if (outcome.status === 'staged') {
    return {
      status: 'staged',
      dataset: 'exchange',
      part: kindOfPart(outcome.part),
      staged: outcome.staged.map(kindOfPart),
      missing: outcome.missing.map(kindOfPart),
      report: reportJson(kindOfPart(outcome.part), outcome.report, shown),
    };
  }
  return {
    status: 'imported',
    dataset: outcome.dataset,
    version: outcome.meta.version,
    ...(outcome.meta.kind === 'dnc' ? { released_on: outcome.meta.releasedOn ?? null } : {}),
    ...(outcome.meta.kind === 'disconnects' ? { as_of: outcome.meta.asOf, from: outcome.meta.from } : {}),
    previous_version: outcome.previousVersion,
    imported_at: outcome.meta.importedAt,
    reports: outcome.reports.map(({ kind, report }) => reportJson(kind, report, shown)),
  };
}
