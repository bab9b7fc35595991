import { Column, CreateDateColumn, Entity, PrimaryGeneratedColumn, UpdateDateColumn, ValueTransformer } from 'typeorm';
import type { Product, ProductCategory } from '@beacon/contracts';

/** numeric(10,2) arrives from pg as a string; the API speaks numbers. */
const money: ValueTransformer = {
  to: (value: number | null | undefined) => value,
  from: (value: string | null) => (value === null ? null : Number(value)),
};

@Entity({ schema: 'store', name: 'store_products' })
export class ProductEntity {
  @PrimaryGeneratedColumn('uuid')
  id: string;

  @Column('text')
  name: string;

  @Column('text')
  description: string;

  @Column('numeric', { precision: 10, scale: 2, transformer: money })
  price: number;

  @Column('text')
  category: ProductCategory;

  @Column('text', { array: true })
  images: string[];

  @Column('boolean')
  featured: boolean;

  @Column('boolean', { name: 'in_stock' })
  inStock: boolean;

  @Column('boolean', { name: 'is_affiliate' })
  isAffiliate: boolean;

  @Column('text', { name: 'affiliate_url', nullable: true })
  affiliateUrl: string | null;

  @Column('integer', { name: 'view_count' })
  viewCount: number;

  @CreateDateColumn({ name: 'created_at', type: 'timestamptz' })
  createdAt: Date;

  @UpdateDateColumn({ name: 'updated_at', type: 'timestamptz' })
  updatedAt: Date;
}

export function toProduct(e: ProductEntity): Product {
  return {
    id: e.id,
    name: e.name,
    description: e.description,
    price: e.price,
    category: e.category,
    images: e.images,
    featured: e.featured,
    inStock: e.inStock,
    isAffiliate: e.isAffiliate,
    affiliateUrl: e.affiliateUrl,
    viewCount: e.viewCount,
    createdAt: e.createdAt.toISOString(),
    updatedAt: e.updatedAt.toISOString(),
  };
}
