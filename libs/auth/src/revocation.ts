import { Inject, Injectable, Logger, OnModuleDestroy, OnModuleInit, Optional } from '@nestjs/common';
import type Redis from 'ioredis';
import { closeRedis, REDIS } from '@beacon/common';
import { DEFAULT_REVOCATION_STALENESS_SECONDS, LastKnownRevocations } from './last-known';
import { isVoidedBy, Revocation, TokenSubject } from './revocation-rules';

export { isVoidedBy, isVoidedByRevocation } from './revocation-rules';
export type { Revocation, TokenSubject } from './revocation-rules';

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

/** How long the last known revocation state may answer for Redis (see LastKnownRevocations); AuthModule's option. */
export const REVOCATION_OPTIONS = Symbol('REVOCATION_OPTIONS');
export interface RevocationOptions {
  /** REVOCATION_STALENESS_SECONDS; 0 fails closed at once. */
  stalenessSeconds: number;
}

interface Listener {
  onRevoked: (change: Revocation) => void;
  onResubscribed?: () => void;
}

@Injectable()
export class SessionRevocations implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('SessionRevocations');
  private readonly known: LastKnownRevocations;
  private readonly listeners = new Set<Listener>();
  private subscriber?: Promise<Redis>;
  private following = false;

  // Not optional: a service that verifies tokens without Redis would accept every revoked one without a word.
  constructor(
    @Inject(REDIS) private readonly redis: Redis,
    @Optional() @Inject(REVOCATION_OPTIONS) options?: RevocationOptions,
  ) {
    this.known = new LastKnownRevocations((options?.stalenessSeconds ?? DEFAULT_REVOCATION_STALENESS_SECONDS) * 1000);
  }

  /** The pub/sub channel under the client's own key prefix, so environments sharing a Redis stay apart. */
  get channel(): string {
    return `${this.redis.options.keyPrefix ?? ''}${CHANNEL}`;
  }

  /** Follows the stream from the start, so the last known state covers an outage (not awaited: Redis may be down). */
  onModuleInit() {
    if (this.known.stalenessMs <= 0) return;
    this.following = true;
    this.connect().catch((e: Error) => this.logger.warn(`could not follow revocations yet: ${e.message}`));
  }

  async onModuleDestroy() {
    this.following = false;
    await this.closeIfIdle();
  }

  /**
   * True when the token was voided. One round trip. When Redis does not answer in time, the last known state answers
   * while it is within REVOCATION_STALENESS_SECONDS of the outage's start; past that (or with nothing known of this
   * token) it throws RevocationUnavailableError.
   */
  async isRevoked(token: TokenSubject): Promise<boolean> {
    let revoked: { session: boolean; userCutoff: number | null };
    try {
      revoked = await this.read(token);
    } catch (e) {
      const known = this.known.judge(token);
      if (known !== undefined) return known;
      throw e;
    }
    this.known.recordRead(token, revoked);
    return isVoidedBy(token, revoked) || this.known.judge(token) === true;
  }

  private async read(token: TokenSubject): Promise<{ session: boolean; userCutoff: number | null }> {
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
    return { session: found[1] != null, userCutoff: cutoffOf(found[0]) };
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
   * checks what it holds against the keys instead. One subscriber connection serves every listener.
   */
  async subscribe(onRevoked: (change: Revocation) => void, onResubscribed?: () => void): Promise<() => Promise<void>> {
    const listener: Listener = { onRevoked, onResubscribed };
    this.listeners.add(listener);
    await this.connect();
    return async () => {
      this.listeners.delete(listener);
      await this.closeIfIdle();
    };
  }

  private connect(): Promise<Redis> {
    if (!this.subscriber) {
      this.subscriber = this.openSubscriber();
      this.subscriber.catch(() => (this.subscriber = undefined));
    }
    return this.subscriber;
  }

  private async openSubscriber(): Promise<Redis> {
    const sub = this.redis.duplicate();
    const channel = this.channel;
    sub.on('message', (from: string, message: string) => {
      if (from === channel) this.heard(message);
    });
    await sub.subscribe(channel);
    this.known.streamUp();
    let lost = false;
    sub.on('close', () => {
      lost = true;
      this.known.streamDown();
    });
    // ioredis subscribes again by itself on reconnecting; 'ready' follows that
    sub.on('ready', () => {
      if (!lost) return;
      lost = false;
      this.known.streamUp();
      for (const l of this.listeners) l.onResubscribed?.();
    });
    return sub;
  }

  private heard(message: string) {
    let change: Revocation | null = null;
    try {
      change = parseRevocation(message);
    } catch {
      change = null;
    }
    if (!change) return this.logger.warn('ignored a malformed revocation message');
    this.known.recordRevocation(change);
    for (const l of this.listeners) l.onRevoked(change);
  }

  private async closeIfIdle() {
    if (this.following || this.listeners.size || !this.subscriber) return;
    const sub = this.subscriber;
    this.subscriber = undefined;
    const client = await sub.catch(() => null);
    if (client) await closeRedis(client);
  }
}
