import { createECDH, randomBytes } from 'node:crypto';
import {
  encryptPayload,
  jsKeyAgreement,
  type KeyAgreement,
  nativeKeyAgreement,
  type PushKeys,
  WEB_PUSH_ECDH,
} from '../../services/alerts/src/channels/web-push.crypto';

/**
 * What one Web Push message's RFC 8291 encryption costs the dispatcher, three ways measured in the same run, rounds
 * alternating, on the same subscriber keys and a payload the size of a real alert's: node:crypto throughout (the
 * baseline, what runs where the addon cannot be built), the addon's key agreement under node:crypto's HMACs and
 * AES-GCM (what the dispatcher ran before), and the addon's whole-message encryption (what it runs now). Prints
 * microseconds of CPU per message for each and its ratio to the baseline. A busy machine still makes all of them
 * slower (shared caches, the other core's hyperthread), which the ratios survive better than the figures.
 *
 *   npm run bench:webpush [-- --messages N] [--rounds R]
 */
const arg = (flag: string, fallback: number) => {
  const i = process.argv.indexOf(flag);
  const n = i >= 0 ? Number(process.argv[i + 1]) : fallback;
  if (!Number.isInteger(n) || n < 1) throw new Error(`${flag} must be a positive integer`);
  return n;
};
const MESSAGES = arg('--messages', 20_000);
const ROUNDS = arg('--rounds', 5);

const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];

function main() {
  if (!nativeKeyAgreement || WEB_PUSH_ECDH.implementation !== 'native') {
    console.error('The native addon is not built, or is an older build (see libs/webpush-native/build.log): nothing to compare.');
    process.exitCode = 1;
    return;
  }
  // A few hundred subscribers, as a batch holds; an alert's payload (title, body, receipt tokens) is about 600 bytes.
  const subscribers: PushKeys[] = Array.from({ length: 500 }, () => ({
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  }));
  const payload = randomBytes(600);
  // No key agreement given: encryptPayload's default, the addon's whole-message encryption.
  const ways: [string, KeyAgreement | undefined][] = [
    ['node:crypto throughout (baseline)', jsKeyAgreement],
    ['native key agreement, node:crypto rest', nativeKeyAgreement],
    ['native whole-message encryption', undefined],
  ];
  // Process CPU time rather than wall time: on a shared machine the loop is descheduled at times, which is not a cost
  // of the encryption. The process's other threads (the GC's) are included, as the garbage is part of the cost.
  const run = (agree: KeyAgreement | undefined) => {
    const start = process.cpuUsage();
    for (let i = 0; i < MESSAGES; i++) encryptPayload(payload, subscribers[i % subscribers.length], undefined, agree);
    const { user, system } = process.cpuUsage(start);
    return (user + system) / MESSAGES;
  };
  for (const [, agree] of ways) run(agree); // warm-up
  const times: number[][] = ways.map(() => []);
  for (let r = 0; r < ROUNDS; r++) ways.forEach(([, agree], w) => times[w].push(run(agree)));
  const medians = times.map(median);
  const baseline = medians[0];
  console.log(`RFC 8291 encryption, ${MESSAGES} messages x ${ROUNDS} rounds (median), Node ${process.version}, OpenSSL ${process.versions.openssl}`);
  ways.forEach(([name], w) => {
    const us = medians[w];
    const ratio = w === 0 ? '' : `  ${(baseline / us).toFixed(2)}x the baseline (${Math.round((1 - us / baseline) * 100)}% less CPU per message)`;
    console.log(`  ${`${name}:`.padEnd(42)}${us.toFixed(1).padStart(6)} us per message${ratio}`);
  });
  const [, agreeOnly, whole] = medians;
  console.log(`  whole-message against key agreement only: ${(agreeOnly / whole).toFixed(2)}x (${(agreeOnly - whole).toFixed(1)} us less per message)`);
}

main();
