import '@mantine/charts/styles.css';
import { BarChart, DonutChart, LineChart } from '@mantine/charts';
import { Card, ColorSwatch, Group, SimpleGrid, Text, Title } from '@mantine/core';
import type { UsageFigures, UsageReport } from '@scrub/sdk';
import type { ReactNode } from 'react';

const LINE_TYPE_COLORS: Record<string, string> = {
  mobile: 'blue.6',
  landline: 'teal.6',
  voip: 'violet.6',
  toll_free: 'orange.6',
  invalid: 'red.6',
  unknown_geographic: 'gray.6',
};

const LINE_TYPE_LABELS: Record<string, string> = {
  mobile: 'Mobile',
  landline: 'Landline',
  voip: 'VoIP',
  toll_free: 'Toll free',
  invalid: 'Invalid',
  unknown_geographic: 'Unknown',
};

function ChartCard({ title, testId, children }: { title: string; testId: string; children: ReactNode }) {
  return (
    <Card withBorder padding="md" data-testid={testId}>
      <Title order={3} size="h5" mb="sm">
        {title}
      </Title>
      {children}
    </Card>
  );
}

/** `Nov 23`: an interval's first day, short. */
const shortDay = (day: string) =>
  new Date(`${day}T00:00:00Z`).toLocaleDateString('en-US', {
    month: 'short',
    day: 'numeric',
    timeZone: 'UTC',
  });

/** The line-type mix of the whole range, largest first. */
export function lineTypeMix(figures: UsageFigures) {
  return Object.entries(figures.line_types)
    .filter(([, value]) => value > 0)
    .sort((a, b) => b[1] - a[1])
    .map(([type, value]) => ({
      name: LINE_TYPE_LABELS[type] ?? type,
      value,
      color: LINE_TYPE_COLORS[type] ?? 'gray.6',
    }));
}

/** Checks over time by source, the line-type mix, the DNC hit rate and credits spent and bought. */
export function UsageCharts({ report }: { report: UsageReport }) {
  const byInterval = report.intervals.map((interval) => ({
    start: shortDay(interval.start),
    'API key': interval.checks.api_key,
    Dashboard: interval.checks.dashboard,
    Batch: interval.checks.batch,
    'Bulk rows': interval.checks.bulk,
    'DNC hit rate': interval.dnc.hit_rate === null ? null : Math.round(interval.dnc.hit_rate * 1000) / 10,
    Spent: interval.credits.spent,
    Bought: interval.credits.bought,
  }));
  const mix = lineTypeMix(report.total);
  return (
    <SimpleGrid cols={{ base: 1, md: 2 }}>
      <ChartCard title="Checks by source" testId="checks-chart">
        <BarChart
          h={260}
          data={byInterval}
          dataKey="start"
          type="stacked"
          withLegend
          series={[
            { name: 'API key', color: 'blue.6' },
            { name: 'Dashboard', color: 'teal.6' },
            { name: 'Batch', color: 'violet.6' },
            { name: 'Bulk rows', color: 'orange.6' },
          ]}
        />
      </ChartCard>
      <ChartCard title="Line types" testId="line-type-chart">
        {mix.length === 0 ? (
          <Text c="dimmed">No number checked in this range.</Text>
        ) : (
          <>
            <DonutChart h={220} data={mix} withLabels withLabelsLine tooltipDataSource="segment" mx="auto" />
            <Group gap="md" justify="center" data-testid="line-type-legend">
              {mix.map((slice) => (
                <Group key={slice.name} gap={6}>
                  <ColorSwatch color={`var(--mantine-color-${slice.color.replace('.', '-')})`} size={12} />
                  <Text size="sm">{`${slice.name} ${slice.value.toLocaleString('en-US')}`}</Text>
                </Group>
              ))}
            </Group>
          </>
        )}
      </ChartCard>
      <ChartCard title="DNC hit rate (%)" testId="dnc-chart">
        {report.total.dnc.checked === 0 ? (
          <Text c="dimmed">No number was checked against a do-not-call list in this range.</Text>
        ) : (
          <LineChart
            h={260}
            data={byInterval}
            dataKey="start"
            unit="%"
            connectNulls
            series={[{ name: 'DNC hit rate', color: 'red.6' }]}
          />
        )}
      </ChartCard>
      <ChartCard title="Credits spent and bought" testId="credits-chart">
        <BarChart
          h={260}
          data={byInterval}
          dataKey="start"
          withLegend
          series={[
            { name: 'Spent', color: 'grape.6' },
            { name: 'Bought', color: 'green.6' },
          ]}
        />
      </ChartCard>
    </SimpleGrid>
  );
}
