import { collectDefaultMetrics, Counter, Gauge, Histogram, type Metric, Registry } from 'prom-client';

/**
 * The process's Prometheus metrics, served at GET /metrics of its service (see observability/http.ts). One registry
 * per process: a service is one process, and every series carries its name in the `beacon_service` label. Not
 * `service`: Prometheus (prometheus-operator's ServiceMonitor) gives every target a `service` label of its own, and a
 * scraped label of that name would be renamed `exported_service`.
 */
export const metricsRegistry = new Registry();
export const SERVICE_LABEL = 'beacon_service';
let defaultsCollected = false;

/**
 * Beacon's metric families. A process serves the HTTP ones (every service answers HTTP) and only the others it uses:
 * the queue gauges where it works a queue, the delivery and provider metrics in the dispatcher, the socket gauge on
 * the gateway. Each is exposed by the code that uses it (exposeMetrics), at boot where that code is set up, and at
 * the latest on its first record, so nothing recorded is ever left out and no process serves another's families.
 */
export type MetricFamily = 'http' | 'queues' | 'deliveries' | 'providers' | 'sockets';

/** Names this process's series (the `beacon_service` label), starts the runtime metrics (CPU, memory, event loop), exposes the HTTP ones. */
export function startMetrics(service: string) {
  metricsRegistry.setDefaultLabels({ [SERVICE_LABEL]: service });
  if (!defaultsCollected) collectDefaultMetrics({ register: metricsRegistry });
  defaultsCollected = true;
  exposeMetrics('http');
}

const httpDuration = new Histogram({
  name: 'beacon_http_request_duration_seconds',
  help: 'HTTP requests by method, route template (never the raw URL) and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  buckets: [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10],
  registers: [],
});

const httpRequests = new Counter({
  name: 'beacon_http_requests_total',
  help: 'HTTP requests answered, by method, route template and status code',
  labelNames: ['method', 'route', 'status_code'] as const,
  registers: [],
});

/** Methods are a closed set; anything else is counted as OTHER so a client cannot mint series. */
const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

/** `route` is the matched route's template ('/api/alerts/:id'), or 'unmatched': never the path a client sent. */
export function recordHttpRequest(method: string, route: string, status: number, seconds: number) {
  exposeMetrics('http');
  const labels = { method: METHODS.has(method) ? method : 'OTHER', route, status_code: String(status) };
  httpDuration.observe(labels, seconds);
  httpRequests.inc(labels);
}

/** A queue a process works, whose depth and oldest job it reports on every scrape. */
export interface QueueDepthSource {
  name: string;
  /** Jobs per state (waiting, active, delayed, failed, ...). */
  counts(): Promise<Record<string, number>>;
  /** When the job waiting longest became ready to run (epoch ms), or undefined when none waits. */
  oldestReadyAt(): Promise<number | undefined>;
}

const queueSources = new Map<string, QueueDepthSource>();

/** Reports `source` until the returned function is called. */
export function watchQueueDepth(source: QueueDepthSource): () => void {
  exposeMetrics('queues');
  queueSources.set(source.name, source);
  return () => {
    if (queueSources.get(source.name) === source) queueSources.delete(source.name);
  };
}

/** Each source read once per scrape; a source Redis cannot answer for is left out of that scrape. */
async function readQueues() {
  const now = Date.now();
  const read = await Promise.all(
    [...queueSources.values()].map(async (s) => {
      try {
        const [counts, oldest] = await Promise.all([s.counts(), s.oldestReadyAt()]);
        return { name: s.name, counts, ageSeconds: oldest === undefined ? 0 : Math.max(0, (now - oldest) / 1000) };
      } catch {
        return null;
      }
    }),
  );
  return read.filter((r) => r !== null);
}

const queueJobs = new Gauge({
  name: 'beacon_queue_jobs',
  help: 'Jobs in each queue this process works, by state',
  labelNames: ['queue', 'state'] as const,
  registers: [],
  async collect() {
    this.reset();
    for (const q of await readQueues()) for (const [state, n] of Object.entries(q.counts)) this.set({ queue: q.name, state }, n);
  },
});

const queueOldestAge = new Gauge({
  name: 'beacon_queue_oldest_job_age_seconds',
  help: 'How long the oldest job ready to run has waited in each queue this process works (0: none waits)',
  labelNames: ['queue'] as const,
  registers: [],
  async collect() {
    this.reset();
    for (const q of await readQueues()) this.set({ queue: q.name }, q.ageSeconds);
  },
});

const deliveries = new Counter({
  name: 'beacon_deliveries_total',
  help: 'Alert deliveries by channel and outcome (sent, delivered, transient, permanent, gone, withdrawn, deferred)',
  labelNames: ['channel', 'outcome'] as const,
  registers: [],
});

export function recordDelivery(channel: string, outcome: string) {
  exposeMetrics('deliveries');
  deliveries.inc({ channel, outcome });
}

const providerDuration = new Histogram({
  name: 'beacon_provider_request_duration_seconds',
  help: 'Calls to outside providers (push services, the SMS webhook, the mail relay) by provider and outcome',
  labelNames: ['provider', 'outcome'] as const,
  buckets: [0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30],
  registers: [],
});

const providerErrors = new Counter({
  name: 'beacon_provider_errors_total',
  help: 'Failed calls to outside providers by provider and kind (status_4xx, status_5xx, timeout, network)',
  labelNames: ['provider', 'kind'] as const,
  registers: [],
});

export function recordProviderCall(provider: string, seconds: number, errorKind: string | null) {
  exposeMetrics('providers');
  providerDuration.observe({ provider, outcome: errorKind ? 'error' : 'ok' }, seconds);
  if (errorKind) providerErrors.inc({ provider, kind: errorKind });
}

const sockets = new Gauge({
  name: 'beacon_socket_connections',
  help: 'Socket.IO connections open on this gateway',
  registers: [],
});

export function socketConnected() {
  exposeMetrics('sockets');
  sockets.inc();
}

export function socketDisconnected() {
  sockets.dec();
}

/** prom-client's metric objects carry their name, which its typings leave out. */
const nameOf = (metric: Metric) => (metric as unknown as { name: string }).name;

const FAMILIES: Record<MetricFamily, Metric[]> = {
  http: [httpDuration, httpRequests],
  queues: [queueJobs, queueOldestAge],
  deliveries: [deliveries],
  providers: [providerDuration, providerErrors],
  sockets: [sockets],
};

/** Every family and the names of its metrics (e.g. for checking a dashboard against what the processes can serve). */
export const METRIC_FAMILIES = Object.fromEntries(Object.entries(FAMILIES).map(([family, metrics]) => [family, metrics.map(nameOf)])) as unknown as Readonly<
  Record<MetricFamily, readonly string[]>
>;

/** Adds the families' metrics to this process's /metrics; a family already there is left as it is. */
export function exposeMetrics(...families: MetricFamily[]) {
  for (const family of families) {
    for (const metric of FAMILIES[family]) {
      if (metricsRegistry.getSingleMetric(nameOf(metric)) !== metric) metricsRegistry.registerMetric(metric);
    }
  }
}
