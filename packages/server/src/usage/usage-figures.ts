import type { UsageFigures } from '@scrub/contract';

/** Figures with nothing counted yet. */
export function emptyFigures(): UsageFigures {
  return {
    checks: { api_key: 0, dashboard: 0, batch: 0, bulk: 0, total: 0 },
    line_types: {},
    dnc: { checked: 0, hits: 0, hit_rate: null },
    credits: { spent: 0, bought: 0 },
    jobs: 0,
    cached: 0,
    free: 0,
  };
}

/** What one query row adds to an interval's figures (the hit rate and total are worked out at the end). */
export interface FiguresPart {
  apiKey?: number;
  dashboard?: number;
  batch?: number;
  bulk?: number;
  lineTypes?: Record<string, number>;
  dncChecked?: number;
  dncHits?: number;
  spent?: number;
  bought?: number;
  jobs?: number;
  cached?: number;
  free?: number;
}

/** Adds a part to figures, in place. */
export function addPart(figures: UsageFigures, part: FiguresPart): void {
  figures.checks.api_key += part.apiKey ?? 0;
  figures.checks.dashboard += part.dashboard ?? 0;
  figures.checks.batch += part.batch ?? 0;
  figures.checks.bulk += part.bulk ?? 0;
  for (const [type, n] of Object.entries(part.lineTypes ?? {}))
    figures.line_types[type] = (figures.line_types[type] ?? 0) + n;
  figures.dnc.checked += part.dncChecked ?? 0;
  figures.dnc.hits += part.dncHits ?? 0;
  figures.credits.spent += part.spent ?? 0;
  figures.credits.bought += part.bought ?? 0;
  figures.jobs += part.jobs ?? 0;
  figures.cached += part.cached ?? 0;
  figures.free += part.free ?? 0;
}

/** Adds whole figures to others, in place. */
export function addFigures(figures: UsageFigures, more: UsageFigures): void {
  addPart(figures, {
    apiKey: more.checks.api_key,
    dashboard: more.checks.dashboard,
    batch: more.checks.batch,
    bulk: more.checks.bulk,
    lineTypes: more.line_types,
    dncChecked: more.dnc.checked,
    dncHits: more.dnc.hits,
    spent: more.credits.spent,
    bought: more.credits.bought,
    jobs: more.jobs,
    cached: more.cached,
    free: more.free,
  });
}

/** Works out the total of checks and the DNC hit rate, once every part is in. */
export function finish(figures: UsageFigures): UsageFigures {
  const { checks, dnc } = figures;
  checks.total = checks.api_key + checks.dashboard + checks.batch + checks.bulk;
  dnc.hit_rate = dnc.checked === 0 ? null : dnc.hits / dnc.checked;
  return figures;
}
