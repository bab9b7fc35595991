import { Injectable } from '@nestjs/common';
import { DataSource, EntityManager } from 'typeorm';

type Db = DataSource | EntityManager;

export type OneTimeTokenType = 'confirmation' | 'recovery' | 'email_change';

export interface ConsumedToken {
  user_id: string;
  token_type: OneTimeTokenType;
  relates_to: string;
}

@Injectable()
export class OneTimeTokensRepository {
  /** Stores a new token (hashed) and drops the user's older unused ones of the same kind: only the latest link works. */
  async replace(db: Db, t: { userId: string; type: OneTimeTokenType; hash: string; relatesTo: string; ttlSeconds: number }) {
    await db.query(`DELETE FROM identity.one_time_tokens WHERE user_id = $1 AND token_type = $2`, [t.userId, t.type]);
    await db.query(
      `INSERT INTO identity.one_time_tokens (user_id, token_type, token_hash, relates_to, expires_at)
       VALUES ($1, $2, $3, $4, now() + make_interval(secs => $5))`,
      [t.userId, t.type, t.hash, t.relatesTo, t.ttlSeconds],
    );
  }

  /**
   * Marks a token used if it is unused and unexpired, in one conditional statement: of two concurrent
   * requests with the same token, exactly one gets the row back.
   */
  async consume(tx: EntityManager, hash: string, types: OneTimeTokenType[]): Promise<ConsumedToken | null> {
    const [rows] = await tx.query(
      `UPDATE identity.one_time_tokens SET used_at = now()
        WHERE token_hash = $1 AND token_type = ANY($2) AND used_at IS NULL AND expires_at > now()
        RETURNING user_id, token_type, relates_to`,
      [hash, types],
    );
    return rows?.[0] ?? null;
  }
}
