import type { MetricFamily } from './metrics';

type Metrics = typeof import('./metrics');
type Sockets = typeof import('../live/socket-connections');

/** A process's metrics as it starts: the registry and the families' state are the module's, so each test loads its own. */
function freshProcess(): Metrics & Sockets {
  let loaded: Metrics & Sockets;
  jest.isolateModules(() => {
    loaded = { ...(require('./metrics') as Metrics), ...(require('../live/socket-connections') as Sockets) };
  });
  return loaded!;
}

/** The Beacon families a scrape of `m`'s registry shows (by their metrics' names). */
async function servedFamilies(m: Metrics): Promise<MetricFamily[]> {
  const names = new Set((await m.metricsRegistry.getMetricsAsJSON()).map((metric) => metric.name));
  return (Object.keys(m.METRIC_FAMILIES) as MetricFamily[]).filter((family) => m.METRIC_FAMILIES[family].some((name) => names.has(name)));
}

describe('the metrics a process serves', () => {
  it('labels every series beacon_service (never service, which Prometheus renames exported_service)', async () => {
    const m = freshProcess();
    m.startMetrics('identity');
    m.recordHttpRequest('GET', '/auth/v1/user', 200, 0.01);
    const text = await m.metricsRegistry.metrics();
    expect(text).toMatch(/^beacon_http_requests_total\{method="GET",route="\/auth\/v1\/user",status_code="200",beacon_service="identity"\} 1$/m);
    expect(text).toMatch(/^process_cpu_user_seconds_total\{beacon_service="identity"\} /m);
    expect(text).not.toMatch(/[{,]service="/);
  });

  it('is the HTTP families and the runtime metrics for a service that answers HTTP and nothing else', async () => {
    const m = freshProcess();
    m.startMetrics('store');
    expect(await servedFamilies(m)).toEqual(['http']);
    const beacon = (await m.metricsRegistry.getMetricsAsJSON()).map((metric) => metric.name).filter((name) => name.startsWith('beacon_'));
    expect(beacon.sort()).toEqual([...m.METRIC_FAMILIES.http].sort());
  });

  it('adds each other family with the code that uses it, and only that family', async () => {
    const m = freshProcess();
    m.startMetrics('gateway');
    m.countSocketConnections({ on: () => undefined });
    expect(await servedFamilies(m)).toEqual(['http', 'sockets']);
    // a gateway with no socket yet says 0, not nothing
    expect((await m.metricsRegistry.getSingleMetric('beacon_socket_connections')!.get()).values).toEqual([{ value: 0, labels: { beacon_service: 'gateway' } }]);

    const q = freshProcess();
    q.startMetrics('traffic');
    q.watchQueueDepth({ name: 'traffic-ingest', counts: async () => ({ waiting: 2 }), oldestReadyAt: async () => undefined });
    expect(await servedFamilies(q)).toEqual(['http', 'queues']);
    expect(await q.metricsRegistry.metrics()).toMatch(/^beacon_queue_jobs\{queue="traffic-ingest",state="waiting",beacon_service="traffic"\} 2$/m);

    const d = freshProcess();
    d.startMetrics('dispatcher');
    d.exposeMetrics('deliveries', 'providers');
    expect(await servedFamilies(d)).toEqual(['http', 'deliveries', 'providers']);
  });

  it('serves a family at the latest from its first record, and exposing it again keeps what it counted', async () => {
    const m = freshProcess();
    m.startMetrics('dispatcher');
    m.recordDelivery('sms', 'sent');
    m.recordProviderCall('sms', 0.2, null);
    expect(await servedFamilies(m)).toEqual(['http', 'deliveries', 'providers']);
    m.exposeMetrics('deliveries', 'providers', 'http');
    m.recordDelivery('sms', 'sent');
    const sent = (await m.metricsRegistry.getSingleMetric('beacon_deliveries_total')!.get()).values;
    expect(sent).toEqual([{ value: 2, labels: { channel: 'sms', outcome: 'sent', beacon_service: 'dispatcher' } }]);
  });

  it('names every Beacon metric in exactly one family', () => {
    const m = freshProcess();
    const names = Object.values(m.METRIC_FAMILIES).flat();
    expect(new Set(names).size).toBe(names.length);
    expect(names.every((name) => name.startsWith('beacon_'))).toBe(true);
  });
});
