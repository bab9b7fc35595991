import { MigrationInterface, QueryRunner } from 'typeorm';

export class CreateCommunity1763800100000 implements MigrationInterface {
  name = 'CreateCommunity1763800100000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE incidents.community_posts (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        title text NOT NULL CHECK (char_length(title) BETWEEN 5 AND 100),
        category text NOT NULL CHECK (category IN ('wrong-way-driver', 'traffic-tip', 'neighborhood-watch', 'other')),
        description text NOT NULL CHECK (char_length(description) BETWEEN 20 AND 1000),
        image_path text,
        lat double precision NOT NULL CHECK (lat BETWEEN -90 AND 90),
        lng double precision NOT NULL CHECK (lng BETWEEN -180 AND 180),
        location_name text CHECK (char_length(location_name) <= 200),
        user_id uuid NOT NULL,
        likes_count integer NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
        comments_count integer NOT NULL DEFAULT 0 CHECK (comments_count >= 0),
        status text NOT NULL DEFAULT 'active' CHECK (status IN ('active', 'hidden')),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX community_posts_geo_idx ON incidents.community_posts USING gist (incidents.geo_point(lat, lng)) WHERE status = 'active'`);
    await q.query(`CREATE INDEX community_posts_created_idx ON incidents.community_posts (created_at DESC, id) WHERE status = 'active'`);
    await q.query(`CREATE INDEX community_posts_likes_idx ON incidents.community_posts (likes_count DESC, created_at DESC) WHERE status = 'active'`);
    await q.query(`CREATE INDEX community_posts_comments_idx ON incidents.community_posts (comments_count DESC, created_at DESC) WHERE status = 'active'`);
    await q.query(`CREATE INDEX community_posts_user_idx ON incidents.community_posts (user_id)`);

    await q.query(`
      CREATE TABLE incidents.community_comments (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        post_id uuid NOT NULL REFERENCES incidents.community_posts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        content text NOT NULL CHECK (char_length(content) BETWEEN 1 AND 1000),
        parent_id uuid,
        likes_count integer NOT NULL DEFAULT 0 CHECK (likes_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        UNIQUE (post_id, id),
        -- a reply's parent must be a comment on the same post
        FOREIGN KEY (post_id, parent_id) REFERENCES incidents.community_comments(post_id, id) ON DELETE CASCADE
      )`);
    await q.query(`CREATE INDEX community_comments_post_created_idx ON incidents.community_comments (post_id, created_at)`);
    await q.query(`CREATE INDEX community_comments_created_idx ON incidents.community_comments (created_at)`);
    await q.query(`CREATE INDEX community_comments_user_idx ON incidents.community_comments (user_id)`);

    await q.query(`
      CREATE TABLE incidents.post_likes (
        post_id uuid NOT NULL REFERENCES incidents.community_posts(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        created_at timestamptz NOT NULL DEFAULT now(),
        PRIMARY KEY (post_id, user_id)
      )`);
    await q.query(`CREATE INDEX post_likes_user_idx ON incidents.post_likes (user_id)`);

    await q.query(`
      CREATE TABLE incidents.user_points (
        user_id uuid PRIMARY KEY,
        points integer NOT NULL DEFAULT 0 CHECK (points >= 0),
        updated_at timestamptz NOT NULL DEFAULT now()
      )`);
    // One row per thing that earned points ('post:<id>', 'comment:<id>', 'like:<postId>:<userId>'): replaying
    // an event can never award twice, and an unlike removes exactly the point its like gave.
    await q.query(`
      CREATE TABLE incidents.points_awards (
        award_key text PRIMARY KEY,
        user_id uuid NOT NULL,
        points integer NOT NULL CHECK (points > 0),
        reason text NOT NULL CHECK (reason IN ('post', 'comment', 'like')),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`CREATE INDEX points_awards_user_idx ON incidents.points_awards (user_id)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE incidents.points_awards`);
    await q.query(`DROP TABLE incidents.user_points`);
    await q.query(`DROP TABLE incidents.post_likes`);
    await q.query(`DROP TABLE incidents.community_comments`);
    await q.query(`DROP TABLE incidents.community_posts`);
  }
}
