import { DynamicModule, Global, Inject, Injectable, Logger, Module, OnApplicationShutdown } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import type Redis from 'ioredis';
import { Rooms, ServerToClientEvents, socketIoKey } from '@beacon/contracts';
import { livePublisher } from '../live-publisher';
import { closeRedis, createRedis } from '../redis';

export const LIVE_OPTIONS = Symbol('LIVE_OPTIONS');

export interface LiveEventsOptions {
  redisUrl: string;
  redisPrefix: string;
}

/** How many rooms one published message targets: bounds message size when an alert reaches many users. */
const ROOMS_PER_MESSAGE = 1000;

/**
 * The one way services and workers emit Socket.IO events: through Redis (@socket.io/redis-emitter) to the gateway's
 * adapter, never over HTTP. Typed by ServerToClientEvents. Live events are a courtesy: a failed publish is logged
 * and never fails the work that caused it.
 */
@Injectable()
export class LiveEvents implements OnApplicationShutdown {
  private readonly redis: Redis;
  private readonly emitter: Emitter<ServerToClientEvents>;

  constructor(@Inject(LIVE_OPTIONS) options: LiveEventsOptions) {
    // Pub/sub channels are not keys: ioredis keyPrefix would not apply, so the prefix is in the key option.
    this.redis = createRedis(options.redisUrl);
    const logger = new Logger('LiveEvents');
    const publisher = livePublisher(this.redis, (e) => logger.warn(`live event not published: ${e.message}`));
    this.emitter = new Emitter<ServerToClientEvents>(publisher, { key: socketIoKey(options.redisPrefix) });
  }

  /** Events to one room, or to several at once. */
  to(room: string | string[]) {
    return this.emitter.to(room);
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
    await closeRedis(this.redis);
  }
}

@Global()
@Module({})
export class LiveEventsModule {
  static register(options: LiveEventsOptions): DynamicModule {
    return { module: LiveEventsModule, providers: [{ provide: LIVE_OPTIONS, useValue: options }, LiveEvents], exports: [LiveEvents] };
  }
}
