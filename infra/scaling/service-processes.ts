import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEntry } from '@beacon/contracts';

const ROOT = join(__dirname, '..', '..');

/** The compiled entry points the scaling test runs, as a deployment would (`npm run build:server`). */
export const COMPILED = {
  dispatcher: join(ROOT, 'dist', serviceEntry('dispatcher')),
  gateway: join(ROOT, 'dist', serviceEntry('gateway')),
};

/** Fails with one clear line when the build the processes run from is not there. */
export function assertCompiled() {
  const missing = Object.values(COMPILED).filter((f) => !existsSync(f));
  if (missing.length) {
    throw new Error(`dist/ is missing ${missing.map((f) => f.slice(ROOT.length + 1)).join(', ')}: run \`npm run build:server\` first (npm test does)`);
  }
}

export interface ServiceProcess {
  name: string;
  child: ChildProcess;
  pid: number;
  /** The URL the service logged it listens on (its port is the one the OS gave it for port 0). */
  url: string;
  /** Resolves with the signal that ended the process (null when it exited by itself). */
  exited: Promise<NodeJS.Signals | null>;
  output(): string;
}

/**
 * Starts and tracks service processes; killAll() ends every one still running (SIGKILL), also when the
 * test process itself is on its way out, so no worker outlives its test.
 */
export class ServiceProcesses {
  private readonly running: ServiceProcess[] = [];
  private readonly onExit = () => this.killNow();

  constructor() {
    process.once('exit', this.onExit);
  }

  /**
   * Runs `node <script>` with `env` on top of the test's environment and waits (bounded) for its
   * "listening on <url>" log line. A process that exits first fails with its output.
   */
  async start(name: string, script: string, env: Record<string, string>, timeoutMs = 30_000): Promise<ServiceProcess> {
    const child = spawn(process.execPath, [script], { env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout!.on('data', (d) => (out += d));
    child.stderr!.on('data', (d) => (out += d));
    const exited = new Promise<NodeJS.Signals | null>((r) => child.once('exit', (_code, signal) => r(signal)));
    const proc: ServiceProcess = { name, child, pid: child.pid!, url: '', exited, output: () => out };
    this.running.push(proc);

    const until = Date.now() + timeoutMs;
    while (!proc.url) {
      const m = /listening on (http:\/\/[^\s"]+)/.exec(out);
      if (m) proc.url = m[1].replace('[::1]', '127.0.0.1');
      else if (child.exitCode !== null || child.signalCode !== null) throw new Error(`${name} exited during start-up:\n${out}`);
      else if (Date.now() > until) throw new Error(`${name} did not log "listening on" in time:\n${out}`);
      else await new Promise((r) => setTimeout(r, 50));
    }
    return proc;
  }

  /** SIGKILL one process and wait until it is gone. */
  async kill(proc: ServiceProcess): Promise<NodeJS.Signals | null> {
    proc.child.kill('SIGKILL');
    return proc.exited;
  }

  /** Ends every process still running and waits for each to be gone. */
  async killAll() {
    const alive = this.killNow();
    await Promise.all(alive.map((p) => p.exited));
    process.removeListener('exit', this.onExit);
  }

  private killNow(): ServiceProcess[] {
    const alive = this.running.filter((p) => p.child.exitCode === null && p.child.signalCode === null);
    for (const p of alive) p.child.kill('SIGKILL');
    return alive;
  }
}
