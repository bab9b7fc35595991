import { applyDecorators } from '@nestjs/common';
import { Transform, Type } from 'class-transformer';
import { ArrayMaxSize, IsArray, IsBoolean, IsIn, IsNotEmpty, IsNumber, IsString, IsUrl, Matches, Max, MaxLength, Min, ValidateIf } from 'class-validator';
import { PRODUCT_CATEGORIES, PRODUCT_LIMITS, ProductCategory, ProductInput } from '@beacon/contracts';
import { Rules } from '@beacon/common';

/*
 * Checks are grouped with @Rules(...) / applyDecorators(...) so they run in the order written: the first
 * failing one becomes the response's message, so the most basic check (type) comes first.
 */

/** The field may be left out, but null is not a value for it (it would mean nothing). */
const Omittable = () => ValidateIf((_o, value) => value !== undefined);

const trim = () => Transform(({ value }) => (typeof value === 'string' ? value.trim() : value));

/**
 * An image is either an https:// URL or a path on this site (the seeded illustrations live under
 * /api/store/images/). Anything else (http:, data:, javascript:) is refused.
 */
export const IMAGE_URL = /^(https:\/\/[^\s"'<>]+|\/[A-Za-z0-9._~\-/]+)$/;

/** Rules of the fields a new product must have; on update they are checked only when sent. */
const NameRules = () =>
  applyDecorators(
    trim(),
    IsString({ message: 'Name is required' }),
    IsNotEmpty({ message: 'Name is required' }),
    MaxLength(PRODUCT_LIMITS.nameMax, { message: `Name must be at most ${PRODUCT_LIMITS.nameMax} characters` }),
  );
const PriceRules = () =>
  applyDecorators(
    Type(() => Number),
    IsNumber({ allowNaN: false, allowInfinity: false, maxDecimalPlaces: 2 }, { message: 'Price must be an amount in dollars with at most 2 decimals' }),
    Min(0, { message: 'Price cannot be negative' }),
    Max(PRODUCT_LIMITS.priceMax, { message: `Price must be at most ${PRODUCT_LIMITS.priceMax}` }),
  );
const CategoryRules = () => IsIn(PRODUCT_CATEGORIES as unknown as string[], { message: `Category must be one of: ${PRODUCT_CATEGORIES.join(', ')}` });

/** The fields every product write may carry. Field messages are what the admin screen shows. */
abstract class ProductFieldsDto {
  @Omittable()
  @trim()
  @Rules(
    IsString({ message: 'Description must be text' }),
    MaxLength(PRODUCT_LIMITS.descriptionMax, { message: `Description must be at most ${PRODUCT_LIMITS.descriptionMax} characters` }),
  )
  description?: string;

  @Omittable()
  @Rules(
    IsArray({ message: 'Images must be a list of URLs' }),
    ArrayMaxSize(PRODUCT_LIMITS.imagesMax, { message: `A product can have at most ${PRODUCT_LIMITS.imagesMax} images` }),
    IsString({ each: true, message: 'Each image must be an https:// URL or a path on this site' }),
    MaxLength(PRODUCT_LIMITS.urlMax, { each: true, message: `Each image URL must be at most ${PRODUCT_LIMITS.urlMax} characters` }),
    Matches(IMAGE_URL, { each: true, message: 'Each image must be an https:// URL or a path on this site' }),
  )
  images?: string[];

  @Omittable()
  @IsBoolean({ message: 'featured must be true or false' })
  featured?: boolean;

  @Omittable()
  @IsBoolean({ message: 'inStock must be true or false' })
  inStock?: boolean;

  @Omittable()
  @IsBoolean({ message: 'isAffiliate must be true or false' })
  isAffiliate?: boolean;

  /** null clears it (allowed only when the product is not an affiliate product; the service checks). */
  @ValidateIf((_o, value) => value !== null && value !== undefined)
  @trim()
  @Rules(
    IsString({ message: 'Affiliate URL must be an https:// URL' }),
    MaxLength(PRODUCT_LIMITS.urlMax, { message: `Affiliate URL must be at most ${PRODUCT_LIMITS.urlMax} characters` }),
    IsUrl({ protocols: ['https'], require_protocol: true, require_tld: true }, { message: 'Affiliate URL must be an https:// URL' }),
  )
  affiliateUrl?: string | null;
}

/** POST /products (admin). */
export class CreateProductDto extends ProductFieldsDto implements ProductInput {
  @NameRules()
  name: string;

  @PriceRules()
  price: number;

  @CategoryRules()
  category: ProductCategory;
}

/** PATCH /products/:id (admin): any subset of the fields; a field that is sent is checked like on create. */
export class UpdateProductDto extends ProductFieldsDto {
  @Omittable()
  @NameRules()
  name?: string;

  @Omittable()
  @PriceRules()
  price?: number;

  @Omittable()
  @CategoryRules()
  category?: ProductCategory;
}
