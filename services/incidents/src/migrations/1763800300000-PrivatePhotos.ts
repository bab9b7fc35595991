import { randomBytes } from 'node:crypto';
import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * Photos of unpublished reports are served only through short-lived signed URLs (uploads/photo-urls.ts). The
 * signing key is generated here, once, so every replica shares it without any configuration;
 * INCIDENTS_PHOTO_URL_KEY overrides it. The indexes serve the per-request question "is this photo published?".
 */
export class PrivatePhotos1763800300000 implements MigrationInterface {
  name = 'PrivatePhotos1763800300000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE incidents.photo_url_key (
        id boolean PRIMARY KEY DEFAULT true CHECK (id),
        secret bytea NOT NULL CHECK (length(secret) >= 32),
        created_at timestamptz NOT NULL DEFAULT now()
      )`);
    await q.query(`INSERT INTO incidents.photo_url_key (secret) VALUES ($1)`, [randomBytes(32)]);
    await q.query(`CREATE INDEX incidents_photo_path_idx ON incidents.incidents (photo_path) WHERE photo_path IS NOT NULL`);
    await q.query(`CREATE INDEX community_posts_image_path_idx ON incidents.community_posts (image_path) WHERE image_path IS NOT NULL`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP INDEX incidents.community_posts_image_path_idx`);
    await q.query(`DROP INDEX incidents.incidents_photo_path_idx`);
    await q.query(`DROP TABLE incidents.photo_url_key`);
  }
}
