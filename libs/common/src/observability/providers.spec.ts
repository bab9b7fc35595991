import { metricsRegistry } from './metrics';
import { observeProvider, providerErrorKind } from './providers';

async function value(name: string, labels: Record<string, string>): Promise<number> {
  const served = metricsRegistry.getSingleMetric(name);
  if (!served) return 0; // not served before its first call
  const metric = await served.get();
  const found = metric.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return found?.value ?? 0;
}

describe('observeProvider', () => {
  it('times a call that succeeds', async () => {
    const before = await value('beacon_provider_request_duration_seconds', { provider: 'test-ok', outcome: 'ok' });
    await expect(observeProvider('test-ok', async () => 'sent')).resolves.toBe('sent');
    // the histogram's count series ends in _count
    const metric = await metricsRegistry.getSingleMetric('beacon_provider_request_duration_seconds')!.get();
    const count = metric.values.find(
      (v) => (v as { metricName?: string }).metricName?.endsWith('_count') && v.labels.provider === 'test-ok' && v.labels.outcome === 'ok',
    );
    expect(count?.value).toBe(1);
    expect(before).toBeGreaterThanOrEqual(0);
  });

  it('counts a thrown failure by kind and rethrows it', async () => {
    const err = Object.assign(new Error('Webhook answered 503'), { status: 503 });
    await expect(observeProvider('test-fail', () => Promise.reject(err))).rejects.toBe(err);
    expect(await value('beacon_provider_errors_total', { provider: 'test-fail', kind: 'status_5xx' })).toBe(1);
  });

  it('counts an answer whose status says it failed, without throwing', async () => {
    await expect(
      observeProvider(
        'test-push',
        async () => ({ status: 410 }),
        (r) => r.status,
      ),
    ).resolves.toEqual({ status: 410 });
    expect(await value('beacon_provider_errors_total', { provider: 'test-push', kind: 'status_4xx' })).toBe(1);
  });

  it('tells time-outs, SMTP codes and network failures apart', () => {
    expect(providerErrorKind(Object.assign(new Error('timed out'), { name: 'TimeoutError' }))).toBe('timeout');
    expect(providerErrorKind(new Error('Webhook call failed: timed out'))).toBe('timeout');
    expect(providerErrorKind(Object.assign(new Error('mailbox unavailable'), { responseCode: 550 }))).toBe('status_5xx');
    expect(providerErrorKind(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toBe('network');
    expect(providerErrorKind(null)).toBe('network');
  });
});
