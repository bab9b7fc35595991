import { Injectable } from '@nestjs/common';
import { InjectDataSource, InjectRepository } from '@nestjs/typeorm';
import { DataSource, EntityManager, Repository, SelectQueryBuilder } from 'typeorm';
import type { ProductAnalytics, ProductCategory, ProductSort, StoreStats } from '@beacon/contracts';
import { ProductEntity } from './product.entity';

export interface ProductListCriteria {
  search?: string;
  category?: ProductCategory;
  minPrice?: number;
  maxPrice?: number;
  inStockOnly?: boolean;
  featuredOnly?: boolean;
  sortBy: ProductSort;
  limit: number;
  offset: number;
}

/** The columns a write may set (camelCase entity fields). */
export type ProductFields = Partial<
  Pick<ProductEntity, 'name' | 'description' | 'price' | 'category' | 'images' | 'featured' | 'inStock' | 'isAffiliate' | 'affiliateUrl'>
>;

/**
 * Each sort ends in unique keys (created_at, id) so that paging with offset never shows a product
 * twice or skips one when several share a price or a view count.
 */
const SORTS: Record<ProductSort, [string, 'ASC' | 'DESC'][]> = {
  featured: [
    ['p.featured', 'DESC'],
    ['p.createdAt', 'DESC'],
    ['p.id', 'ASC'],
  ],
  price_low: [
    ['p.price', 'ASC'],
    ['p.createdAt', 'DESC'],
    ['p.id', 'ASC'],
  ],
  price_high: [
    ['p.price', 'DESC'],
    ['p.createdAt', 'DESC'],
    ['p.id', 'ASC'],
  ],
  popular: [
    ['p.viewCount', 'DESC'],
    ['p.createdAt', 'DESC'],
    ['p.id', 'ASC'],
  ],
  newest: [
    ['p.createdAt', 'DESC'],
    ['p.id', 'ASC'],
  ],
};

/** Escapes LIKE wildcards so a search for '50%' means the text '50%'. */
export function likePattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (c) => `\\${c}`)}%`;
}

@Injectable()
export class ProductsRepository {
  constructor(
    @InjectRepository(ProductEntity) private readonly products: Repository<ProductEntity>,
    @InjectDataSource() private readonly ds: DataSource,
  ) {}

  /** One page and the exact number of matches; both filtered in SQL. */
  async list(c: ProductListCriteria): Promise<{ rows: ProductEntity[]; total: number }> {
    const qb = this.filtered(c);
    for (const [i, [column, dir]] of SORTS[c.sortBy].entries()) {
      if (i === 0) qb.orderBy(column, dir);
      else qb.addOrderBy(column, dir);
    }
    const [rows, total] = await qb.offset(c.offset).limit(c.limit).getManyAndCount();
    return { rows, total };
  }

  private filtered(c: ProductListCriteria): SelectQueryBuilder<ProductEntity> {
    const qb = this.products.createQueryBuilder('p');
    if (c.search?.trim()) {
      qb.andWhere('(p.name ILIKE :pattern OR p.description ILIKE :pattern)', { pattern: likePattern(c.search.trim()) });
    }
    if (c.category) qb.andWhere('p.category = :category', { category: c.category });
    if (c.minPrice !== undefined) qb.andWhere('p.price >= :minPrice', { minPrice: c.minPrice });
    if (c.maxPrice !== undefined) qb.andWhere('p.price <= :maxPrice', { maxPrice: c.maxPrice });
    if (c.inStockOnly) qb.andWhere('p.inStock = true');
    if (c.featuredOnly) qb.andWhere('p.featured = true');
    return qb;
  }

  featured(limit: number): Promise<ProductEntity[]> {
    return this.products
      .createQueryBuilder('p')
      .where('p.featured = true')
      .orderBy('p.inStock', 'DESC')
      .addOrderBy('p.createdAt', 'DESC')
      .addOrderBy('p.id', 'ASC')
      .limit(limit)
      .getMany();
  }

  findById(id: string, manager: EntityManager = this.ds.manager): Promise<ProductEntity | null> {
    return manager.getRepository(ProductEntity).findOneBy({ id });
  }

  async insert(fields: ProductFields): Promise<ProductEntity> {
    const saved = await this.products.save(
      this.products.create({ description: '', images: [], featured: false, inStock: true, isAffiliate: false, affiliateUrl: null, ...fields }),
    );
    return (await this.findById(saved.id))!;
  }

  /** Runs `work` in a transaction with the product row locked; null when it does not exist. */
  withLockedProduct<T>(id: string, work: (product: ProductEntity, manager: EntityManager) => Promise<T>): Promise<T | null> {
    return this.ds.transaction(async (manager) => {
      const product = await manager.getRepository(ProductEntity).createQueryBuilder('p').setLock('pessimistic_write').where('p.id = :id', { id }).getOne();
      return product ? work(product, manager) : null;
    });
  }

  async update(manager: EntityManager, id: string, fields: ProductFields): Promise<ProductEntity> {
    if (Object.keys(fields).length) await manager.getRepository(ProductEntity).update({ id }, fields);
    return (await this.findById(id, manager))!;
  }

  /** True when a product was deleted (its views go with it). */
  async delete(id: string): Promise<boolean> {
    const result = await this.products.delete({ id });
    return (result.affected ?? 0) > 0;
  }

  /**
   * Records a view unless the same user viewed the product within `dedupeSeconds`. The product row
   * is locked first, so two simultaneous views by one user cannot both pass the check, and view_count
   * moves with product_views in the same transaction. Returns null when the product does not exist.
   */
  recordView(productId: string, userId: string, dedupeSeconds: number): Promise<{ recorded: boolean } | null> {
    return this.withLockedProduct(productId, async (_product, m) => {
      if (dedupeSeconds > 0) {
        const recent = await m.query(
          `SELECT 1 FROM store.product_views
            WHERE product_id = $1 AND user_id = $2 AND viewed_at > now() - make_interval(secs => $3) LIMIT 1`,
          [productId, userId, dedupeSeconds],
        );
        if (recent.length) return { recorded: false };
      }
      await m.query(`INSERT INTO store.product_views (product_id, user_id) VALUES ($1, $2)`, [productId, userId]);
      await m.query(`UPDATE store.store_products SET view_count = view_count + 1 WHERE id = $1`, [productId]);
      return { recorded: true };
    });
  }

  /** Views of one product over its lifetime, distinct viewers, and the rolling 7-day and 24-hour windows. */
  async analytics(productId: string): Promise<Omit<ProductAnalytics, 'productId'>> {
    const [row] = await this.ds.query(
      `SELECT count(*)::int AS "totalViews",
              count(DISTINCT user_id)::int AS "uniqueViews",
              count(*) FILTER (WHERE viewed_at > now() - interval '7 days')::int AS "viewsThisWeek",
              count(*) FILTER (WHERE viewed_at > now() - interval '1 day')::int AS "viewsToday"
         FROM store.product_views WHERE product_id = $1`,
      [productId],
    );
    return row;
  }

  async stats(): Promise<StoreStats> {
    const [totals] = await this.ds.query(
      `SELECT count(*)::int AS "totalProducts",
              count(*) FILTER (WHERE in_stock)::int AS "inStockProducts",
              count(*) FILTER (WHERE featured)::int AS "featuredProducts",
              count(DISTINCT category)::int AS "categories"
         FROM store.store_products`,
    );
    const byCategory = await this.ds.query(`SELECT category, count(*)::int AS count FROM store.store_products GROUP BY category ORDER BY category`);
    return { ...totals, byCategory };
  }
}
