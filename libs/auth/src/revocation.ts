import { Inject, Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { closeRedis, REDIS } from '@beacon/common';
import type { AuthUser } from './token';

/**
 * Sessions and users whose tokens identity voided (sign-out, a role change, a ban, a new password, a deleted account),
 * shared with every service through Redis. Access tokens are verified statelessly, so without this a token of an
 * ended session kept working outside identity until it expired (up to an hour): a demoted admin could still send
 * public alerts.
 *
 * Two kinds of key, both kept as long as an access token can live and read together in one MGET (two GETs sent
 * together on a Redis Cluster, where the keys are in different hash slots):
 * - one per ended session (any sign-out, a reused refresh token);
 * - one per user whose every session ended (demotion, ban, deletion, global sign-out), holding the second up to which
 *   that user's tokens are void. It also covers a token whose session was not in the list identity ended.
 * And one pub/sub message per change, so the Socket.IO gateway can drop sockets of those sessions and users at once.
 */
export const revokedSessionKey = (sessionId: string) => `auth:revoked-session:${sessionId}`;
export const revokedUserKey = (userId: string) => `auth:revoked-user:${userId}`;

/** The channel name without the environment's prefix (ioredis does not prefix channels: see channelOf). */
const CHANNEL = 'auth:revoked-sessions';

/** How long a revocation check may take before the answer counts as unknown. */
const CHECK_TIMEOUT_MS = 1500;

export class RevocationUnavailableError extends Error {}

/** What identity voided: sessions, and users whose tokens issued up to the second `cutoff` (epoch seconds) are void. */
export interface Revocation {
  sessionIds: string[];
  users: { id: string; cutoff: number }[];
}

/** The part of a verified token a revocation is judged by. */
export type TokenSubject = Pick<AuthUser, 'id' | 'sessionId' | 'issuedAt'>;

/**
 * A token is void if its session ended or it was issued no later than its user's cut-off: the second (iat is in whole
 * seconds) in which identity voided the user's tokens, all of it, since a token of that second may have been signed
 * just before. Identity signs no token for the user within that second (see TokensService), so a new sign-in is not
 * caught by it.
 */
export function isVoidedBy(token: TokenSubject, revoked: { session: boolean; userCutoff: number | null }): boolean {
  if (revoked.session) return true;
  return revoked.userCutoff !== null && (token.issuedAt ?? 0) <= revoked.userCutoff;
}

/** The same rule for a published revocation (the gateway's live sockets). */
export function isVoidedByRevocation(token: TokenSubject, change: Revocation): boolean {
  const user = change.users.find((u) => u.id === token.id);
  return isVoidedBy(token, { session: !!token.sessionId && change.sessionIds.includes(token.sessionId), userCutoff: user?.cutoff ?? null });
}

function parseRevocation(message: string): Revocation | null {
  const raw = JSON.parse(message) as unknown;
  if (!raw || typeof raw !== 'object' || Array.isArray(raw)) return null;
  const { sessionIds, users } = raw as { sessionIds?: unknown; users?: unknown };
  return {
    sessionIds: Array.isArray(sessionIds) ? sessionIds.filter((id): id is string => typeof id === 'string') : [],
    users: Array.isArray(users) ? users.filter((u): u is { id: string; cutoff: number } => typeof u?.id === 'string' && Number.isFinite(u?.cutoff)) : [],
  };
}

function cutoffOf(value: string | null): number | null {
  const n = value === null ? NaN : Number(value);
  return Number.isFinite(n) ? n : null;
}

function withTimeout<T>(work: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  return Promise.race([
    work,
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new RevocationUnavailableError(`${what} timed out`)), ms);
    }),
  ]).finally(() => clearTimeout(timer));
}

@Injectable()
export class SessionRevocations {
  private readonly logger = new Logger('SessionRevocations');

  // Not optional: a service that verifies tokens without Redis would accept every revoked one without a word.
  constructor(@Inject(REDIS) private readonly redis: Redis) {}

  /** The pub/sub channel under the client's own key prefix, so environments sharing a Redis stay apart. */
  get channel(): string {
    return `${this.redis.options.keyPrefix ?? ''}${CHANNEL}`;
  }

  /** True when the token was voided. One round trip. Throws RevocationUnavailableError when Redis does not answer in time. */
  async isRevoked(token: TokenSubject): Promise<boolean> {
    const keys = [revokedUserKey(token.id), ...(token.sessionId ? [revokedSessionKey(token.sessionId)] : [])];
    let found: (string | null)[];
    try {
      // In a Redis Cluster the two keys are in different hash slots, where one MGET is refused (CROSSSLOT): two GETs
      // written together on the connection, still one round trip's wait.
      const read = this.redis.isCluster ? Promise.all(keys.map((k) => this.redis.get(k))) : this.redis.mget(...keys);
      found = await withTimeout(read, CHECK_TIMEOUT_MS, 'revocation check');
    } catch (e) {
      if (e instanceof RevocationUnavailableError) throw e;
      throw new RevocationUnavailableError((e as Error).message);
    }
    return isVoidedBy(token, { session: found[1] != null, userCutoff: cutoffOf(found[0]) });
  }

  /** The second up to which the user's tokens are void, if identity voided them within an access token's life. */
  async userCutoff(userId: string): Promise<number | null> {
    return cutoffOf(await withTimeout(this.redis.get(revokedUserKey(userId)), CHECK_TIMEOUT_MS, 'revocation check'));
  }

  /**
   * Records voided sessions and users for `ttlSeconds` (the longest an access token lives) and tells the live
   * listeners. Throws when Redis cannot take it: the caller's transaction then fails rather than ending a session
   * only in part.
   */
  async revoke(change: { sessionIds?: string[]; userIds?: string[] }, ttlSeconds: number): Promise<void> {
    const sessionIds = change.sessionIds ?? [];
    const cutoff = Math.floor(Date.now() / 1000);
    const users = (change.userIds ?? []).map((id) => ({ id, cutoff }));
    if (!sessionIds.length && !users.length) return;
    const message = JSON.stringify({ sessionIds, users } satisfies Revocation);
    if (this.redis.isCluster) {
      // A transaction may not span hash slots: each key on its own (a failure still fails the caller), then the message.
      const written = Promise.all([
        ...sessionIds.map((id) => this.redis.set(revokedSessionKey(id), '1', 'EX', ttlSeconds)),
        ...users.map((u) => this.redis.set(revokedUserKey(u.id), String(u.cutoff), 'EX', ttlSeconds)),
      ]).then(() => this.redis.publish(this.channel, message));
      await withTimeout(written, CHECK_TIMEOUT_MS * 2, 'recording the revocation');
    } else {
      const multi = this.redis.multi();
      for (const id of sessionIds) multi.set(revokedSessionKey(id), '1', 'EX', ttlSeconds);
      for (const u of users) multi.set(revokedUserKey(u.id), String(u.cutoff), 'EX', ttlSeconds);
      multi.publish(this.channel, message);
      await withTimeout(multi.exec(), CHECK_TIMEOUT_MS * 2, 'recording the revocation');
    }
    this.logger.log(`ended ${sessionIds.length} session(s) and ${users.length} user(s) for every service`);
  }

  /**
   * Calls `onRevoked` with every revocation published from now on, until the returned stop. Messages published while
   * the subscriber was disconnected are lost, so `onResubscribed` runs after each reconnection: the listener then
   * checks what it holds against the keys instead.
   */
  async subscribe(onRevoked: (change: Revocation) => void, onResubscribed?: () => void): Promise<() => Promise<void>> {
    const sub = this.redis.duplicate();
    const channel = this.channel;
    sub.on('message', (from: string, message: string) => {
      if (from !== channel) return;
      try {
        const change = parseRevocation(message);
        if (change) onRevoked(change);
        else this.logger.warn('ignored a malformed revocation message');
      } catch {
        this.logger.warn('ignored a malformed revocation message');
      }
    });
    await sub.subscribe(channel);
    let lost = false;
    sub.on('close', () => (lost = true));
    // ioredis subscribes again by itself on reconnecting; 'ready' follows that
    sub.on('ready', () => {
      if (!lost) return;
      lost = false;
      onResubscribed?.();
    });
    return async () => {
      await closeRedis(sub);
    };
  }
}
