import { LINE_TYPES, USAGE_CSV_HEADERS, type UsageFigures } from '@scrub/contract';
import { safeCsvField } from '@scrub/engine';
import { totalByInterval, type UsageTable } from './usage-report.js';

function csvLine(account: string, start: string, figures: UsageFigures): string {
  const { checks, dnc, credits } = figures;
  const cells = [
    account,
    start,
    checks.total,
    checks.api_key,
    checks.dashboard,
    checks.batch,
    checks.bulk,
    ...LINE_TYPES.map((type) => figures.line_types[type] ?? 0),
    dnc.checked,
    dnc.hits,
    dnc.hit_rate === null ? '' : dnc.hit_rate.toFixed(4),
    credits.spent,
    credits.bought,
    figures.jobs,
    figures.cached,
    figures.free,
  ];
  return `${cells.map((cell) => safeCsvField(String(cell))).join(',')}\r\n`;
}

/** `GET /usage.csv`: a line per account and interval, then the total's lines when several accounts are counted. */
export function usageCsv(table: UsageTable): string {
  const lines = [`${USAGE_CSV_HEADERS.join(',')}\r\n`];
  for (const owner of table.owners)
    for (const [start, figures] of table.figures.get(owner.id)!)
      lines.push(csvLine(owner.email, start, figures));
  if (table.owners.length > 1)
    for (const [start, figures] of totalByInterval(table))
      lines.push(csvLine('All accounts', start, figures));
  return lines.join('');
}
