import { ChildProcess, spawn } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { serviceEntry } from '@beacon/contracts';
import { waitFor } from '@beacon/testing';

/** The dispatcher as `npm run build:server` compiles it: what production runs. */
export const COMPILED_DISPATCHER = join(__dirname, '..', '..', '..', '..', 'dist', serviceEntry('dispatcher'));

export interface CompiledWorker {
  child: ChildProcess;
  /** The exit code; null when a signal ended it. */
  exited: Promise<number | null>;
  /** Resolves once it listens; rejects with its output if it exited first. */
  ready: Promise<void>;
  /** Everything it printed so far, stdout and stderr. */
  output(): string;
}

export function assertCompiledDispatcher() {
  if (!existsSync(COMPILED_DISPATCHER)) throw new Error('dist/ is missing: run `npm run build:server` first (npm test does)');
}

/** Starts the compiled dispatcher as a child process on `vars` (a DispatchStack's, plus any overrides). */
/**
 * A dispatcher that recovers within seconds, for the failure specs: small batches worked one at a time, short job locks
 * and batch deadlines, a sweep every second, and a re-drive threshold just past the longest channel job (2 + 2 s, + 5).
 */
export const QUICK_RECOVERY_DISPATCHER: Record<string, string> = {
  PUSH_BATCH_SIZE: '3',
  SMS_BATCH_SIZE: '3',
  CHANNEL_CONCURRENCY: '1',
  PUSH_REQUEST_CONCURRENCY: '1',
  JOB_LOCK_MS: '2000',
  CHANNEL_BATCH_DEADLINE_SECONDS: '2',
  CHANNEL_SEND_GRACE_SECONDS: '2',
  SHUTDOWN_GRACE_SECONDS: '30',
  SWEEP_INTERVAL_SECONDS: '1',
  REDRIVE_AFTER_SECONDS: '9',
};

export function startCompiledDispatcher(vars: Record<string, string>): CompiledWorker {
  return startCompiled(COMPILED_DISPATCHER, { DISPATCHER_PORT: '0', ...vars });
}

/**
 * The compiled Socket.IO gateway (its own tree, run as built, never imported) on `vars`, on a free port; `url()` is
 * where it listens once `ready`.
 */
export function startCompiledGateway(vars: Record<string, string>): CompiledWorker & { url(): string } {
  const gateway = join(__dirname, '..', '..', '..', '..', 'dist', serviceEntry('gateway'));
  if (!existsSync(gateway)) throw new Error('dist/ is missing: run `npm run build:server` first (npm test does)');
  const started = startCompiled(gateway, { GATEWAY_PORT: '0', ...vars });
  return { ...started, url: () => /listening on (http:\/\/[^\s"]+)/.exec(started.output())?.[1] ?? '' };
}

function startCompiled(entry: string, vars: Record<string, string>): CompiledWorker {
  const child = spawn(process.execPath, [entry], {
    env: { ...process.env, NODE_ENV: 'test', LOG_LEVEL: 'info', ...vars },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let out = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const exited = new Promise<number | null>((r) => child.on('exit', (code) => r(code)));
  const ready = waitFor('the process to listen', () => /listening on/.test(out) || child.exitCode !== null, 30_000).then(() => {
    if (child.exitCode !== null) throw new Error(`process exited: ${out}`);
  });
  return { child, exited, ready, output: () => out };
}
