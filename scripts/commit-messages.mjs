// The commit convention (README, "Contributing: commits"), checked on the history since it was written down:
// a subject of at most 72 characters, a blank line, then a body. `node scripts/commit-messages.mjs` lists what breaks it.
import { execFileSync } from 'node:child_process';

/** The last commit before the convention; every commit after it follows it. */
export const CONVENTION_SINCE = 'd04d7270aa324fab7c82598456b3cd687daaf4ce';
export const SUBJECT_MAX = 72;

/** What is wrong with one commit message (subject, then the rest as git keeps it), or an empty list. */
export function messageProblems(message) {
  const [subject, blank, ...body] = message.replace(/\n+$/, '').split('\n');
  const problems = [];
  if ([...subject].length > SUBJECT_MAX) problems.push(`subject over ${SUBJECT_MAX} characters (${[...subject].length})`);
  if (/\.$/.test(subject)) problems.push('subject ends with a full stop');
  if (/^[a-z]/.test(subject)) problems.push('subject does not start with a capital letter');
  if (blank !== undefined && blank.trim() !== '') problems.push('no blank line between the subject and the body');
  else if (!body.join('').trim()) problems.push('no body: say why, with the measurements');
  return problems;
}

/** The commits after CONVENTION_SINCE (merges aside) that break the convention, or null in a clone without that commit. */
export function historyProblems(cwd = process.cwd()) {
  const git = (...args) => execFileSync('git', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] });
  try {
    git('rev-parse', '--verify', `${CONVENTION_SINCE}^{commit}`);
  } catch {
    return null;
  }
  const log = git('log', '--no-merges', '--format=%h%x00%B%x01', `${CONVENTION_SINCE}..HEAD`);
  return log
    .split('\x01')
    .map((entry) => entry.replace(/^\n/, ''))
    .filter(Boolean)
    .flatMap((entry) => {
      const [hash, message] = entry.split('\x00');
      return messageProblems(message).map((problem) => `${hash} ${message.split('\n')[0].slice(0, 60)}: ${problem}`);
    });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const problems = historyProblems();
  if (problems === null) console.log(`commit-messages: ${CONVENTION_SINCE} is not in this clone; nothing to check`);
  else if (problems.length) {
    for (const p of problems) console.log(p);
    process.exitCode = 1;
  } else console.log('commit-messages: ok');
}
