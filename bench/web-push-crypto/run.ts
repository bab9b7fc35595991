import { createECDH, randomBytes } from 'node:crypto';
import { performance } from 'node:perf_hooks';
import { encryptPayload, jsKeyAgreement, nativeKeyAgreement, type PushKeys } from '../../services/alerts/src/channels/web-push.crypto';

/**
 * What one Web Push message's RFC 8291 encryption costs the dispatcher, with the native key agreement
 * (libs/webpush-native) against node:crypto's (the baseline, what runs where the addon cannot be built), measured in
 * the same run, rounds alternating, on the same subscriber keys and a payload the size of a real alert's. Prints
 * microseconds per message for each and the ratio. CPU time on one core: the machine being busy makes both slower
 * alike, which the ratio survives better than the figures.
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
  if (!nativeKeyAgreement) {
    console.error('The native addon is not built (see libs/webpush-native/build.log): nothing to compare.');
    process.exitCode = 1;
    return;
  }
  // A few hundred subscribers, as a batch holds; an alert's payload (title, body, receipt tokens) is about 600 bytes.
  const subscribers: PushKeys[] = Array.from({ length: 500 }, () => ({
    p256dh: createECDH('prime256v1').generateKeys().toString('base64url'),
    auth: randomBytes(16).toString('base64url'),
  }));
  const payload = randomBytes(600);
  const run = (agree: typeof jsKeyAgreement) => {
    const start = performance.now();
    for (let i = 0; i < MESSAGES; i++) encryptPayload(payload, subscribers[i % subscribers.length], undefined, agree);
    return ((performance.now() - start) * 1000) / MESSAGES;
  };
  run(jsKeyAgreement); // warm-up
  run(nativeKeyAgreement);
  const js: number[] = [];
  const native: number[] = [];
  for (let r = 0; r < ROUNDS; r++) {
    js.push(run(jsKeyAgreement));
    native.push(run(nativeKeyAgreement));
  }
  const [b, n] = [median(js), median(native)];
  console.log(`RFC 8291 encryption, ${MESSAGES} messages x ${ROUNDS} rounds (median), Node ${process.version}, OpenSSL ${process.versions.openssl}`);
  console.log(`  node:crypto key agreement (baseline): ${b.toFixed(1)} us per message`);
  console.log(`  native key agreement:                 ${n.toFixed(1)} us per message`);
  console.log(`  ratio: ${(b / n).toFixed(2)}x faster (${Math.round((1 - n / b) * 100)}% less CPU per message)`);
}

main();
