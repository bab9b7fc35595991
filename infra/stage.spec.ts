import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';

const stageModule = pathToFileURL(join(__dirname, '..', 'scripts', 'stage.mjs')).href;

/** Runs scripts/stage.mjs's runStage in a node of its own (it is an ES module), without a terminal, as CI does. */
function runStage(options: { cmd: string; args: string[]; seconds: number; killAfterSeconds?: number }) {
  const script = `import(${JSON.stringify(stageModule)}).then(({ runStage }) => { process.exitCode = runStage({ label: 'unit', ...${JSON.stringify(options)}, interactive: false }); });`;
  const r = spawnSync(process.execPath, ['-e', script], { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
  return { status: r.status, stdout: r.stdout };
}

/** Whether `pid` still runs: a process that has exited but is not yet reaped (a zombie, state Z) does not. */
const running = (pid: number) => {
  try {
    return readFileSync(`/proc/${pid}/stat`, 'utf8').replace(/^.*\) /s, '')[0] !== 'Z';
  } catch {
    return false;
  }
};

/** `npm test`'s stages under their time limits (scripts/run-tests.mjs), so a hang fails CI naming its stage. */
describe('runStage', () => {
  let dir: string;
  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'beacon-stage-'));
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it("returns the stage's own status and says nothing more when it ends in time", () => {
    const r = runStage({ cmd: 'bash', args: ['-c', 'echo done; exit 3'], seconds: 60 });
    expect(r).toEqual({ status: 3, stdout: 'done\n' });
  });

  it('stops a stage that hangs past its limit, the children it started included, and names the stage', () => {
    const pidFile = join(dir, 'child.pid');
    // A stage that leaves a child behind and then hangs, as a Jest run stuck in a spec with its workers.
    const r = runStage({ cmd: 'bash', args: ['-c', `sleep 600 >/dev/null 2>&1 & echo $! > ${pidFile}; sleep 600`], seconds: 1, killAfterSeconds: 5 });
    expect(r.status).toBe(124);
    expect(r.stdout).toContain('== unit: stopped at its limit of 1 s (a hang');
    const child = Number(readFileSync(pidFile, 'utf8'));
    expect(child).toBeGreaterThan(0);
    const left = running(child);
    if (left) process.kill(child, 'SIGKILL');
    expect(left).toBe(false);
  });
});
