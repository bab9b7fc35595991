import { OutcomeRecorder } from './channel-batch.runner';

/** A write that holds until the test releases it, so what goes into which statement can be watched. */
function heldWrites() {
  const calls: { items: string[]; release: () => void; fail: (e: Error) => void }[] = [];
  const write = (items: string[]) =>
    new Promise<void>((resolve, reject) => {
      calls.push({ items, release: resolve, fail: reject });
    });
  return { calls, write };
}

const turn = () => new Promise((r) => setImmediate(r));

describe('OutcomeRecorder (the group commit one worker shares between its batches)', () => {
  it('writes what several batches record in one turn as one statement, and what comes during writes in the next', async () => {
    const { calls, write } = heldWrites();
    const recorder = new OutcomeRecorder(write, 60_000, () => undefined, 2);
    const first = [recorder.record(['a1', 'a2']), recorder.record(['b1']), recorder.record(['c1'])];
    await turn();
    expect(calls.map((c) => c.items)).toEqual([['a1', 'a2', 'b1', 'c1']]);

    // A second write may run beside the first; past that, items wait for one to finish and then go together.
    const second = recorder.record(['a3']);
    await turn();
    expect(calls.map((c) => c.items)).toEqual([['a1', 'a2', 'b1', 'c1'], ['a3']]);
    const third = [recorder.record(['b2']), recorder.record(['c2', 'c3'])];
    await turn();
    expect(calls).toHaveLength(2);

    calls[0].release();
    await Promise.all(first);
    await turn();
    expect(calls.map((c) => c.items)).toEqual([['a1', 'a2', 'b1', 'c1'], ['a3'], ['b2', 'c2', 'c3']]);
    calls[1].release();
    calls[2].release();
    await Promise.all([second, ...third]);
  });

  it('retries a failed write with the same items, and rejects every recorder of the group once it gives up', async () => {
    let attempts = 0;
    const retries: number[] = [];
    const written: string[][] = [];
    const flaky = new OutcomeRecorder<string>(
      async (items) => {
        if (++attempts < 3) throw new Error('database unreachable');
        written.push(items);
      },
      60_000,
      (_e, attempt) => retries.push(attempt),
    );
    await Promise.all([flaky.record(['x']), flaky.record(['y'])]);
    expect(retries).toEqual([1, 2]);
    expect(written).toEqual([['x', 'y']]);

    const hopeless = new OutcomeRecorder<string>(
      async () => {
        throw new Error('database unreachable');
      },
      0,
      () => undefined,
    );
    const results = await Promise.allSettled([hopeless.record(['p']), hopeless.record(['q'])]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});
