import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { classifyStatus, networkFailure, ProviderError } from './provider-error';
import { MAX_RESPONSE_BYTES } from '@beacon/common';
import { postWebhook } from './webhook.client';
import { scriptedResolver } from '@beacon/testing';

describe('classifyStatus', () => {
  it.each([200, 201, 202, 204])('%i is success', (status) => {
    expect(classifyStatus(status)).toBeNull();
    expect(classifyStatus(status, true)).toBeNull();
  });

  it.each([400, 401, 403, 404, 410, 413, 422])('%i from a webhook fails at once', (status) => {
    expect(classifyStatus(status)).toBe('permanent');
  });

  it.each([408, 425, 429, 500, 502, 503, 504])('%i is retried', (status) => {
    expect(classifyStatus(status)).toBe('transient');
    expect(classifyStatus(status, true)).toBe('transient');
  });

  it('404 and 410 from a push service mean the subscription is gone; its other refusals stay permanent', () => {
    expect(classifyStatus(404, true)).toBe('gone');
    expect(classifyStatus(410, true)).toBe('gone');
    expect(classifyStatus(401, true)).toBe('permanent');
    expect(classifyStatus(413, true)).toBe('permanent');
  });
});

describe('networkFailure', () => {
  it('a time-out or an abort is transient and says so', () => {
    for (const name of ['TimeoutError', 'AbortError']) {
      const e = Object.assign(new Error('The operation was aborted'), { name });
      expect(networkFailure(e, 'Webhook call failed')).toMatchObject({ failure: 'transient', message: 'Webhook call failed: timed out' });
    }
  });

  it('a connection error is transient, named by its code', () => {
    const e = Object.assign(new TypeError('fetch failed'), { cause: { code: 'ECONNREFUSED' } });
    expect(networkFailure(e, 'push request failed')).toMatchObject({ failure: 'transient', message: 'push request failed: ECONNREFUSED' });
  });

  it('passes a ProviderError through unchanged', () => {
    const e = new ProviderError('permanent', 'refused', 401);
    expect(networkFailure(e, 'x')).toBe(e);
  });
});

/** postWebhook against a local webhook that answers each path with its script. */
describe('postWebhook failures', () => {
  let server: Server;
  let base: string;
  const calls: { path: string; key: string | undefined }[] = [];

  beforeAll(async () => {
    server = createServer((req, res) => {
      calls.push({ path: req.url!, key: req.headers['idempotency-key'] as string | undefined });
      req.resume();
      req.on('end', () => {
        const status = Number(req.url!.split('/')[1]);
        if (req.url === '/hang') return; // never answers
        if (req.url === '/big') return res.end(JSON.stringify({ filler: 'x'.repeat(MAX_RESPONSE_BYTES) }));
        if (status === 429) res.setHeader('retry-after', '7');
        if (status === 302) res.setHeader('location', 'http://169.254.169.254/latest/meta-data');
        res.statusCode = status;
        res.end(status < 300 ? JSON.stringify({ messageId: 'm-1', status: 'delivered' }) : `refused with ${status}`);
      });
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  });

  const post = (path: string, timeoutMs = 5000) =>
    postWebhook(`${base}${path}`, { hello: 'world' }, { timeoutMs, idempotencyKey: `key-${path}`, allowHosts: ['127.0.0.1'] });
  const failure = (path: string, timeoutMs?: number) =>
    post(path, timeoutMs).then(
      () => null,
      (e: ProviderError) => e,
    );

  it('returns the parsed body of a 2xx', async () => {
    expect(await post('/200')).toEqual({ status: 200, body: { messageId: 'm-1', status: 'delivered' } });
    expect(calls.find((c) => c.path === '/200')?.key).toBe('key-/200');
  });

  it.each([[400], [401], [404], [413]])('%i is permanent, with the status and the answer', async (status) => {
    const e = await failure(`/${status}`);
    expect(e).toBeInstanceOf(ProviderError);
    expect(e).toMatchObject({ failure: 'permanent', status, message: `Webhook answered ${status}: refused with ${status}` });
  });

  it('429 with Retry-After is transient', async () => {
    expect(await failure('/429')).toMatchObject({ failure: 'transient', status: 429 });
  });

  it.each([[500], [502], [503]])('%i is transient', async (status) => {
    expect(await failure(`/${status}`)).toMatchObject({ failure: 'transient', status });
  });

  it('a webhook that does not answer in time is transient', async () => {
    expect(await failure('/hang', 200)).toMatchObject({ failure: 'transient', message: 'Webhook call failed: timed out' });
  });

  it('a redirect is not followed and fails at once', async () => {
    expect(await failure('/302')).toMatchObject({ failure: 'permanent', status: 302 });
    expect(calls.filter((c) => c.path === '/302')).toHaveLength(1);
  });

  it('a private address is refused before any call', async () => {
    const before = calls.length;
    const e = await postWebhook(`${base}/200`, {}, { timeoutMs: 1000, idempotencyKey: 'k', allowHosts: [] }).then(
      () => null,
      (err: ProviderError) => err,
    );
    expect(e).toMatchObject({ failure: 'permanent' });
    expect(e!.message).toMatch(/^Webhook URL refused/);
    expect(calls.length).toBe(before);
  });

  it('a connection refused is transient, named by its code', async () => {
    const closed = createServer();
    await new Promise<void>((r) => closed.listen(0, '127.0.0.1', r));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((r) => closed.close(r));
    const e = await postWebhook(`http://127.0.0.1:${port}/`, {}, { timeoutMs: 5000, idempotencyKey: 'k', allowHosts: ['127.0.0.1'] }).then(
      () => null,
      (err: ProviderError) => err,
    );
    expect(e).toMatchObject({ failure: 'transient', message: 'Webhook call failed: ECONNREFUSED' });
  });

  it('reads at most MAX_RESPONSE_BYTES of an answer: a longer body is not parsed', async () => {
    expect(await post('/big')).toEqual({ status: 200, body: null });
  });

  describe('DNS rebinding', () => {
    const port = () => new URL(base).port;

    it('a name that resolved to a public address when checked and to 127.0.0.1 when connecting is refused, and never reached', async () => {
      const before = calls.length;
      const resolve = scriptedResolver(['93.184.216.34', '127.0.0.1']);
      const e = await postWebhook(`http://hook.test:${port()}/200`, {}, { timeoutMs: 5000, idempotencyKey: 'k', allowHosts: [], resolve }).then(
        () => null,
        (err: ProviderError) => err,
      );
      expect(e).toMatchObject({ failure: 'permanent' });
      expect(e!.message).toMatch(/^Webhook URL refused: The URL points at a loopback address/);
      // Checked, then resolved again for the connection: the second answer is the one refused.
      expect(resolve.asked).toEqual(['hook.test', 'hook.test']);
      expect(calls.length).toBe(before);
    });

    it('an allow-listed name still connects to the local server, at the address its resolution gave', async () => {
      const resolve = scriptedResolver(['127.0.0.1']);
      for (const allowHosts of [['hook.test'], [`hook.test:${port()}`]]) {
        const res = await postWebhook(`http://hook.test:${port()}/200`, {}, { timeoutMs: 5000, idempotencyKey: 'allowed', allowHosts, resolve });
        expect(res).toEqual({ status: 200, body: { messageId: 'm-1', status: 'delivered' } });
      }
      expect(resolve.asked.length).toBeGreaterThan(0);
    });
  });
});
