import { Type } from 'class-transformer';
import { IsBoolean, IsIn, IsInt, IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';
import {
  PRODUCT_CATEGORIES,
  PRODUCT_LIMITS,
  PRODUCT_SORTS,
  ProductCategory,
  ProductSort,
  STORE_FEATURED_FETCH,
  STORE_MAX_PAGE_SIZE,
  STORE_PAGE_SIZE,
} from '@beacon/contracts';
import { QueryInt, Rules } from '@beacon/common';
import { BooleanQuery } from './boolean-query';

/** An optional price filter: a number from 0 to the catalogue's highest price, each rule with its own message. */
function PriceBound(): PropertyDecorator {
  return (target, key) => {
    const name = String(key);
    Rules(
      IsOptional(),
      Type(() => Number),
      IsNumber({ allowNaN: false, allowInfinity: false }, { message: `${name} must be a number` }),
      Min(0, { message: `${name} must be 0 or more` }),
      Max(PRODUCT_LIMITS.priceMax, { message: `${name} must be at most ${PRODUCT_LIMITS.priceMax}` }),
    )(target, key);
  };
}

/** GET /products: the spec's store filter object plus a price range. */
export class ListProductsQuery {
  @IsOptional()
  @Rules(IsString({ message: 'search must be text' }), MaxLength(100, { message: 'search must be at most 100 characters' }))
  search?: string;

  @IsOptional()
  @IsIn(PRODUCT_CATEGORIES as unknown as string[], { message: `category must be one of: ${PRODUCT_CATEGORIES.join(', ')}` })
  category?: ProductCategory;

  @IsOptional()
  @IsIn(PRODUCT_SORTS as unknown as string[], { message: `sortBy must be one of: ${PRODUCT_SORTS.join(', ')}` })
  sortBy: ProductSort = 'featured';

  @QueryInt(1, STORE_MAX_PAGE_SIZE)
  limit: number = STORE_PAGE_SIZE;

  @IsOptional()
  @Type(() => Number)
  @Rules(IsInt({ message: 'offset must be a whole number of 0 or more' }), Min(0, { message: 'offset must be a whole number of 0 or more' }))
  offset: number = 0;

  @IsOptional()
  @BooleanQuery()
  @IsBoolean({ message: 'inStockOnly must be true or false' })
  inStockOnly?: boolean;

  @IsOptional()
  @BooleanQuery()
  @IsBoolean({ message: 'featuredOnly must be true or false' })
  featuredOnly?: boolean;

  @PriceBound()
  minPrice?: number;

  @PriceBound()
  maxPrice?: number;
}

export class FeaturedProductsQuery {
  @QueryInt(1, STORE_MAX_PAGE_SIZE)
  limit: number = STORE_FEATURED_FETCH;
}
