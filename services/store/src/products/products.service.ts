import { Injectable } from '@nestjs/common';
import { AppError, badRequest, notFound } from '@beacon/common';
import type { Product, ProductAnalytics, ProductPage, StoreStats } from '@beacon/contracts';
import { StoreEnv } from '../config/env.dto';
import { CreateProductDto, UpdateProductDto } from './dto/product.dto';
import { FeaturedProductsQuery, ListProductsQuery } from './dto/list-products.query';
import { ProductEntity, toProduct } from './product.entity';
import { ProductFields, ProductsRepository } from './products.repository';

const productNotFound = () => notFound('Product', 'product_not_found');

@Injectable()
export class ProductsService {
  constructor(
    private readonly repo: ProductsRepository,
    private readonly env: StoreEnv,
  ) {}

  async list(q: ListProductsQuery): Promise<ProductPage> {
    if (q.minPrice !== undefined && q.maxPrice !== undefined && q.minPrice > q.maxPrice) {
      throw badRequest('minPrice cannot be greater than maxPrice', 'invalid_price_range');
    }
    const { rows, total } = await this.repo.list(q);
    return { products: rows.map(toProduct), total, limit: q.limit, offset: q.offset };
  }

  async featured(q: FeaturedProductsQuery): Promise<{ products: Product[] }> {
    return { products: (await this.repo.featured(q.limit)).map(toProduct) };
  }

  async get(id: string): Promise<Product> {
    const product = await this.repo.findById(id);
    if (!product) throw productNotFound();
    return toProduct(product);
  }

  async recordView(productId: string, userId: string): Promise<{ recorded: boolean }> {
    const result = await this.repo.recordView(productId, userId, this.env.STORE_VIEW_DEDUPE_SECONDS);
    if (!result) throw productNotFound();
    return result;
  }

  async analytics(productId: string): Promise<ProductAnalytics> {
    if (!(await this.repo.findById(productId))) throw productNotFound();
    return { productId, ...(await this.repo.analytics(productId)) };
  }

  stats(): Promise<StoreStats> {
    return this.repo.stats();
  }

  async create(dto: CreateProductDto): Promise<Product> {
    const fields = fieldsOf(dto);
    assertAffiliateConsistent({ isAffiliate: fields.isAffiliate ?? false, affiliateUrl: fields.affiliateUrl ?? null });
    return toProduct(await this.repo.insert(fields));
  }

  async update(id: string, dto: UpdateProductDto): Promise<Product> {
    const fields = fieldsOf(dto);
    const updated = await this.repo.withLockedProduct(id, async (current, manager) => {
      assertAffiliateConsistent({ ...current, ...fields });
      return this.repo.update(manager, id, fields);
    });
    if (!updated) throw productNotFound();
    return toProduct(updated);
  }

  async delete(id: string): Promise<void> {
    if (!(await this.repo.delete(id))) throw productNotFound();
  }
}

/** The fields the request actually sent (undefined means "leave as is"). */
function fieldsOf(dto: CreateProductDto | UpdateProductDto): ProductFields {
  const out: ProductFields = {};
  for (const key of ['name', 'description', 'price', 'category', 'images', 'featured', 'inStock', 'isAffiliate', 'affiliateUrl'] as const) {
    if (dto[key] !== undefined) (out as Record<string, unknown>)[key] = dto[key];
  }
  return out;
}

/** An affiliate product needs somewhere to send the buyer; the database refuses it too, but with a worse message. */
function assertAffiliateConsistent(p: Pick<ProductEntity, 'isAffiliate' | 'affiliateUrl'>) {
  if (p.isAffiliate && !p.affiliateUrl) {
    throw new AppError(400, 'affiliate_url_required', 'An affiliate product needs an https:// affiliate URL');
  }
}
