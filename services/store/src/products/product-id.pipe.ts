import { Injectable, PipeTransform } from '@nestjs/common';
import { badRequest } from '@beacon/common';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A product id in the path must be a UUID; anything else is a 400 rather than a database error. */
@Injectable()
export class ProductIdPipe implements PipeTransform<string, string> {
  transform(value: string): string {
    if (!UUID.test(value)) throw badRequest('Product id must be a UUID', 'invalid_product_id');
    return value.toLowerCase();
  }
}
