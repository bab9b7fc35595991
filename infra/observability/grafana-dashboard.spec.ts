import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { exposeMetrics, METRIC_FAMILIES, type MetricFamily, metricsRegistry, SERVICE_LABEL, startMetrics } from '@beacon/common';

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(join(__dirname, 'grafana-dashboard.json'), 'utf8')) as {
  uid: string;
  panels: Panel[];
  templating: { list: { name: string; query?: unknown }[] };
};

/**
 * Every series name the processes serve, between them: each its own families (the HTTP ones everywhere, the others
 * where they are used) and prom-client's process metrics, histograms' parts too.
 */
async function servedNames(): Promise<Set<string>> {
  startMetrics('dashboard-check');
  exposeMetrics(...(Object.keys(METRIC_FAMILIES) as MetricFamily[]));
  const names = new Set<string>();
  for (const m of await metricsRegistry.getMetricsAsJSON()) {
    names.add(m.name);
    if (String(m.type) === 'histogram') for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${m.name}${suffix}`);
  }
  return names;
}

describe('the Grafana dashboard (infra/observability/grafana-dashboard.json)', () => {
  it('queries only metrics the services serve', async () => {
    const served = await servedNames();
    const queried = dashboard.panels
      .flatMap((p) => (p.targets ?? []).flatMap((t) => t.expr.match(/\b(?:beacon|process|nodejs)_[a-z0-9_]+/g) ?? []))
      .filter((name) => name !== SERVICE_LABEL); // the label, not a metric
    expect(queried.length).toBeGreaterThan(10);
    expect(queried.filter((name) => !served.has(name))).toEqual([]);
  });

  it('shows every Beacon metric somewhere', async () => {
    const own = [...(await servedNames())].filter((n) => n.startsWith('beacon_') && !/_(bucket|sum|count)$/.test(n));
    const text = JSON.stringify(dashboard.panels);
    expect(own.filter((name) => !text.includes(name))).toEqual([]);
  });

  it('groups and filters by labels the series carry: beacon_service for the process, never service', async () => {
    await servedNames();
    const carried = new Set([SERVICE_LABEL, 'le', 'instance']);
    for (const m of metricsRegistry.getMetricsAsArray()) for (const label of (m as unknown as { labelNames: string[] }).labelNames) carried.add(label);
    const texts = [
      ...dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => [t.expr, (t as { legendFormat?: string }).legendFormat ?? ''])),
      ...dashboard.templating.list.map((v) => JSON.stringify(v.query ?? '')),
    ];
    const used = texts.flatMap((text) => [
      ...[...text.matchAll(/\bby \(([^)]*)\)/g)].flatMap((m) => m[1].split(',').map((l) => l.trim())),
      ...[...text.matchAll(/[{,]\s*([a-z_]+)\s*(?:=~|!~|!=|=)/g)].map((m) => m[1]),
      ...[...text.matchAll(/\{\{([a-z_]+)\}\}/g)].map((m) => m[1]),
      ...[...text.matchAll(/label_values\([a-z_]+, ([a-z_]+)\)/g)].map((m) => m[1]),
    ]);
    expect(used).toContain(SERVICE_LABEL);
    expect([...new Set(used)].filter((label) => !carried.has(label))).toEqual([]);
  });

  it('is a well-formed layout: unique ids, panels inside the 24-column grid, a stable uid', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) expect([p.title, p.gridPos.x + p.gridPos.w <= 24]).toEqual([p.title, true]);
    expect(dashboard.uid).toBe('beacon-overview');
  });
});
