import { execFileSync } from 'node:child_process';
import { join } from 'node:path';

const ROOT = join(__dirname, '..');
const SCRIPT = JSON.stringify(new URL(`file://${join(ROOT, 'scripts', 'commit-messages.mjs')}`).href);

/** Calls an export of scripts/commit-messages.mjs in a node of its own (an ES module, as the script runs). */
function call<T>(fn: 'messageProblems' | 'historyProblems', arg: string): T {
  const source = `import(${SCRIPT}).then((m) => process.stdout.write(JSON.stringify(m.${fn}(${JSON.stringify(arg)}))));`;
  return JSON.parse(execFileSync(process.execPath, ['--input-type=module', '-e', source], { cwd: ROOT, encoding: 'utf8' })) as T;
}
const problems = (message: string) => call<string[]>('messageProblems', message);

describe('the commit convention (README, Contributing: commits)', () => {
  it('takes a short subject, a blank line and a body', () => {
    expect(problems('Add voice channel receipts\n\nProviders report the outcome of a call; the console showed "sent".\n')).toEqual([]);
  });

  it('names each way a message breaks it', () => {
    expect(problems(`${'Make the dispatcher '.repeat(4)}faster\n\nWhy.`)).toEqual(['subject over 72 characters (86)']);
    expect(problems('Fix the sweep.\n\nWhy.')).toEqual(['subject ends with a full stop']);
    expect(problems('fix the sweep\n\nWhy.')).toEqual(['subject does not start with a capital letter']);
    expect(problems('Fix the sweep\n')).toEqual(['no body: say why, with the measurements']);
    expect(problems('Fix the sweep\nWhy.')).toEqual(['no blank line between the subject and the body']);
  });

  it('holds for every commit since it was written down', () => {
    const found = call<string[] | null>('historyProblems', ROOT);
    // A shallow clone has no history to judge; say so rather than pass in silence.
    if (found === null) console.warn('commit-messages: this clone lacks the commit the convention starts after (shallow?); history not checked');
    expect(found ?? []).toEqual([]);
  });
});
