/**
 * Starts processes the way the images do and waits for each to say it is ready; reports the ones that exit or never
 * answer, with the last lines they printed.
 */
import { spawn } from 'node:child_process';
import { createServer } from 'node:net';

export async function freePort() {
  const server = createServer();
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  await new Promise((resolve) => server.close(resolve));
  return port;
}

/** The last lines a process printed, led by its error's own line when a long stack trace pushed that out of them. */
function tail(text, count = 15) {
  const lines = text.trimEnd().split('\n');
  const last = lines.slice(-count);
  const error = lines.findLast((l) => /^\w*Error\b|^\S.*Error: /.test(l));
  return (error && !last.includes(error) ? [error, '    ...', ...last] : last).join('\n');
}

/** Runs a one-shot command to its end: `{ ok, code, output }`. */
export function runToEnd({ command, env, cwd }) {
  return new Promise((resolve) => {
    const child = spawn(command[0], command.slice(1), { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (d) => (output += d));
    child.stderr.on('data', (d) => (output += d));
    child.on('error', (e) => resolve({ ok: false, code: null, output: `${output}${e.message}` }));
    child.on('exit', (code, signal) => resolve({ ok: code === 0, code: code ?? signal, output: tail(output) }));
  });
}

/**
 * Starts every process (`{ name, command, env, readyUrls }`) at once in `cwd` and waits until each answers 200 on
 * every one of its `readyUrls`, or exits, or `seconds` pass. Resolves `{ started, failed: [{ name, why, output }] }`
 * and leaves the started ones running: call `stop()` on the result.
 */
export async function startAll(processes, { cwd, seconds = 120 }) {
  const running = processes.map((p) => {
    const child = spawn(p.command[0], p.command.slice(1), { cwd, env: p.env, stdio: ['ignore', 'pipe', 'pipe'] });
    const state = { ...p, child, output: '', exited: undefined };
    child.stdout.on('data', (d) => (state.output = (state.output + d).slice(-20_000)));
    child.stderr.on('data', (d) => (state.output = (state.output + d).slice(-20_000)));
    child.on('error', (e) => (state.exited = e.message));
    child.on('exit', (code, signal) => (state.exited ??= `exited (${signal ?? code})`));
    return state;
  });
  const until = Date.now() + seconds * 1000;
  const ready = async (p) => {
    for (const url of p.readyUrls) {
      const res = await fetch(url, { signal: AbortSignal.timeout(2000) }).catch(() => undefined);
      if (res?.status !== 200) return false;
    }
    return true;
  };
  const failed = [];
  const started = [];
  await Promise.all(
    running.map(async (p) => {
      while (!p.exited && Date.now() < until) {
        if (await ready(p)) return void started.push(p.name);
        await new Promise((r) => setTimeout(r, 300));
      }
      failed.push({ name: p.name, why: p.exited ?? `did not answer 200 on ${p.readyUrls.join(' and ')} within ${seconds} s`, output: tail(p.output) });
    }),
  );
  const stop = async () => {
    await Promise.all(
      running.map(
        (p) =>
          new Promise((resolve) => {
            if (p.child.exitCode !== null || p.child.signalCode) return resolve();
            const kill = setTimeout(() => p.child.kill('SIGKILL'), 30_000);
            p.child.once('exit', () => {
              clearTimeout(kill);
              resolve();
            });
            p.child.kill('SIGTERM');
          }),
      ),
    );
  };
  return { started, failed, stop };
}
