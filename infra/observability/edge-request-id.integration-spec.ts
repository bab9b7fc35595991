import { createServer, IncomingHttpHeaders, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { loadEnv } from '@beacon/common';
import { startEdge } from '../edge';
import { EdgeEnv } from '../edge.env';

/** The edge's request ids, against a stand-in alerts service that answers with the headers it received. */
describe('edge: request ids', () => {
  let upstream: Server;
  let edge: Server;
  let base = '';

  beforeAll(async () => {
    upstream = createServer((req, res) => {
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(req.headers));
    });
    await new Promise<void>((r) => upstream.listen(0, '127.0.0.1', r));
    const url = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
    edge = await startEdge(loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', WEB_DIST: '/nonexistent', ALERTS_URL: url }));
    base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    for (const server of [edge, upstream]) {
      server.closeAllConnections();
      await new Promise((r) => server.close(r));
    }
  });

  async function send(headers: Record<string, string> = {}) {
    const res = await fetch(`${base}/api/alerts/anything`, { headers });
    return { answered: res.headers.get('x-request-id'), seen: (await res.json()) as IncomingHttpHeaders };
  }

  it('makes an id when there is none, forwards it and answers it', async () => {
    const first = await send();
    expect(first.answered).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(first.seen['x-request-id']).toBe(first.answered);
    expect((await send()).answered).not.toBe(first.answered);
  });

  it('keeps a valid incoming id', async () => {
    const { answered, seen } = await send({ 'x-request-id': 'lb-7f3a.9c21:0001' });
    expect([answered, seen['x-request-id']]).toEqual(['lb-7f3a.9c21:0001', 'lb-7f3a.9c21:0001']);
  });

  it.each([
    ['too short', 'abc'],
    ['too long', 'a'.repeat(129)],
    ['spaces and quotes', 'id with "quotes"'],
    ['a JSON fragment', '","level":60,"msg":"forged'],
  ])('replaces an incoming id that is %s', async (_what, bad) => {
    const { answered, seen } = await send({ 'x-request-id': bad });
    expect(answered).not.toBe(bad);
    expect(answered).toMatch(/^[0-9a-f-]{36}$/);
    expect(seen['x-request-id']).toBe(answered);
  });

  it("drops a client's trace context: traces start at the services", async () => {
    const { seen } = await send({ traceparent: `00-${'ab'.repeat(16)}-${'cd'.repeat(8)}-01`, tracestate: 'vendor=x' });
    expect(seen.traceparent).toBeUndefined();
    expect(seen.tracestate).toBeUndefined();
  });
});
