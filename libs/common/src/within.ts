/** What `within` saw: the work's value, or that the time ran out first (the work may still complete later). */
export type Within<T> = { done: true; value: T } | { done: false };

/**
 * `work` raced against `ms` milliseconds; the timer is cleared either way, so nothing is left holding the event loop.
 * A rejection of `work` before the time runs out is passed on.
 */
export async function within<T>(work: Promise<T>, ms: number): Promise<Within<T>> {
  let timer: NodeJS.Timeout | undefined;
  const late = new Promise<{ done: false }>((resolve) => {
    timer = setTimeout(() => resolve({ done: false }), Math.max(0, ms));
  });
  try {
    return await Promise.race([work.then((value) => ({ done: true as const, value })), late]);
  } finally {
    clearTimeout(timer);
  }
}
