import { Inject, Injectable, Logger, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { REDIS } from '@beacon/common';

/**
 * Sessions that identity ended (sign-out, a role change, a ban, a new password, a deleted account), shared with every
 * service through Redis. Access tokens are verified statelessly, so without this a token of an ended session kept
 * working outside identity until it expired (up to an hour): a demoted admin could still send public alerts.
 *
 * One key per ended session, kept as long as a token of it can live; and one pub/sub message per change, so the
 * Socket.IO gateway can drop sockets of those sessions at once.
 */
export const revokedSessionKey = (sessionId: string) => `auth:revoked-session:${sessionId}`;

/** The channel name without the environment's prefix (ioredis does not prefix channels: see channelOf). */
const CHANNEL = 'auth:revoked-sessions';

/** How long a revocation check may take before the answer counts as unknown. */
const CHECK_TIMEOUT_MS = 1500;

export class RevocationUnavailableError extends Error {}

@Injectable()
export class SessionRevocations {
  private readonly logger = new Logger('SessionRevocations');

  constructor(@Optional() @Inject(REDIS) private readonly redis?: Redis) {}

  /** The pub/sub channel under the client's own key prefix, so environments sharing a Redis stay apart. */
  get channel(): string {
    return `${this.redis?.options.keyPrefix ?? ''}${CHANNEL}`;
  }

  /** True when the session was ended. Throws RevocationUnavailableError when Redis does not answer in time. */
  async isRevoked(sessionId: string): Promise<boolean> {
    if (!this.redis) return false;
    let timer: NodeJS.Timeout | undefined;
    try {
      const found = await Promise.race([
        this.redis.exists(revokedSessionKey(sessionId)),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RevocationUnavailableError('revocation check timed out')), CHECK_TIMEOUT_MS);
        }),
      ]);
      return found === 1;
    } catch (e) {
      if (e instanceof RevocationUnavailableError) throw e;
      throw new RevocationUnavailableError((e as Error).message);
    } finally {
      clearTimeout(timer);
    }
  }

  /**
   * Records ended sessions for `ttlSeconds` (the longest an access token lives) and tells the live listeners.
   * Throws when Redis cannot take it: the caller's transaction then fails rather than ending a session only in part.
   */
  async revoke(sessionIds: string[], ttlSeconds: number): Promise<void> {
    if (!sessionIds.length) return;
    if (!this.redis) throw new Error('SessionRevocations needs Redis (RedisModule) to record revocations');
    const multi = this.redis.multi();
    for (const id of sessionIds) multi.set(revokedSessionKey(id), '1', 'EX', ttlSeconds);
    multi.publish(this.channel, JSON.stringify(sessionIds));
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([
        multi.exec(),
        new Promise<never>((_, reject) => {
          timer = setTimeout(() => reject(new RevocationUnavailableError('recording the revocation timed out')), CHECK_TIMEOUT_MS * 2);
        }),
      ]);
    } finally {
      clearTimeout(timer);
    }
    this.logger.log(`ended ${sessionIds.length} session(s) for every service`);
  }

  /** Calls `onRevoked` with the session ids of every revocation published from now on, until the returned stop. */
  async subscribe(onRevoked: (sessionIds: string[]) => void): Promise<() => Promise<void>> {
    if (!this.redis) return async () => undefined;
    const sub = this.redis.duplicate();
    const channel = this.channel;
    sub.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      try {
        const ids = JSON.parse(message);
        if (Array.isArray(ids)) onRevoked(ids.filter((id): id is string => typeof id === 'string'));
      } catch {
        this.logger.warn('ignored a malformed revocation message');
      }
    });
    await sub.subscribe(channel);
    return async () => {
      await sub.quit().catch(() => sub.disconnect());
    };
  }
}
