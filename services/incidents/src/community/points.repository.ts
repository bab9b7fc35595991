import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { POINTS } from '@beacon/contracts';
import { rowsOf } from '../common/sql';

/**
 * Points are a ledger (points_awards, one row per thing that earned them) plus a running total
 * (user_points), changed together in one transaction. Award keys make every handler idempotent.
 */
@Injectable()
export class PointsRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** +5 to the post's author, once per post. */
  awardForPost(postId: string): Promise<boolean> {
    return this.ds.transaction((m) =>
      this.award(m, `post:${postId}`, 'post', POINTS.post, `SELECT user_id FROM incidents.community_posts WHERE id = $1`, [postId]),
    );
  }

  /** +2 to the commenter, once per comment. */
  awardForComment(commentId: string): Promise<boolean> {
    return this.ds.transaction((m) =>
      this.award(m, `comment:${commentId}`, 'comment', POINTS.comment, `SELECT user_id FROM incidents.community_comments WHERE id = $1`, [commentId]),
    );
  }

  /**
   * Makes the like point match the like as it is NOW: +1 to the author while another user's like exists,
   * and back to 0 once it is gone. Events may arrive late, twice or out of order (like, unlike, like):
   * reconciling against the table instead of applying deltas always ends right.
   */
  reconcileLike(postId: string, likerId: string): Promise<void> {
    const key = `like:${postId}:${likerId}`;
    return this.ds.transaction(async (m) => {
      // one reconciliation per (post, liker) at a time
      await m.query(`SELECT pg_advisory_xact_lock(hashtextextended($1, 0))`, [key]);
      const [like] = await m.query(
        `SELECT p.user_id AS author FROM incidents.post_likes l JOIN incidents.community_posts p ON p.id = l.post_id
         WHERE l.post_id = $1 AND l.user_id = $2 AND p.user_id <> $2`,
        [postId, likerId],
      );
      const [award] = await m.query(`SELECT user_id, points FROM incidents.points_awards WHERE award_key = $1`, [key]);
      if (like && !award) {
        await this.award(m, key, 'like', POINTS.likeReceived, `SELECT $1::uuid AS user_id`, [like.author]);
      } else if (!like && award) {
        await m.query(`DELETE FROM incidents.points_awards WHERE award_key = $1`, [key]);
        await this.addToTotal(m, award.user_id, -award.points);
      }
    });
  }

  /** Inserts the award if its key is new, for the user the lookup names, and adds it to their total. */
  private async award(m: EntityManager, key: string, reason: string, points: number, ownerSql: string, ownerParams: unknown[]): Promise<boolean> {
    const [owner] = await m.query(ownerSql, ownerParams);
    if (!owner) return false; // the post or comment is gone: nothing to award
    const inserted = rowsOf(
      await m.query(
        `INSERT INTO incidents.points_awards (award_key, user_id, points, reason) VALUES ($1, $2, $3, $4)
       ON CONFLICT (award_key) DO NOTHING RETURNING 1`,
        [key, owner.user_id, points, reason],
      ),
    );
    if (!inserted.length) return false;
    await this.addToTotal(m, owner.user_id, points);
    return true;
  }

  private async addToTotal(m: EntityManager, userId: string, delta: number) {
    await m.query(
      `INSERT INTO incidents.user_points AS u (user_id, points) VALUES ($1, GREATEST($2::int, 0))
       ON CONFLICT (user_id) DO UPDATE SET points = GREATEST(u.points + $2::int, 0), updated_at = now()`,
      [userId, delta],
    );
  }
}
