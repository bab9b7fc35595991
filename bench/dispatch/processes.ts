import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { parseAllDocuments } from 'yaml';

/** A child process whose JSON (pino) log lines are parsed as they arrive. */
export class ServiceProcess {
  readonly child: ChildProcess;
  private readonly tail: string[] = [];
  private readonly listeners: ((line: LogLine) => void)[] = [];
  readonly exited: Promise<number | null>;
  url = '';

  constructor(
    readonly name: string,
    script: string,
    env: Record<string, string>,
    nodeArgs: string[] = [],
  ) {
    this.child = spawn(process.execPath, [...nodeArgs, script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    this.exited = new Promise((r) => this.child.on('exit', (code) => r(code)));
    for (const stream of [this.child.stdout!, this.child.stderr!]) {
      let buffered = '';
      stream.setEncoding('utf8');
      stream.on('data', (chunk: string) => {
        buffered += chunk;
        let nl: number;
        while ((nl = buffered.indexOf('\n')) >= 0) {
          const text = buffered.slice(0, nl);
          buffered = buffered.slice(nl + 1);
          this.tail.push(text);
          if (this.tail.length > 200) this.tail.shift();
          const line = parseLine(text);
          const listening = /listening on (http:\/\/\S+)/.exec(line.msg);
          if (listening) this.url = listening[1].replace('[::1]', '127.0.0.1');
          for (const l of this.listeners) l(line);
        }
      });
    }
  }

  get pid() {
    return this.child.pid!;
  }

  onLine(fn: (line: LogLine) => void) {
    this.listeners.push(fn);
  }

  output() {
    return this.tail.join('\n');
  }

  async ready(timeoutMs = 60_000) {
    const until = Date.now() + timeoutMs;
    while (!this.url) {
      if (this.child.exitCode !== null) throw new Error(`${this.name} exited with ${this.child.exitCode}:\n${this.output()}`);
      if (Date.now() > until) throw new Error(`${this.name} did not start within ${timeoutMs} ms:\n${this.output()}`);
      await new Promise((r) => setTimeout(r, 50));
    }
    return this;
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 20_000) {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }
}

export interface LogLine {
  /** Epoch ms when the line was logged (pino's `time`), or when it was read. */
  time: number;
  msg: string;
  raw: Record<string, unknown> | null;
}

function parseLine(text: string): LogLine {
  try {
    const raw = JSON.parse(text) as Record<string, unknown>;
    return { time: typeof raw.time === 'number' ? raw.time : Date.now(), msg: typeof raw.msg === 'string' ? raw.msg : text, raw };
  } catch {
    return { time: Date.now(), msg: text, raw: null };
  }
}

/** Resident memory of a process from /proc/<pid>/status, in MiB: current (VmRSS) and peak (VmHWM). */
export function processMemory(pid: number): { rssMiB: number; peakMiB: number } | null {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const kb = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+) kB`, 'm').exec(status)?.[1] ?? NaN);
    return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
  } catch {
    return null;
  }
}

/** CPU seconds (user + system) a process has used, from /proc/<pid>/stat. */
export function processCpuSeconds(pid: number): number | null {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (100 Hz on Linux)
  } catch {
    return null;
  }
}

/**
 * The Node flags the dispatcher image starts with (the `dispatcher` stage's CMD in the Dockerfile, less
 * --enable-source-maps), so the benchmark's workers run as they would in production.
 */
export function dispatcherNodeFlags(dockerfile: string): string[] {
  const stage = /^FROM \S+ AS dispatcher$([\s\S]*?)(?=^FROM |$(?![\s\S]))/m.exec(readFileSync(dockerfile, 'utf8'))?.[1] ?? '';
  const cmd = /^CMD (\[.*\])$/m.exec(stage)?.[1];
  if (!cmd) throw new Error(`${dockerfile}: no CMD in the dispatcher stage`);
  const args: string[] = JSON.parse(cmd);
  return args.slice(1, -1).filter((a) => a !== '--enable-source-maps');
}

/** Prometheus' scrape of every pod's /metrics (k8s/base/networkpolicies.yaml lets it in): 15 s, the shorter of the usual intervals. */
export const SCRAPE_INTERVAL_MS = 15_000;

/** One request a cluster makes of a service again and again. */
export interface ClusterProbe {
  path: string;
  everyMs: number;
}

/**
 * What a cluster asks of a running service, as its manifest says: the kubelet's liveness and readiness probes of the
 * Deployment's container (`httpGet.path`, `periodSeconds`), and Prometheus' scrape of /metrics (SCRAPE_INTERVAL_MS).
 */
export function clusterProbes(manifest: string): ClusterProbe[] {
  type Probe = { httpGet?: { path?: string }; periodSeconds?: number };
  type Container = { livenessProbe?: Probe; readinessProbe?: Probe };
  const deployment = parseAllDocuments(readFileSync(manifest, 'utf8'))
    .map((d) => d.toJS() as { kind?: string; spec?: { template?: { spec?: { containers?: Container[] } } } } | null)
    .find((d) => d?.kind === 'Deployment');
  const container = deployment?.spec?.template?.spec?.containers?.[0];
  const probes = [container?.livenessProbe, container?.readinessProbe].map((p) => {
    // periodSeconds defaults to 10 s in Kubernetes.
    if (!p?.httpGet?.path) throw new Error(`${manifest}: the Deployment's container has no HTTP liveness or readiness probe`);
    return { path: p.httpGet.path, everyMs: (p.periodSeconds ?? 10) * 1000 };
  });
  return [...probes, { path: '/metrics', everyMs: SCRAPE_INTERVAL_MS }];
}

/**
 * Does to running services what a cluster does (clusterProbes of each one's manifest), every probe once at the start,
 * so that a phase has all of them from its first moment (the first request a process serves can switch on what costs
 * it later, as nestjs-pino's request context once did), then at its own period. A process measured without them could
 * differ from one in production. Failures are counted, not thrown: a probe is no part of the result.
 */
export function probe(targets: { process: ServiceProcess; probes: ClusterProbe[] }[]): { stop: () => Promise<{ probes: number; failed: number }> } {
  let probes = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const ask = (p: ServiceProcess, path: string) => {
    const done = fetch(`${p.url.replace(/\/$/, '')}${path}`, { signal: AbortSignal.timeout(5000) })
      .then((r) => r.arrayBuffer().then(() => (r.ok ? undefined : failed++)))
      .catch(() => void failed++)
      .then(() => {
        probes++;
        inFlight.delete(done);
      });
    inFlight.add(done);
  };
  const timers = targets.flatMap(({ process: p, probes: asked }) =>
    asked.map(({ path, everyMs }) => {
      ask(p, path);
      return setInterval(() => ask(p, path), everyMs);
    }),
  );
  return {
    stop: async () => {
      timers.forEach(clearInterval);
      await Promise.all([...inFlight]);
      return { probes, failed };
    },
  };
}
