import { Injectable, Logger } from '@nestjs/common';
import { Emitter } from '@socket.io/redis-emitter';
import type Redis from 'ioredis';
import { InjectRedis, livePublisher } from '@beacon/common';
import { ServerToClientEvents, socketIoKey } from '@beacon/contracts';
import { IncidentsEnv } from '../config/env.dto';

/**
 * Emits Socket.IO events through Redis to the gateway's adapter (never over HTTP). Live updates are a
 * courtesy: a failure is logged and never fails the request that caused it.
 */
@Injectable()
export class SocketEmitter {
  private readonly emitter: Emitter<ServerToClientEvents>;

  constructor(@InjectRedis() redis: Redis, env: IncidentsEnv) {
    // PUBLISH channels do not get ioredis' keyPrefix, so the key carries the prefix itself.
    const logger = new Logger('SocketEmitter');
    const publisher = livePublisher(redis, (e) => logger.warn(`live event not published: ${e.message}`));
    this.emitter = new Emitter<ServerToClientEvents>(publisher, { key: socketIoKey(env.REDIS_PREFIX) });
  }

  to(room: string) {
    return this.emitter.to(room);
  }
}
