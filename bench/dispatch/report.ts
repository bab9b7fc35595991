/** What one phase (Beacon or the baseline) measured. Times are ms after the alert was sent. */
export interface PhaseResult {
  name: 'beacon' | 'baseline';
  completed: boolean;
  error?: string;
  recipients: number;
  deliveries: { push: number; sms: number; voice: number; total: number };
  /** From the POST (Beacon) or the dispatch job (baseline) to the last delivery recorded as sent. */
  totalMs: number | null;
  stages: {
    /** Beacon: the eligibility SELECT alone, client wall time (median of 5). Baseline: loading every row and filtering in JS. */
    eligibilityMs: number | null;
    rowsWrittenAtMs: number | null;
    firstJobsQueuedAtMs: number | null;
    allJobsQueuedAtMs: number | null;
    firstSendAtMs: number | null;
    lastSendAtMs: number | null;
    lastRecordedAtMs: number | null;
  };
  rates: {
    pushPerSecond: number | null;
    smsRecipientsPerSecond: number | null;
    smsWebhookCalls: number;
    /** Phone calls placed through the Twilio API (one request each), first to last arrival. */
    voiceCallsPerSecond: number | null;
    deliveriesPerSecondEndToEnd: number | null;
  };
  /** How the push requests reached the fake push service (TLS in both phases): requests per protocol and TCP connections opened. */
  pushTransport: { http1Requests: number; http2Requests: number; connections: number };
  latencyMs: { p50: number | null; p95: number | null; p99: number | null; max: number | null };
  memory: { process: string; peakMiB: number }[];
  cpuSeconds: Record<string, number>;
  redis: { startMiB: number; peakMiB: number; instancePeakMiB: number };
  exactlyOnce: {
    ok: boolean;
    push: { expected: number; receivedOnce: number; missing: number; duplicated: number; unexpected: number };
    sms: { expected: number; receivedOnce: number; missing: number; duplicated: number; unexpected: number };
    voice: { expected: number; receivedOnce: number; missing: number; duplicated: number; unexpected: number };
    rowsSent: number;
    rowsExpected: number;
    refused: number;
    payloadsDecrypted: number;
    payloadsUndecryptable: number;
    /** The fake push service's reasons for the first few (see FakePushService.undecryptableReasons). */
    undecryptableReasons: string[];
  };
  /** [seconds after the send, cumulative deliveries arrived at the providers] */
  timeline: [number, number][];
}

export interface BenchResult {
  benchmark: 'dispatch';
  version: 1;
  takenAt: string;
  machine: { nproc: number; cpu: string; memoryGiB: number; node: string; postgres: string; redis: string; loadAverageAtStart: number[] };
  config: Record<string, unknown>;
  population: { subscribers: number; pushSubscriptions: number; alertRadiusKm: number; expectedRecipients: number; seedSeconds: number };
  eligibilityPlan: string;
  beacon: PhaseResult;
  baseline: PhaseResult | null;
  ratio: Record<string, number | null>;
}

export function percentile(sorted: number[], p: number): number | null {
  if (!sorted.length) return null;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

/** Cumulative arrivals per 100 ms (at most ~400 points), for the chart. */
export function timeline(times: number[]): [number, number][] {
  if (!times.length) return [];
  const sorted = [...times].sort((a, b) => a - b);
  const last = sorted[sorted.length - 1];
  const step = Math.max(100, Math.ceil(last / 400 / 100) * 100);
  const points: [number, number][] = [[0, 0]];
  let i = 0;
  for (let t = step; t < last + step; t += step) {
    while (i < sorted.length && sorted[i] <= t) i++;
    points.push([Math.round(t) / 1000, i]);
  }
  return points;
}

const fmt = (v: number | null | undefined, digits = 0) =>
  v === null || v === undefined || Number.isNaN(v) ? '—' : v.toLocaleString('en-US', { maximumFractionDigits: digits, minimumFractionDigits: digits });
const sec = (ms: number | null | undefined) => (ms === null || ms === undefined ? '—' : `${(ms / 1000).toFixed(2)} s`);
const ratio = (a: number | null | undefined, b: number | null | undefined) => (a && b ? b / a : null);

/** The baseline-over-Beacon ratios (how many times better Beacon is; > 1 is better). */
export function ratios(beacon: PhaseResult, baseline: PhaseResult | null): Record<string, number | null> {
  if (!baseline) return {};
  const peak = (r: PhaseResult) => Math.max(...r.memory.filter((m) => m.process.startsWith('worker')).map((m) => m.peakMiB));
  return {
    endToEnd: ratio(beacon.totalMs, baseline.totalMs),
    eligibility: ratio(beacon.stages.eligibilityMs, baseline.stages.eligibilityMs),
    pushPerSecond: beacon.rates.pushPerSecond && baseline.rates.pushPerSecond ? beacon.rates.pushPerSecond / baseline.rates.pushPerSecond : null,
    smsRecipientsPerSecond:
      beacon.rates.smsRecipientsPerSecond && baseline.rates.smsRecipientsPerSecond
        ? beacon.rates.smsRecipientsPerSecond / baseline.rates.smsRecipientsPerSecond
        : null,
    latencyP50: ratio(beacon.latencyMs.p50, baseline.latencyMs.p50),
    latencyP99: ratio(beacon.latencyMs.p99, baseline.latencyMs.p99),
    workerPeakMemory: ratio(peak(beacon), peak(baseline)),
  };
}

export function table(r: BenchResult): string {
  const b = r.beacon;
  const n = r.baseline;
  const rows: [string, string, string, string][] = [];
  const add = (label: string, beacon: string, baseline: string, x: number | null | undefined = null) =>
    rows.push([label, beacon, n ? baseline : '', n && x ? `${x.toFixed(1)}x` : '']);
  add('POST -> last delivery recorded', sec(b.totalMs), sec(n?.totalMs), r.ratio.endToEnd);
  add('eligibility query', `${fmt(b.stages.eligibilityMs, 1)} ms`, `${fmt(n?.stages.eligibilityMs, 0)} ms (load all + JS filter)`, r.ratio.eligibility);
  add('delivery rows written at', sec(b.stages.rowsWrittenAtMs), sec(n?.stages.rowsWrittenAtMs));
  add('first channel jobs queued at', sec(b.stages.firstJobsQueuedAtMs), sec(n?.stages.firstJobsQueuedAtMs));
  add('all channel jobs queued at', sec(b.stages.allJobsQueuedAtMs), sec(n?.stages.allJobsQueuedAtMs));
  add('first send arrived at', sec(b.stages.firstSendAtMs), sec(n?.stages.firstSendAtMs));
  add('last send arrived at', sec(b.stages.lastSendAtMs), sec(n?.stages.lastSendAtMs));
  add('push sends / s (incl. RFC 8291 encryption)', fmt(b.rates.pushPerSecond), fmt(n?.rates.pushPerSecond), r.ratio.pushPerSecond);
  add('SMS recipients / s', fmt(b.rates.smsRecipientsPerSecond), fmt(n?.rates.smsRecipientsPerSecond), r.ratio.smsRecipientsPerSecond);
  add('SMS webhook calls', fmt(b.rates.smsWebhookCalls), fmt(n?.rates.smsWebhookCalls));
  add('voice calls placed / s (Twilio API)', fmt(b.rates.voiceCallsPerSecond), fmt(n?.rates.voiceCallsPerSecond));
  const transport = (ph: PhaseResult | null) => {
    const t = ph?.pushTransport;
    if (!t) return '';
    const protocol = t.http2Requests && t.http1Requests ? 'HTTP/2 + HTTP/1.1' : t.http2Requests ? 'HTTP/2' : 'HTTP/1.1';
    return `${protocol} over TLS, ${fmt(t.connections)} connections`;
  };
  add('push transport', transport(b), transport(n));
  add('latency POST -> provider p50', sec(b.latencyMs.p50), sec(n?.latencyMs.p50), r.ratio.latencyP50);
  add('latency p95', sec(b.latencyMs.p95), sec(n?.latencyMs.p95));
  add('latency p99', sec(b.latencyMs.p99), sec(n?.latencyMs.p99), r.ratio.latencyP99);
  const names = [...new Set([...b.memory.map((m) => m.process), ...(n?.memory.map((m) => m.process) ?? [])])];
  for (const p of names) {
    const mem = (ph: PhaseResult | null) => ph?.memory.find((m) => m.process === p)?.peakMiB;
    add(`peak RSS ${p}`, `${fmt(mem(b))} MiB`, `${fmt(mem(n))} MiB`);
  }
  add(
    'Redis used_memory peak (start)',
    `${fmt(b.redis.peakMiB, 1)} (${fmt(b.redis.startMiB, 1)}) MiB`,
    `${fmt(n?.redis.peakMiB, 1)} (${fmt(n?.redis.startMiB, 1)}) MiB`,
  );
  const once = (ph: PhaseResult | null) =>
    ph
      ? `${ph.exactlyOnce.ok ? 'yes' : 'NO'} (${fmt(ph.exactlyOnce.push.receivedOnce)} push, ${fmt(ph.exactlyOnce.sms.receivedOnce)} SMS, ${fmt(ph.exactlyOnce.voice.receivedOnce)} voice)`
      : '';
  add('exactly once per recipient and channel', once(b), once(n));
  const widths = [0, 1, 2, 3].map((c) => Math.max(...rows.map((row) => row[c].length), ['', 'Beacon', 'naive baseline', 'ratio'][c].length));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i])).join(' | ')} |`;
  const out = [line(['', 'Beacon', 'naive baseline', 'ratio']), `|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`, ...rows.map(line)];
  const head =
    `${fmt(r.population.subscribers)} subscribers, ${fmt(b.recipients)} recipients (${fmt(b.deliveries.push)} push, ${fmt(b.deliveries.sms)} SMS, ${fmt(b.deliveries.voice)} voice), ` +
    `radius ${r.population.alertRadiusKm} km; ${r.machine.nproc} x ${r.machine.cpu}, ${r.machine.memoryGiB} GiB`;
  const why = [b, n].flatMap((ph) => (ph && !ph.exactlyOnce.ok ? [`${ph.name}: not exactly once: ${notOnce(ph.exactlyOnce)}`] : []));
  return [`${head}\n${out.join('\n')}`, ...why].join('\n');
}

/** What broke exactly-once, in a line: the counts that are not zero and the first undecryptable payloads' reasons. */
function notOnce(e: PhaseResult['exactlyOnce']): string {
  const counts = (['push', 'sms', 'voice'] as const).flatMap((ch) =>
    (['missing', 'duplicated', 'unexpected'] as const).filter((k) => e[ch][k]).map((k) => `${fmt(e[ch][k])} ${ch} ${k}`),
  );
  if (e.rowsSent !== e.rowsExpected) counts.push(`${fmt(e.rowsSent)} of ${fmt(e.rowsExpected)} rows recorded sent`);
  if (e.refused) counts.push(`${fmt(e.refused)} refused by the fake push service`);
  if (e.payloadsUndecryptable) counts.push(`${fmt(e.payloadsUndecryptable)} undecryptable (${e.undecryptableReasons.join('; ')})`);
  return counts.join(', ') || 'see the JSON';
}

/** Deliveries over time for both phases, as a small dependency-free SVG. */
export function svgChart(r: BenchResult): string {
  const W = 760;
  const H = 380;
  const m = { l: 70, r: 20, t: 40, b: 50 };
  const series = [
    { name: 'Beacon', color: '#d9480f', points: r.beacon.timeline },
    ...(r.baseline ? [{ name: 'naive baseline', color: '#1c7ed6', points: r.baseline.timeline }] : []),
  ];
  const maxX = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[0])));
  const maxY = Math.max(1, ...series.flatMap((s) => s.points.map((p) => p[1])));
  const x = (v: number) => m.l + (v / maxX) * (W - m.l - m.r);
  const y = (v: number) => H - m.b - (v / maxY) * (H - m.t - m.b);
  const ticks = (max: number) => {
    const step = 10 ** Math.floor(Math.log10(max));
    const s = max / step > 5 ? step : max / step > 2 ? step / 2 : step / 5;
    return Array.from({ length: Math.floor(max / s) + 1 }, (_, i) => i * s);
  };
  const esc = (s: string) => s.replace(/&/g, '&amp;').replace(/</g, '&lt;');
  const parts = [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${W}" height="${H}" viewBox="0 0 ${W} ${H}" font-family="sans-serif" font-size="12">`,
    `<rect width="${W}" height="${H}" fill="#fff"/>`,
    `<text x="${m.l}" y="22" font-size="14" font-weight="bold">${esc(`Deliveries arrived at the providers after the alert was sent (${r.population.subscribers.toLocaleString('en-US')} subscribers)`)}</text>`,
    ...ticks(maxX).map(
      (t) =>
        `<line x1="${x(t)}" y1="${H - m.b}" x2="${x(t)}" y2="${m.t}" stroke="#eee"/><text x="${x(t)}" y="${H - m.b + 16}" text-anchor="middle">${t}</text>`,
    ),
    ...ticks(maxY).map(
      (t) =>
        `<line x1="${m.l}" y1="${y(t)}" x2="${W - m.r}" y2="${y(t)}" stroke="#eee"/><text x="${m.l - 6}" y="${y(t) + 4}" text-anchor="end">${t.toLocaleString('en-US')}</text>`,
    ),
    `<line x1="${m.l}" y1="${H - m.b}" x2="${W - m.r}" y2="${H - m.b}" stroke="#333"/><line x1="${m.l}" y1="${H - m.b}" x2="${m.l}" y2="${m.t}" stroke="#333"/>`,
    `<text x="${(m.l + W - m.r) / 2}" y="${H - 12}" text-anchor="middle">seconds after the alert was sent</text>`,
    ...series.map(
      (s) =>
        `<polyline fill="none" stroke="${s.color}" stroke-width="2" points="${s.points.map(([a, b]) => `${x(a).toFixed(1)},${y(b).toFixed(1)}`).join(' ')}"/>`,
    ),
    ...series.map(
      (s, i) =>
        `<rect x="${W - m.r - 170}" y="${m.t + 8 + i * 18}" width="12" height="12" fill="${s.color}"/><text x="${W - m.r - 152}" y="${m.t + 18 + i * 18}">${esc(s.name)}</text>`,
    ),
    '</svg>',
  ];
  return parts.join('\n');
}
