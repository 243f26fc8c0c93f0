import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { parse } from 'yaml';
import { collectProcessMetrics, registry } from './service-metrics.js';

/**
 * The Grafana dashboard and the Prometheus alert rules in deploy/ ask only for metrics the service
 * exposes: a renamed metric would leave a panel empty and an alert silent, which nobody notices.
 */
const deployDir = join(import.meta.dirname, '..', '..', '..', '..', 'deploy');
const read = (path: string) => readFileSync(join(deployDir, path), 'utf8');

/** Every series name a scrape can hold: a histogram's as its `_bucket`, `_sum` and `_count`. */
function exposedNames(): Set<string> {
  collectProcessMetrics();
  const names = new Set<string>();
  for (const metric of registry.getMetricsAsArray()) {
    const { name, type } = metric as unknown as { name: string; type: string };
    names.add(name);
    if (type === 'histogram' || type === 'summary') {
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(name + suffix);
    }
  }
  return names;
}

const EXPOSED = exposedNames();
/** The Scrub metrics a PromQL expression names. */
const namesIn = (expr: string) => [...expr.matchAll(/\bscrub_[a-z0-9_]+\b/g)].map(([name]) => name);

interface Rule {
  alert: string;
  expr: string;
}

describe('the Prometheus alert rules (deploy/prometheus/alerts.yml)', () => {
  const rules: Rule[] = (
    parse(read('prometheus/alerts.yml')) as { groups: { rules: Rule[] }[] }
  ).groups.flatMap((group) => group.rules);

  it('alert on the queue, a stale list, errors, webhook failures and disk', () => {
    const all = rules.map((rule) => rule.expr).join('\n');
    for (const name of [
      'scrub_queue_oldest_job_age_seconds',
      'scrub_dnc_list_age_days',
      'scrub_http_request_duration_seconds_count',
      'scrub_webhook_attempts_total',
      'scrub_data_dir_bytes',
    ]) {
      expect(all).toContain(name);
    }
  });

  it('name only metrics the service exposes', () => {
    for (const rule of rules) {
      expect(namesIn(rule.expr), rule.alert).not.toHaveLength(0);
      expect(
        namesIn(rule.expr).filter((name) => !EXPOSED.has(name)),
        rule.alert,
      ).toEqual([]);
    }
  });
});

describe('the Grafana dashboard (deploy/grafana/scrub-dashboard.json)', () => {
  const dashboard = JSON.parse(read('grafana/scrub-dashboard.json')) as {
    panels: { title: string; targets: { expr: string }[] }[];
  };

  it('charts only metrics the service exposes', () => {
    expect(dashboard.panels.length).toBeGreaterThan(10);
    for (const panel of dashboard.panels) {
      for (const { expr } of panel.targets) {
        expect(namesIn(expr), panel.title).not.toHaveLength(0);
        expect(
          namesIn(expr).filter((name) => !EXPOSED.has(name)),
          panel.title,
        ).toEqual([]);
      }
    }
  });
});
