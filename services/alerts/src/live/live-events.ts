import { Inject, Injectable, Logger, OnApplicationShutdown } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import type Redis from 'ioredis';
import { BaseEnv, createRedis, livePublisher } from '@beacon/common';
import { Rooms, ServerToClientEvents, socketIoKey } from '@beacon/contracts';

export const LIVE_ENV = Symbol('LIVE_ENV');

/** How many rooms one published message targets: bounds message size when an alert reaches many users. */
const ROOMS_PER_MESSAGE = 1000;

/**
 * Emits Socket.IO events through Redis (@socket.io/redis-emitter): services and workers never call the
 * gateway over HTTP. Typed by ServerToClientEvents.
 */
@Injectable()
export class LiveEvents implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly emitter: Emitter<ServerToClientEvents>;

  constructor(@Inject(LIVE_ENV) env: BaseEnv) {
    // Pub/sub channels are not keys: ioredis keyPrefix would not apply, so the prefix is in the key option.
    this.redis = createRedis(env.REDIS_URL);
    const logger = new Logger('LiveEvents');
    const publisher = livePublisher(this.redis, (e) => logger.warn(`live event not published: ${e.message}`));
    this.emitter = new Emitter<ServerToClientEvents>(publisher, { key: socketIoKey(env.REDIS_PREFIX) });
  }

  toAdmins<E extends keyof ServerToClientEvents>(event: E, ...args: Parameters<ServerToClientEvents[E]>) {
    (this.emitter.to(Rooms.admins).emit as (e: E, ...a: unknown[]) => void)(event, ...args);
  }

  /** Emits to each user's room, in chunks of rooms per published message. */
  toUsers<E extends keyof ServerToClientEvents>(userIds: string[], event: E, ...args: Parameters<ServerToClientEvents[E]>) {
    for (let i = 0; i < userIds.length; i += ROOMS_PER_MESSAGE) {
      const rooms = userIds.slice(i, i + ROOMS_PER_MESSAGE).map(Rooms.user);
      (this.emitter.to(rooms).emit as (e: E, ...a: unknown[]) => void)(event, ...args);
    }
  }

  async onApplicationShutdown() {
    await this.redis.quit().catch(() => this.redis.disconnect());
  }
}
