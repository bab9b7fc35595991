import { ArgumentMetadata, CanActivate, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from './errors';

export const NUL_MESSAGE = 'Text must not contain NUL characters';

/**
 * True when `value` (a string, or an object or array at any depth, keys included) holds a NUL character. Walked with
 * an explicit stack and no depth cut-off: a cut-off let a NUL through below it, and recursion would overflow on a
 * body nested as deep as the body limit allows.
 */
export function containsNul(value: unknown): boolean {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      if (v.includes('\u0000')) return true;
      continue;
    }
    // binary bodies (uploads, raw parsers) are bytes, not text
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) for (const item of v) pending.push(item);
    else
      for (const [k, item] of Object.entries(v)) {
        if (k.includes('\u0000')) return true;
        pending.push(item);
      }
  }
  return false;
}

const nulError = () => new AppError(400, 'invalid_characters', NUL_MESSAGE);

/**
 * PostgreSQL text cannot hold U+0000: a NUL that reached a query failed it with a 500. Installed first of all guards by
 * the shared bootstrap, so the request is refused before authentication, rate limits or a handler act on it, whether or
 * not the route reads the field: the query (keys too), the route parameters and the body as the body parsers left it.
 * A guard and not a middleware: its error goes through the service's exception filter, so identity answers in the
 * hosted auth API's shape.
 */
@Injectable()
export class RejectNulGuard implements CanActivate {
  canActivate(ctx: ExecutionContext) {
    if (ctx.getType() !== 'http') return true;
    const req = ctx.switchToHttp().getRequest<Request>();
    if (containsNul(req.query) || containsNul(req.params) || containsNul(req.body)) throw nulError();
    return true;
  }
}

/**
 * A route's own body parser (multipart) runs after the guards: its fields are checked here, as the handler receives
 * them. Custom parameters (the verified user, an uploaded file's bytes) are not client text.
 */
@Injectable()
export class RejectNulPipe implements PipeTransform {
  transform(value: unknown, metadata: ArgumentMetadata) {
    if (metadata.type !== 'custom' && containsNul(value)) throw nulError();
    return value;
  }
}
