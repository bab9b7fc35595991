import { createHash } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { imagePath } from '../images/product-images.service';
import { CATALOGUE } from './catalogue';

/** A fixed UUID per catalogue slug (name-based, v5 layout), so a product keeps its id across databases. */
export function catalogueId(slug: string): string {
  const h = createHash('sha1').update(`beacon-store:${slug}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

/**
 * Seeds the demo catalogue into an empty store, in one transaction. A store that already has products
 * is left alone, so products an admin edited or deleted stay that way across restarts.
 */
export async function seedStore(ds: DataSource, log: (line: string) => void): Promise<void> {
  await ds.transaction(async (m) => {
    // serialise concurrent starts: only one seeds
    await m.query(`LOCK TABLE store.store_products IN SHARE ROW EXCLUSIVE MODE`);
    const [{ n }] = await m.query(`SELECT count(*)::int AS n FROM store.store_products`);
    if (n > 0) {
      log(`catalogue already has ${n} products; left as is`);
      return;
    }
    for (const item of CATALOGUE) {
      await m.query(
        `INSERT INTO store.store_products
           (id, name, description, price, category, images, featured, in_stock, is_affiliate, affiliate_url, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, now() - make_interval(days => $11), now() - make_interval(days => $11))`,
        [
          catalogueId(item.slug),
          item.name,
          item.description,
          item.price,
          item.category,
          [imagePath(item.slug)],
          item.featured ?? false,
          item.inStock ?? true,
          Boolean(item.affiliateUrl),
          item.affiliateUrl ?? null,
          item.addedDaysAgo,
        ],
      );
    }
    log(`seeded ${CATALOGUE.length} products`);
  });
}
