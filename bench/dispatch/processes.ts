import { ChildProcess, spawn } from 'node:child_process';
import { readFileSync } from 'node:fs';

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

/**
 * What a cluster does to running services: GET /ready (the kubelet's readiness probe) and GET /metrics (Prometheus'
 * scrape) of each, here every `everyMs` (a cluster: every 10-30 s) so that a run has them from its first second on.
 * A process measured without them could differ from one in production (a probe is an HTTP request, and the request
 * handling is part of the process). Failures are counted, not thrown: a probe is no part of the result.
 */
export function probe(ps: ServiceProcess[], everyMs = 1000): { stop: () => Promise<{ probes: number; failed: number }> } {
  let probes = 0;
  let failed = 0;
  const inFlight = new Set<Promise<void>>();
  const once = () => {
    for (const p of ps) {
      for (const path of ['/ready', '/metrics']) {
        const done = fetch(`${p.url.replace(/\/$/, '')}${path}`, { signal: AbortSignal.timeout(5000) })
          .then((r) => r.arrayBuffer().then(() => (r.ok ? undefined : failed++)))
          .catch(() => void failed++)
          .then(() => {
            probes++;
            inFlight.delete(done);
          });
        inFlight.add(done);
      }
    }
  };
  once();
  const timer = setInterval(once, everyMs);
  return {
    stop: async () => {
      clearInterval(timer);
      await Promise.all([...inFlight]);
      return { probes, failed };
    },
  };
}
