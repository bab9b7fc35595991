import { isVoidedBy, isVoidedByRevocation, Revocation, TokenSubject } from './revocation-rules';

/** The default of REVOCATION_STALENESS_SECONDS (BaseEnv in libs/common), for a module registered without it. */
export const DEFAULT_REVOCATION_STALENESS_SECONDS = 60;

/** Reads kept at most (the oldest go first): enough for every admin and far more, a few MB at worst. */
const MAX_READS = 20_000;
/** An access token lives at most an hour: a revocation heard longer ago voids no token still in use. */
const STREAM_MEMORY_MS = 3600_000;

interface Read {
  at: number;
  session: boolean;
  userCutoff: number | null;
}

/**
 * What this process last knew of revocations, for when Redis does not answer: the last successful read of each
 * token's keys, and every revocation heard on the stream since. A read stays current as long as the stream that
 * followed it was connected and Redis kept answering, so its age is counted from the last moment both held (the
 * outage's start, not the read). Past `stalenessMs` the answer is unknown again and the caller fails closed; a
 * revocation heard on the stream is honoured whatever its age.
 */
export class LastKnownRevocations {
  private readonly reads = new Map<string, Read>();
  private readonly sessions = new Map<string, number>();
  private readonly cutoffs = new Map<string, { cutoff: number; heardAt: number }>();
  private lastAnswerAt = 0;
  private streamUpSince: number | null = null;
  private streamLostAt: number | null = null;

  constructor(readonly stalenessMs: number) {}

  recordRead(token: TokenSubject, read: Omit<Read, 'at'>, now = Date.now()) {
    this.lastAnswerAt = now;
    const key = readKey(token);
    this.reads.delete(key);
    this.reads.set(key, { at: now, ...read });
    if (this.reads.size > MAX_READS) this.reads.delete(this.reads.keys().next().value!);
  }

  recordRevocation(change: Revocation, now = Date.now()) {
    this.forget(now);
    for (const id of change.sessionIds) this.sessions.set(id, now);
    for (const u of change.users) {
      const had = this.cutoffs.get(u.id);
      this.cutoffs.set(u.id, { cutoff: Math.max(u.cutoff, had?.cutoff ?? -Infinity), heardAt: now });
    }
  }

  /** The stream is subscribed (again): what it missed while down is not known, so reads before now gain nothing. */
  streamUp(now = Date.now()) {
    this.streamUpSince = now;
    this.streamLostAt = null;
  }

  streamDown(now = Date.now()) {
    if (this.streamUpSince !== null && this.streamLostAt === null) this.streamLostAt = now;
  }

  /** True or false from what is known within the bound; undefined when that is too old or nothing is known. */
  judge(token: TokenSubject, now = Date.now()): boolean | undefined {
    if (this.heardVoiding(token)) return true;
    const read = this.reads.get(readKey(token));
    if (!read || this.stalenessMs <= 0) return undefined;
    if (now - this.knownAsOf(read) > this.stalenessMs) return undefined;
    return isVoidedBy(token, read);
  }

  private heardVoiding(token: TokenSubject): boolean {
    const user = this.cutoffs.get(token.id);
    const change: Revocation = {
      sessionIds: token.sessionId && this.sessions.has(token.sessionId) ? [token.sessionId] : [],
      users: user ? [{ id: token.id, cutoff: user.cutoff }] : [],
    };
    return isVoidedByRevocation(token, change);
  }

  private knownAsOf(read: Read): number {
    const followed = this.streamUpSince !== null && this.streamUpSince <= read.at;
    if (!followed) return read.at;
    return Math.max(read.at, Math.min(this.lastAnswerAt, this.streamLostAt ?? Infinity));
  }

  private forget(now: number) {
    for (const [id, heardAt] of this.sessions) if (now - heardAt > STREAM_MEMORY_MS) this.sessions.delete(id);
    for (const [id, u] of this.cutoffs) if (now - u.heardAt > STREAM_MEMORY_MS) this.cutoffs.delete(id);
  }
}

const readKey = (token: TokenSubject) => `${token.id}|${token.sessionId ?? ''}`;
