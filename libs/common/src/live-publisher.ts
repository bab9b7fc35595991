import type Redis from 'ioredis';

/** The part of a Redis client that @socket.io/redis-emitter uses. */
export interface LivePublisher {
  publish(channel: string, message: string | Buffer): Promise<number | void>;
}

/**
 * @socket.io/redis-emitter calls `publish` and drops the promise, so a publish that fails (Redis down, or the
 * service shutting down with an emit still on its way) would become an unhandled rejection and take the
 * process, or in tests the next suite, down with it. Live events are a courtesy: report the failure and go on.
 */
export function livePublisher(redis: Pick<Redis, 'publish'>, onError: (error: Error) => void): LivePublisher {
  return {
    publish: (channel, message) =>
      redis.publish(channel, message).catch((e: unknown) => {
        onError(e instanceof Error ? e : new Error(String(e)));
      }),
  };
}
