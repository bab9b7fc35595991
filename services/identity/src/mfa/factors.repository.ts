import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';
import { FactorRow } from '../users/user.model';

type Db = DataSource | EntityManager;

export interface ChallengeRow {
  id: string;
  factor_id: string;
  ip: string;
  created_at: Date;
  verified_at: Date | null;
  /** Seconds since creation by the database clock. */
  age_seconds: number;
}

@Injectable()
export class FactorsRepository {
  constructor(private readonly ds: DataSource) {}

  async findOwned(userId: string, factorId: string, db: Db = this.ds): Promise<FactorRow | null> {
    const [row] = await db.query(`SELECT * FROM identity.mfa_factors WHERE id = $1 AND user_id = $2`, [factorId, userId]);
    return row ?? null;
  }

  async lock(tx: EntityManager, factorId: string): Promise<FactorRow | null> {
    const [row] = await tx.query(`SELECT * FROM identity.mfa_factors WHERE id = $1 FOR UPDATE`, [factorId]);
    return row ?? null;
  }

  /** Enrolments never verified within the window are abandoned; they are cleared before counting. */
  async deleteAbandoned(userId: string, olderThanSeconds: number) {
    await this.ds.query(
      `DELETE FROM identity.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND created_at < now() - make_interval(secs => $2)`,
      [userId, olderThanSeconds],
    );
  }

  /** Inserts unless the friendly name is taken for this user (then null). */
  async insert(f: { userId: string; friendlyName: string | null; secret: string }): Promise<FactorRow | null> {
    const [row] = await this.ds.query(
      `INSERT INTO identity.mfa_factors (user_id, friendly_name, factor_type, secret) VALUES ($1, $2, 'totp', $3)
       ON CONFLICT DO NOTHING RETURNING *`,
      [f.userId, f.friendlyName, f.secret],
    );
    return row ?? null;
  }

  async markVerified(tx: EntityManager, factorId: string, step: number) {
    await tx.query(`UPDATE identity.mfa_factors SET status = 'verified', last_used_step = $2, updated_at = now() WHERE id = $1`, [factorId, step]);
  }

  async deleteOtherUnverified(tx: EntityManager, userId: string, keepFactorId: string) {
    await tx.query(`DELETE FROM identity.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND id <> $2`, [userId, keepFactorId]);
  }

  async delete(tx: EntityManager, factorId: string) {
    await tx.query(`DELETE FROM identity.mfa_factors WHERE id = $1`, [factorId]);
  }

  async createChallenge(factorId: string, ip: string): Promise<ChallengeRow> {
    const [row] = await this.ds.query(
      `INSERT INTO identity.mfa_challenges (factor_id, ip) VALUES ($1, $2) RETURNING *, 0::float8 AS age_seconds`,
      [factorId, ip],
    );
    return row;
  }

  async findChallenge(factorId: string, challengeId: string, db: Db = this.ds): Promise<ChallengeRow | null> {
    const [row] = await db.query(
      `SELECT *, extract(epoch FROM now() - created_at)::float8 AS age_seconds FROM identity.mfa_challenges WHERE id = $1 AND factor_id = $2`,
      [challengeId, factorId],
    );
    return row ?? null;
  }

  /** Marks a challenge used; false if it already was (a concurrent verification won). */
  async consumeChallenge(tx: EntityManager, challengeId: string): Promise<boolean> {
    const [, count] = await tx.query(`UPDATE identity.mfa_challenges SET verified_at = now() WHERE id = $1 AND verified_at IS NULL`, [challengeId]);
    return count > 0;
  }

  async deleteChallenge(challengeId: string) {
    await this.ds.query(`DELETE FROM identity.mfa_challenges WHERE id = $1`, [challengeId]);
  }
}
