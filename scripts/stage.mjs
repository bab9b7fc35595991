// One stage of `npm test` (scripts/run-tests.mjs) under a time limit.
import { spawnSync } from 'node:child_process';

/**
 * Runs `cmd args` with the output inherited and returns its exit status. Past `seconds` the stage is stopped: coreutils'
 * timeout runs it in a process group of its own and signals all of it (Jest's workers, browsers' helpers), kills what
 * is left `killAfterSeconds` later, and a line says which stage was stopped (status 124, or 137 once killed), so a hang
 * fails the run naming itself instead of holding CI until its own timeout. With `interactive` (a terminal) the stage
 * stays in the foreground group so that Ctrl-C reaches it; the limit then stops the command but not its children.
 */
export function runStage({ label, cmd, args, cwd, env = process.env, seconds, killAfterSeconds = 60, interactive = Boolean(process.stdin.isTTY) }) {
  const foreground = interactive ? ['--foreground'] : [];
  const r = spawnSync('timeout', [...foreground, `--kill-after=${killAfterSeconds}`, String(seconds), cmd, ...args], { cwd, env, stdio: 'inherit' });
  if (r.status === 124 || r.status === 137) {
    const limit = seconds % 60 === 0 ? `${seconds / 60} minutes` : `${seconds} s`;
    process.stdout.write(`\n== ${label}: stopped at its limit of ${limit} (a hang: the last lines above say where)\n`);
  }
  return r.status ?? 1;
}
