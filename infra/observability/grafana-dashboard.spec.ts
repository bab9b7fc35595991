import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { metricsRegistry, startMetrics } from '@beacon/common';

interface Panel {
  id: number;
  type: string;
  title: string;
  gridPos: { x: number; y: number; w: number; h: number };
  targets?: { expr: string }[];
}

const dashboard = JSON.parse(readFileSync(join(__dirname, 'grafana-dashboard.json'), 'utf8')) as { uid: string; panels: Panel[] };

/** Every series name the services serve: their own metrics and prom-client's process metrics, histograms' parts too. */
async function servedNames(): Promise<Set<string>> {
  startMetrics('dashboard-check');
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
    const queried = dashboard.panels.flatMap((p) => (p.targets ?? []).flatMap((t) => t.expr.match(/\b(?:beacon|process|nodejs)_[a-z0-9_]+/g) ?? []));
    expect(queried.length).toBeGreaterThan(10);
    expect(queried.filter((name) => !served.has(name))).toEqual([]);
  });

  it('shows every Beacon metric somewhere', async () => {
    const own = [...(await servedNames())].filter((n) => n.startsWith('beacon_') && !/_(bucket|sum|count)$/.test(n));
    const text = JSON.stringify(dashboard.panels);
    expect(own.filter((name) => !text.includes(name))).toEqual([]);
  });

  it('is a well-formed layout: unique ids, panels inside the 24-column grid, a stable uid', () => {
    const ids = dashboard.panels.map((p) => p.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const p of dashboard.panels) expect([p.title, p.gridPos.x + p.gridPos.w <= 24]).toEqual([p.title, true]);
    expect(dashboard.uid).toBe('beacon-overview');
  });
});
