import { within } from './within';

describe('within', () => {
  it('gives the value of work that completes in time', async () => {
    await expect(within(Promise.resolve(7), 1000)).resolves.toEqual({ done: true, value: 7 });
  });

  it('says the time ran out when the work never completes', async () => {
    await expect(within(new Promise(() => undefined), 20)).resolves.toEqual({ done: false });
  });

  it('passes on a rejection that comes in time', async () => {
    await expect(within(Promise.reject(new Error('refused')), 1000)).rejects.toThrow('refused');
  });

  it('leaves no timer behind once the work completed', async () => {
    jest.useFakeTimers();
    try {
      await within(Promise.resolve('ok'), 60_000);
      expect(jest.getTimerCount()).toBe(0);
    } finally {
      jest.useRealTimers();
    }
  });
});
