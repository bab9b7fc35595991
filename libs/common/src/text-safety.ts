import { ArgumentMetadata, Injectable, PipeTransform } from '@nestjs/common';
import { AppError } from './errors';

export const NUL_MESSAGE = 'Text must not contain NUL characters';

/** True when `value` (a string, or an object or array at any depth, keys included) holds a NUL character. */
export function containsNul(value: unknown, depth = 0): boolean {
  if (typeof value === 'string') return value.includes('\u0000');
  if (depth > 32 || value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) return value.some((v) => containsNul(v, depth + 1));
  return Object.entries(value).some(([k, v]) => k.includes('\u0000') || containsNul(v, depth + 1));
}

/**
 * PostgreSQL text cannot hold U+0000: a NUL that reached a query failed it with a 500. Every body, query and route
 * parameter (JSON, form or multipart fields alike) is refused with 400 `invalid_characters` before validation.
 */
@Injectable()
export class RejectNulPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type !== 'custom' && containsNul(value)) throw new AppError(400, 'invalid_characters', NUL_MESSAGE);
    return value;
  }
}
