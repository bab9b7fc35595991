import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { SessionRevocations } from '@beacon/auth';
import { IdentityEnv } from '../config/env.dto';

type Db = DataSource | EntityManager;

export interface AmrEntry {
  method: string;
  timestamp: number;
}

export interface SessionRow {
  id: string;
  user_id: string;
  aal: 'aal1' | 'aal2';
  factor_id: string | null;
  amr: AmrEntry[];
  user_agent: string | null;
  ip: string | null;
  created_at: Date;
  refreshed_at: Date | null;
}

export interface RefreshTokenRow {
  id: string;
  session_id: string;
  token_hash: string;
  parent_id: string | null;
  revoked_at: Date | null;
  successor_sealed: string | null;
  created_at: Date;
  /** Seconds since revocation by the database clock (null while active). */
  revoked_age_seconds: number | null;
}

@Injectable()
export class SessionsRepository {
  constructor(
    private readonly ds: DataSource,
    private readonly revocations: SessionRevocations,
    private readonly env: IdentityEnv,
  ) {}

  /**
   * Every way a session ends goes through here: the other services learn of it through Redis within a round trip
   * (their tokens are verified without asking identity), for as long as one of its access tokens can live. Inside
   * the caller's transaction, so a session never ends here without ending everywhere.
   */
  private async ended(result: [{ id: string }[], number], allOfUser?: string) {
    const sessionIds = result[0].map((r) => r.id);
    // When all of a user's sessions end, every token issued to the user so far is void too, listed session or not.
    await this.revocations.revoke({ sessionIds, userIds: allOfUser ? [allOfUser] : [] }, this.env.IDENTITY_JWT_EXPIRY_SECONDS + 60);
  }

  async create(tx: EntityManager, s: { userId: string; amr: AmrEntry[]; ip: string | null; userAgent: string | null }): Promise<SessionRow> {
    const [row] = await tx.query(`INSERT INTO identity.sessions (user_id, amr, ip, user_agent) VALUES ($1, $2, $3, $4) RETURNING *`, [
      s.userId,
      JSON.stringify(s.amr),
      s.ip,
      s.userAgent,
    ]);
    return row;
  }

  async findById(id: string, db: Db = this.ds): Promise<SessionRow | null> {
    const [row] = await db.query(`SELECT * FROM identity.sessions WHERE id = $1`, [id]);
    return row ?? null;
  }

  /** Locks the session: refreshes, MFA upgrades and sign-outs of one session happen one at a time. */
  async lock(tx: EntityManager, id: string): Promise<SessionRow | null> {
    const [row] = await tx.query(`SELECT * FROM identity.sessions WHERE id = $1 FOR UPDATE`, [id]);
    return row ?? null;
  }

  async markRefreshed(tx: EntityManager, id: string, ip: string | null, userAgent: string | null) {
    await tx.query(`UPDATE identity.sessions SET refreshed_at = now(), ip = $2, user_agent = $3 WHERE id = $1`, [id, ip, userAgent]);
  }

  async upgradeToAal2(tx: EntityManager, id: string, factorId: string, amr: AmrEntry) {
    await tx.query(`UPDATE identity.sessions SET aal = 'aal2', factor_id = $2, amr = amr || $3::jsonb WHERE id = $1`, [id, factorId, JSON.stringify([amr])]);
  }

  async delete(id: string, db: Db = this.ds) {
    await this.ended(await db.query(`DELETE FROM identity.sessions WHERE id = $1 RETURNING id`, [id]));
  }

  /** Demotion, ban, deletion, an admin's new password for the user, global sign-out. */
  async deleteAllOfUser(userId: string, db: Db = this.ds) {
    await this.ended(await db.query(`DELETE FROM identity.sessions WHERE user_id = $1 RETURNING id`, [userId]), userId);
  }

  async deleteOthersOfUser(userId: string, keepSessionId: string | null, db: Db = this.ds) {
    await this.ended(await db.query(`DELETE FROM identity.sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2 RETURNING id`, [userId, keepSessionId]));
  }

  /** After a factor is verified, sessions that never passed it end (the hosted service does the same). */
  async deleteAal1OfUser(tx: EntityManager, userId: string, keepSessionId: string) {
    await this.ended(await tx.query(`DELETE FROM identity.sessions WHERE user_id = $1 AND aal = 'aal1' AND id <> $2 RETURNING id`, [userId, keepSessionId]));
  }

  /** Sessions that relied on a removed factor drop back to aal1. */
  async downgradeFactorSessions(tx: EntityManager, factorId: string) {
    await tx.query(`UPDATE identity.sessions SET aal = 'aal1', factor_id = NULL WHERE factor_id = $1`, [factorId]);
  }

  async findTokenByHash(hash: string, db: Db = this.ds): Promise<RefreshTokenRow | null> {
    const [row] = await db.query(
      `SELECT *, extract(epoch FROM now() - revoked_at)::float8 AS revoked_age_seconds FROM identity.refresh_tokens WHERE token_hash = $1`,
      [hash],
    );
    return row ?? null;
  }

  async activeToken(tx: EntityManager, sessionId: string): Promise<RefreshTokenRow | null> {
    const [row] = await tx.query(`SELECT * FROM identity.refresh_tokens WHERE session_id = $1 AND revoked_at IS NULL`, [sessionId]);
    return row ?? null;
  }

  async insertToken(tx: EntityManager, sessionId: string, hash: string, parentId: string | null): Promise<RefreshTokenRow> {
    const [row] = await tx.query(`INSERT INTO identity.refresh_tokens (session_id, token_hash, parent_id) VALUES ($1, $2, $3) RETURNING *`, [
      sessionId,
      hash,
      parentId,
    ]);
    return row;
  }

  async revoke(tx: EntityManager, token: RefreshTokenRow) {
    await tx.query(`UPDATE identity.refresh_tokens SET revoked_at = now(), successor_sealed = NULL WHERE id = $1`, [token.id]);
    if (token.parent_id) await tx.query(`UPDATE identity.refresh_tokens SET successor_sealed = NULL WHERE id = $1`, [token.parent_id]);
  }

  /**
   * Revokes a token and keeps its successor sealed under it (for the reuse grace interval). Its own parent is
   * no longer the immediate parent of the current token, so that parent's sealed successor is dropped.
   */
  async revokeWithSuccessor(tx: EntityManager, token: RefreshTokenRow, sealedSuccessor: string) {
    await tx.query(`UPDATE identity.refresh_tokens SET revoked_at = now(), successor_sealed = $2 WHERE id = $1`, [token.id, sealedSuccessor]);
    if (token.parent_id) await tx.query(`UPDATE identity.refresh_tokens SET successor_sealed = NULL WHERE id = $1`, [token.parent_id]);
  }
}
