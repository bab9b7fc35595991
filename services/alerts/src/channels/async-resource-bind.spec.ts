import { AsyncLocalStorage, AsyncResource, executionAsyncId } from 'node:async_hooks';
import { connect, createServer } from 'node:http2';
import type { AddressInfo } from 'node:net';
import { lightenAsyncResourceBind } from './async-resource-bind';

describe('lightenAsyncResourceBind', () => {
  // The method is process-wide: put Node's back for the other spec files this jest worker runs.
  const nodeBind = AsyncResource.prototype.bind;
  afterAll(() => {
    AsyncResource.prototype.bind = nodeBind;
  });

  it("drops the deprecated asyncResource property and keeps what Node's bind does", async () => {
    const before = new AsyncResource('test').bind(() => undefined);
    expect('asyncResource' in before).toBe(true); // Node 20-24: built from two util.deprecate wrappers per call

    expect(lightenAsyncResourceBind()).toBe(true);
    expect(AsyncResource.prototype.bind).not.toBe(nodeBind);
    expect(lightenAsyncResourceBind()).toBe(true); // once

    const storage = new AsyncLocalStorage<string>();
    const resource = storage.run('where it was made', () => new AsyncResource('test'));
    const seen: unknown[] = [];
    function probe(this: unknown, a: number, b: number) {
      seen.push(this, storage.getStore(), executionAsyncId(), a + b);
      return 'result';
    }
    const bound = resource.bind(probe);
    expect('asyncResource' in bound).toBe(false);
    expect(bound.length).toBe(2);
    const holder = { bound };
    expect(holder.bound(1, 2)).toBe('result');
    expect(seen).toEqual([holder, 'where it was made', resource.asyncId(), 3]);

    seen.length = 0;
    const self = { name: 'this' };
    const boundWithThis = (resource.bind as (fn: typeof probe, thisArg: unknown) => typeof probe)(probe, self);
    expect('asyncResource' in boundWithThis).toBe(false);
    expect(boundWithThis(2, 3)).toBe('result');
    expect(seen).toEqual([self, 'where it was made', resource.asyncId(), 5]);

    // The static form goes through the method too.
    expect('asyncResource' in AsyncResource.bind(probe)).toBe(false);
    // Node's own error for anything but a function.
    expect(() => resource.bind('not a function' as never)).toThrow(expect.objectContaining({ code: 'ERR_INVALID_ARG_TYPE' }));
  });

  it('leaves node:http2 requests working (its client binds every request)', async () => {
    lightenAsyncResourceBind();
    const server = createServer((req, res) => {
      req.resume();
      req.on('end', () => res.writeHead(201).end('ok'));
    });
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    const session = connect(`http://127.0.0.1:${(server.address() as AddressInfo).port}`);
    try {
      const statuses = await Promise.all(
        [1, 2, 3].map(
          () =>
            new Promise<number>((resolve, reject) => {
              const stream = session.request({ ':method': 'POST', ':path': '/push' });
              let status = 0;
              stream.on('response', (h) => (status = Number(h[':status'])));
              stream.on('error', reject);
              stream.on('end', () => resolve(status));
              stream.resume();
              stream.end('body');
            }),
        ),
      );
      expect(statuses).toEqual([201, 201, 201]);
    } finally {
      session.close();
      await new Promise((r) => server.close(r));
    }
  });
});
