import { Injectable, Logger, OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { DataSource, EntityManager } from 'typeorm';
import { DataKey, rowLabel } from '../common/data-key';
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

/** Rows encrypted per statement by the start-up pass. */
const ENCRYPT_BATCH = 500;

/**
 * TOTP factors. The secret is stored under IDENTITY_DATA_KEY (common/data-key.ts); rows returned from here
 * carry it decrypted.
 */
@Injectable()
export class FactorsRepository implements OnModuleInit {
  private readonly logger = new Logger(FactorsRepository.name);

  constructor(
    private readonly ds: DataSource,
    private readonly dataKey: DataKey,
  ) {}

  /**
   * Encrypts secrets stored before IDENTITY_DATA_KEY was set, so setting it protects existing factors, and
   * refuses to start when stored secrets cannot be read with the configured key (or without one).
   */
  async onModuleInit() {
    const encrypted = await this.ds.transaction(async (tx) => {
      // Replicas starting together encrypt each row once.
      await tx.query(`SELECT pg_advisory_xact_lock(hashtext('identity.mfa_factors'))`);
      const [sample] = await tx.query(`SELECT id, secret FROM identity.mfa_factors WHERE secret LIKE 'enc:%' ORDER BY created_at DESC LIMIT 1`);
      if (sample) this.dataKey.open(sample.secret, rowLabel('mfa_factors', sample.id));
      if (!this.dataKey.configured) return 0;
      let total = 0;
      for (;;) {
        const rows: { id: string; secret: string }[] = await tx.query(
          `SELECT id, secret FROM identity.mfa_factors WHERE secret NOT LIKE 'enc:%' LIMIT ${ENCRYPT_BATCH}`,
        );
        if (!rows.length) return total;
        await tx.query(`UPDATE identity.mfa_factors f SET secret = v.secret FROM unnest($1::uuid[], $2::text[]) AS v(id, secret) WHERE f.id = v.id`, [
          rows.map((r) => r.id),
          rows.map((r) => this.dataKey.seal(r.secret, rowLabel('mfa_factors', r.id))),
        ]);
        total += rows.length;
      }
    });
    if (encrypted) this.logger.log(`encrypted ${encrypted} stored TOTP secret(s) with IDENTITY_DATA_KEY`);
  }

  async findOwned(userId: string, factorId: string, db: Db = this.ds): Promise<FactorRow | null> {
    const [row] = await db.query(`SELECT * FROM identity.mfa_factors WHERE id = $1 AND user_id = $2`, [factorId, userId]);
    return this.decrypted(row);
  }

  async lock(tx: EntityManager, factorId: string): Promise<FactorRow | null> {
    const [row] = await tx.query(`SELECT * FROM identity.mfa_factors WHERE id = $1 FOR UPDATE`, [factorId]);
    return this.decrypted(row);
  }

  /** Enrolments never verified within the window are abandoned; they are cleared before counting. */
  async deleteAbandoned(userId: string, olderThanSeconds: number) {
    await this.ds.query(`DELETE FROM identity.mfa_factors WHERE user_id = $1 AND status = 'unverified' AND created_at < now() - make_interval(secs => $2)`, [
      userId,
      olderThanSeconds,
    ]);
  }

  /** Inserts unless the friendly name is taken for this user (then null). */
  async insert(f: { userId: string; friendlyName: string | null; secret: string }): Promise<FactorRow | null> {
    // The id is chosen here because the encrypted secret is bound to it.
    const id = randomUUID();
    const [row] = await this.ds.query(
      `INSERT INTO identity.mfa_factors (id, user_id, friendly_name, factor_type, secret) VALUES ($1, $2, $3, 'totp', $4)
       ON CONFLICT DO NOTHING RETURNING *`,
      [id, f.userId, f.friendlyName, this.dataKey.seal(f.secret, rowLabel('mfa_factors', id))],
    );
    return row ? { ...row, secret: f.secret } : null;
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
    const [row] = await this.ds.query(`INSERT INTO identity.mfa_challenges (factor_id, ip) VALUES ($1, $2) RETURNING *, 0::float8 AS age_seconds`, [
      factorId,
      ip,
    ]);
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

  private decrypted(row: FactorRow | undefined): FactorRow | null {
    return row ? { ...row, secret: this.dataKey.open(row.secret, rowLabel('mfa_factors', row.id)) } : null;
  }
}
