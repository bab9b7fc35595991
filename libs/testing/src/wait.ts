/** Polls `check` until it returns a truthy value, or fails after `timeoutMs` with `what` in the message. */
export async function waitFor<T>(what: string, check: () => Promise<T> | T, timeoutMs = 30_000, everyMs = 100): Promise<NonNullable<T>> {
  const until = Date.now() + timeoutMs;
  let last: T | undefined;
  while (Date.now() < until) {
    last = await check();
    if (last) return last as NonNullable<T>;
    await new Promise((r) => setTimeout(r, everyMs));
  }
  throw new Error(`timed out waiting for ${what} (last: ${JSON.stringify(last)})`);
}
