import { AsyncLocalStorage } from 'node:async_hooks';
import { currentRequestId, isValidRequestId, logLine, propagateRequestContext, requestIdFrom, withRequestId } from './request-context';

describe('request ids', () => {
  it('keeps ids of a safe shape and length, and nothing else', () => {
    expect(isValidRequestId('0d9e6a52-8a3c-4c57-9d1f-4f3b8f7a1c2e')).toBe(true);
    expect(isValidRequestId('lb.trace:abc_123-x')).toBe(true);
    expect(isValidRequestId('a'.repeat(128))).toBe(true);
    expect(isValidRequestId('a'.repeat(129))).toBe(false);
    expect(isValidRequestId('short')).toBe(false);
    expect(isValidRequestId('has space in it')).toBe(false);
    expect(isValidRequestId('line\nbreak-injected')).toBe(false);
    expect(isValidRequestId('-starts-with-dash')).toBe(false);
    expect(isValidRequestId('{"json":"object"}')).toBe(false);
    expect(isValidRequestId(undefined)).toBe(false);
  });

  it('takes a valid header and replaces anything else by a fresh UUID', () => {
    expect(requestIdFrom('client-chosen-id-1')).toBe('client-chosen-id-1');
    expect(requestIdFrom(['first-of-two-ids', 'second-of-two'])).toBe('first-of-two-ids');
    const made = requestIdFrom('bad id');
    expect(made).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/);
    expect(requestIdFrom(undefined)).not.toBe(made);
  });

  it('keeps each request its own id across awaits, however they interleave', async () => {
    const seen: string[] = [];
    const work = (id: string, delay: number) =>
      withRequestId(id, async () => {
        await new Promise((r) => setTimeout(r, delay));
        seen.push(`${id}=${currentRequestId()}`);
      });
    await Promise.all([work('request-one-1', 20), work('request-two-2', 5)]);
    expect(seen).toEqual(['request-two-2=request-two-2', 'request-one-1=request-one-1']);
    expect(currentRequestId()).toBeUndefined();
  });

  describe('without propagation (the dispatcher)', () => {
    afterEach(() => propagateRequestContext(true));

    it('runs the work without a context, and switches on no AsyncLocalStorage (whose hooks every promise would pay)', async () => {
      const enable = jest.spyOn(AsyncLocalStorage.prototype as unknown as { _enable: () => void }, '_enable');
      try {
        propagateRequestContext(false);
        const seen = await withRequestId('request-id-1234', async () => {
          await new Promise((r) => setImmediate(r));
          return currentRequestId();
        });
        expect(seen).toBeUndefined();
        expect(enable).not.toHaveBeenCalled();
        propagateRequestContext(true);
        expect(withRequestId('request-id-1234', () => currentRequestId())).toBe('request-id-1234');
        expect(enable).toHaveBeenCalled();
      } finally {
        enable.mockRestore();
      }
    });

    it('names the request on the lines that need it', () => {
      expect(logLine('alert a: 3 recipients', 'request-id-1234')).toEqual({ msg: 'alert a: 3 recipients', requestId: 'request-id-1234' });
      expect(logLine('alert a: 3 recipients', undefined)).toBe('alert a: 3 recipients');
    });
  });
});
