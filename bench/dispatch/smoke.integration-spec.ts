import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Client } from 'pg';
import { parseArgs, runBenchmark } from './run';

/**
 * The dispatch benchmark end to end at 10,000 subscribers, as CI runs it: real PostgreSQL and Redis, the
 * compiled alerts service and dispatcher workers as child processes (needs `npm run build:server`), the fake
 * push service, SMS webhook and Twilio API (voice calls). It checks correctness only — every eligible recipient got
 * exactly one message per channel from Beacon and from the naive baseline — never timing.
 */
jest.setTimeout(300_000);

describe('dispatch benchmark (10,000-subscriber smoke run)', () => {
  const out = mkdtempSync(join(tmpdir(), 'beacon-bench-smoke-'));
  const lines: string[] = [];
  const options = {
    // Every payload decrypted by the reference implementation (`--decrypt-every 1`), not a sample.
    ...parseArgs([
      '--subscribers',
      '10000',
      '--out',
      out,
      '--database',
      `beacon_bench_smoke_${process.pid}`,
      '--timeout-seconds',
      '90',
      '--decrypt-every',
      '1',
    ]),
    log: (line: string) => lines.push(line),
  };

  afterAll(async () => {
    rmSync(out, { recursive: true, force: true });
    const admin = new Client({ connectionString: options.adminUrl });
    await admin.connect();
    await admin.query(`DROP DATABASE IF EXISTS "${options.database}" WITH (FORCE)`);
    await admin.end();
  });

  it('delivers exactly once per recipient and channel (push, SMS, voice), for Beacon and for the naive baseline', async () => {
    const r = await runBenchmark(options);
    if (!r.beacon.completed || !r.baseline?.completed) console.log(lines.join('\n')); // what the workers said, to diagnose

    expect(r.population.expectedRecipients).toBeGreaterThan(1000); // about 20% of 10,000
    for (const phase of [r.beacon, r.baseline!]) {
      expect(phase.error).toBeUndefined();
      expect(phase.completed).toBe(true);
      const { push, sms, voice } = phase.exactlyOnce;
      expect(push.expected).toBeGreaterThan(0);
      expect(sms.expected).toBeGreaterThan(0);
      expect(voice.expected).toBeGreaterThan(0);
      expect(push).toEqual({ expected: push.expected, receivedOnce: push.expected, missing: 0, duplicated: 0, unexpected: 0 });
      expect(sms).toEqual({ expected: sms.expected, receivedOnce: sms.expected, missing: 0, duplicated: 0, unexpected: 0 });
      expect(voice).toEqual({ expected: voice.expected, receivedOnce: voice.expected, missing: 0, duplicated: 0, unexpected: 0 });
      expect(phase.exactlyOnce.rowsSent).toBe(push.expected + sms.expected + voice.expected);
      expect(phase.exactlyOnce.refused).toBe(0);
      expect(phase.exactlyOnce.payloadsDecrypted).toBe(push.expected); // the push service decrypted every payload
      expect(phase.exactlyOnce.payloadsUndecryptable).toBe(0);
      expect(phase.exactlyOnce.ok).toBe(true);
    }
    // Both talk TLS to the push service: Beacon over HTTP/2, web-push over HTTP/1.1. The fake allows 100 streams per
    // connection, as Google's front ends do, so a worker with all its requests in flight (CHANNEL_CONCURRENCY 8 x
    // PUSH_REQUEST_CONCURRENCY 64) needs a few connections; never one per request.
    expect(r.beacon.pushTransport.http1Requests).toBe(0);
    expect(r.beacon.pushTransport.http2Requests).toBeGreaterThanOrEqual(r.beacon.exactlyOnce.push.expected);
    expect(r.beacon.pushTransport.connections).toBeLessThanOrEqual(options.workers * Math.ceil((8 * 64) / 100));
    expect(r.baseline!.pushTransport.http2Requests).toBe(0);
    expect(r.baseline!.pushTransport.http1Requests).toBeGreaterThanOrEqual(r.baseline!.exactlyOnce.push.expected);

    // SMS recipients are batched into webhook calls by Beacon, one call each by the baseline.
    expect(r.beacon.rates.smsWebhookCalls).toBeLessThan(r.beacon.exactlyOnce.sms.expected / 100);
    expect(r.baseline!.rates.smsWebhookCalls).toBe(r.baseline!.exactlyOnce.sms.expected);

    // The report files: the JSON round-trips, the chart has a line per phase.
    const json = JSON.parse(readFileSync(join(out, 'dispatch-10000.json'), 'utf8'));
    expect(json.beacon.exactlyOnce.ok).toBe(true);
    expect(json.eligibilityPlan).toContain('user_preferences_strip_idx');
    const svg = readFileSync(join(out, 'dispatch-10000.svg'), 'utf8');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
    expect(existsSync(join(out, 'dispatch-10000.svg'))).toBe(true);
  });
});
