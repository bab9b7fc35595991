import { Injectable } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { DataSource, EntityManager } from 'typeorm';
import { COMMUNITY_LIMITS, CommunityStats, LEVELS, PostCategory, PostSort } from '@beacon/contracts';
import { withinRadius } from '../common/geo';
import { rowsOf } from '../common/sql';
import { COMMENT_COLUMNS, CommentRow, MyActivityRow, POST_COLUMNS, PostRow } from './community.entity';

export interface PostFilter {
  category?: PostCategory;
  search?: string;
  sort: PostSort;
  near?: { lat: number; lng: number; radiusM: number };
  limit: number;
  offset: number;
}

const ORDER: Record<PostSort, string> = {
  newest: 'p.created_at DESC, p.id',
  likes: 'p.likes_count DESC, p.created_at DESC, p.id',
  comments: 'p.comments_count DESC, p.created_at DESC, p.id',
};

/** Every level but the first, which everyone starts at: reaching one is an achievement. */
const REACHABLE_LEVELS = LEVELS.filter((l) => l.min > 0);

/**
 * $1 the user. Their posts and their comments (on posts still shown), and the moment their points ledger
 * first reached each level: the running sum only grows (every award is positive), so each threshold is
 * crossed once, at the earliest award whose running sum reaches it. An unlike deletes its award, so a level
 * the user fell back below is no longer listed, as the total no longer says they reached it.
 */
const MY_ACTIVITY = `
  WITH levels (level, name, min) AS (SELECT * FROM unnest($2::int[], $3::text[], $4::int[])),
  ledger AS (
    SELECT created_at, sum(points) OVER (ORDER BY created_at, award_key) AS running
    FROM incidents.points_awards WHERE user_id = $1
  )
  SELECT 'post' AS kind, p.id::text AS id, p.created_at, p.id AS post_id, p.title AS post_title, p.category,
         NULL::text AS content, NULL::int AS level, NULL::text AS level_name
  FROM incidents.community_posts p WHERE p.user_id = $1 AND p.status = 'active'
  UNION ALL
  SELECT 'comment', c.id::text, c.created_at, p.id, p.title, p.category, c.content, NULL, NULL
  FROM incidents.community_comments c JOIN incidents.community_posts p ON p.id = c.post_id
  WHERE c.user_id = $1 AND p.status = 'active'
  UNION ALL
  SELECT 'level', 'level-' || l.level, min(r.created_at), NULL, NULL, NULL, NULL, l.level, l.name
  FROM levels l JOIN ledger r ON r.running >= l.min GROUP BY l.level, l.name`;

/** ILIKE pattern for a literal substring: the user's % and _ match themselves. */
export const containsPattern = (s: string) => `%${s.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;

@Injectable()
export class CommunityRepository {
  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  transaction<T>(work: (m: EntityManager) => Promise<T>): Promise<T> {
    return this.ds.transaction(work);
  }

  async listPosts(viewerId: string | null, f: PostFilter): Promise<{ rows: PostRow[]; total: number }> {
    const params: unknown[] = [viewerId];
    const where = [`p.status = 'active'`];
    if (f.category) where.push(`p.category = $${params.push(f.category)}`);
    if (f.search) {
      const n = params.push(containsPattern(f.search));
      where.push(`(p.title ILIKE $${n} OR p.description ILIKE $${n})`);
    }
    if (f.near) {
      const lat = params.push(f.near.lat);
      const lng = params.push(f.near.lng);
      const r = params.push(f.near.radiusM);
      where.push(withinRadius('p', `$${lat}`, `$${lng}`, `$${r}`));
    }
    const condition = where.join(' AND ');
    const rows: (PostRow & { total: number })[] = await this.ds.query(
      `SELECT ${POST_COLUMNS}, count(*) OVER ()::int AS total FROM incidents.community_posts p
       WHERE ${condition} ORDER BY ${ORDER[f.sort]} LIMIT $${params.length + 1} OFFSET $${params.length + 2}`,
      [...params, f.limit, f.offset],
    );
    if (rows.length || f.offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM incidents.community_posts p WHERE ${condition}`, params);
    return { rows, total };
  }

  /** One page of the user's activity, newest first (id breaks ties, so pages never overlap), and the exact total. */
  async myActivity(userId: string, limit: number, offset: number): Promise<{ rows: MyActivityRow[]; total: number }> {
    const params = [userId, REACHABLE_LEVELS.map((l) => l.level), REACHABLE_LEVELS.map((l) => l.name), REACHABLE_LEVELS.map((l) => l.min)];
    const rows: (MyActivityRow & { total: number })[] = await this.ds.query(
      `SELECT a.*, count(*) OVER ()::int AS total FROM (${MY_ACTIVITY}) a ORDER BY a.created_at DESC, a.id COLLATE "C" LIMIT $5 OFFSET $6`,
      [...params, limit, offset],
    );
    if (rows.length || offset === 0) return { rows, total: rows[0]?.total ?? 0 };
    // past the end: the window count has no row to ride on
    const [{ total }] = await this.ds.query(`SELECT count(*)::int AS total FROM (${MY_ACTIVITY}) a`, params);
    return { rows, total };
  }

  async findActivePost(viewerId: string | null, id: string, m: EntityManager = this.ds.manager): Promise<PostRow | null> {
    const [row] = await m.query(`SELECT ${POST_COLUMNS} FROM incidents.community_posts p WHERE p.id = $2 AND p.status = 'active'`, [viewerId, id]);
    return row ?? null;
  }

  async trending(viewerId: string | null): Promise<PostRow[]> {
    return this.ds.query(
      `SELECT ${POST_COLUMNS} FROM incidents.community_posts p
       WHERE p.status = 'active' AND p.created_at >= now() - make_interval(days => $2::int)
       ORDER BY p.likes_count DESC, p.created_at DESC, p.id LIMIT $3`,
      [viewerId, COMMUNITY_LIMITS.trendingDays, COMMUNITY_LIMITS.trending],
    );
  }

  async insertPost(
    m: EntityManager,
    p: {
      title: string;
      category: string;
      description: string;
      imagePath: string | null;
      lat: number;
      lng: number;
      locationName: string | null;
      userId: string;
    },
  ): Promise<PostRow> {
    const [{ id }] = await m.query(
      `INSERT INTO incidents.community_posts (title, category, description, image_path, lat, lng, location_name, user_id)
       VALUES ($1, $2, $3, $4, $5, $6, $7, $8) RETURNING id`,
      [p.title, p.category, p.description, p.imagePath, p.lat, p.lng, p.locationName, p.userId],
    );
    return (await this.findActivePost(p.userId, id, m))!;
  }

  async listComments(postId: string): Promise<CommentRow[]> {
    return this.ds.query(`SELECT ${COMMENT_COLUMNS} FROM incidents.community_comments c WHERE c.post_id = $1 ORDER BY c.created_at, c.id LIMIT 1000`, [postId]);
  }

  async commentBelongsTo(m: EntityManager, commentId: string, postId: string): Promise<boolean> {
    const rows = await m.query(`SELECT 1 FROM incidents.community_comments WHERE id = $1 AND post_id = $2`, [commentId, postId]);
    return rows.length > 0;
  }

  /** Inserts the comment and bumps the post's counter in the caller's transaction. */
  async insertComment(m: EntityManager, c: { postId: string; userId: string; content: string; parentId: string | null }): Promise<CommentRow> {
    const [row] = await m.query(
      `INSERT INTO incidents.community_comments AS c (post_id, user_id, content, parent_id) VALUES ($1, $2, $3, $4) RETURNING ${COMMENT_COLUMNS}`,
      [c.postId, c.userId, c.content, c.parentId],
    );
    await m.query(`UPDATE incidents.community_posts SET comments_count = comments_count + 1 WHERE id = $1`, [c.postId]);
    return row;
  }

  /**
   * Toggles one user's like. The primary key (post, user) makes a like unique; the counter moves only when
   * a row was really inserted or deleted, and the UPDATE's row lock serialises concurrent counter changes,
   * so the count stays equal to the number of like rows however many toggles race.
   */
  async toggleLike(m: EntityManager, postId: string, userId: string): Promise<{ liked: boolean; changed: boolean; likesCount: number }> {
    const removed = rowsOf(await m.query(`DELETE FROM incidents.post_likes WHERE post_id = $1 AND user_id = $2 RETURNING 1`, [postId, userId]));
    if (removed.length) return { liked: false, changed: true, likesCount: await this.bumpLikes(m, postId, -1) };
    const added = await m.query(`INSERT INTO incidents.post_likes (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING RETURNING 1`, [postId, userId]);
    if (added.length) return { liked: true, changed: true, likesCount: await this.bumpLikes(m, postId, 1) };
    // the same user's concurrent toggle inserted it first: it is liked, nothing changed here
    const [{ likes_count }] = await m.query(`SELECT likes_count FROM incidents.community_posts WHERE id = $1`, [postId]);
    return { liked: true, changed: false, likesCount: likes_count };
  }

  private async bumpLikes(m: EntityManager, postId: string, delta: 1 | -1): Promise<number> {
    const [row] = rowsOf<{ likes_count: number }>(
      await m.query(`UPDATE incidents.community_posts SET likes_count = likes_count + $2 WHERE id = $1 RETURNING likes_count`, [postId, delta]),
    );
    return row.likes_count;
  }

  async points(userId: string): Promise<number | null> {
    const [row] = await this.ds.query(`SELECT points FROM incidents.user_points WHERE user_id = $1`, [userId]);
    return row ? row.points : null;
  }

  async stats(): Promise<CommunityStats> {
    const [row] = await this.ds.query(`
      SELECT
        (SELECT count(*) FROM (
           SELECT user_id FROM incidents.community_posts
           UNION SELECT user_id FROM incidents.community_comments
           UNION SELECT user_id FROM incidents.post_likes) members)::int AS members,
        (SELECT count(*) FROM incidents.community_posts WHERE status = 'active' AND created_at >= now() - interval '7 days')::int AS "postsThisWeek",
        (SELECT count(*) FROM incidents.community_comments WHERE created_at >= now() - interval '24 hours')::int AS "commentsToday"`);
    return row;
  }
}
