import { MigrationInterface, QueryRunner } from 'typeorm';

/**
 * The catalogue and its view log. The category list mirrors PRODUCT_CATEGORIES in libs/contracts
 * (a new category needs a migration that replaces the CHECK). view_count is kept in step with
 * product_views in the same transaction, so the 'popular' sort is an index scan rather than a count per row.
 */
export class CreateProducts1763780000000 implements MigrationInterface {
  name = 'CreateProducts1763780000000';

  async up(q: QueryRunner): Promise<void> {
    await q.query(`
      CREATE TABLE store.store_products (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        name text NOT NULL CHECK (length(btrim(name)) BETWEEN 1 AND 200),
        description text NOT NULL DEFAULT '' CHECK (length(description) <= 2000),
        price numeric(10,2) NOT NULL CHECK (price >= 0),
        category text NOT NULL CONSTRAINT store_products_category_check CHECK (category IN (
          'Emergency Kits', 'Safety Electronics', 'Safety Gear', 'Emergency Electronics', 'Medical Supplies', 'Traffic Control')),
        images text[] NOT NULL DEFAULT '{}' CHECK (cardinality(images) <= 8),
        featured boolean NOT NULL DEFAULT false,
        in_stock boolean NOT NULL DEFAULT true,
        is_affiliate boolean NOT NULL DEFAULT false,
        affiliate_url text CHECK (affiliate_url IS NULL OR affiliate_url LIKE 'https://%'),
        view_count integer NOT NULL DEFAULT 0 CHECK (view_count >= 0),
        created_at timestamptz NOT NULL DEFAULT now(),
        updated_at timestamptz NOT NULL DEFAULT now(),
        CONSTRAINT store_products_affiliate_needs_url CHECK (NOT is_affiliate OR affiliate_url IS NOT NULL)
      )`);
    await q.query(`CREATE INDEX store_products_category_idx ON store.store_products (category)`);
    await q.query(`CREATE INDEX store_products_featured_idx ON store.store_products (featured DESC, created_at DESC, id)`);
    await q.query(`CREATE INDEX store_products_created_idx ON store.store_products (created_at DESC, id)`);
    await q.query(`CREATE INDEX store_products_price_idx ON store.store_products (price, id)`);
    await q.query(`CREATE INDEX store_products_popular_idx ON store.store_products (view_count DESC, created_at DESC, id)`);
    await q.query(`
      CREATE TABLE store.product_views (
        id uuid PRIMARY KEY DEFAULT gen_random_uuid(),
        product_id uuid NOT NULL REFERENCES store.store_products(id) ON DELETE CASCADE,
        user_id uuid NOT NULL,
        viewed_at timestamptz NOT NULL DEFAULT now()
      )`);
    // analytics windows (product, time) and the per-user de-duplication check (product, user, time)
    await q.query(`CREATE INDEX product_views_product_time_idx ON store.product_views (product_id, viewed_at DESC)`);
    await q.query(`CREATE INDEX product_views_product_user_time_idx ON store.product_views (product_id, user_id, viewed_at DESC)`);
  }

  async down(q: QueryRunner): Promise<void> {
    await q.query(`DROP TABLE store.product_views`);
    await q.query(`DROP TABLE store.store_products`);
  }
}
