import { ArgumentMetadata, CanActivate, ExecutionContext, Injectable, PipeTransform } from '@nestjs/common';
import type { Request } from 'express';
import { AppError } from './errors';

export const NUL_MESSAGE = 'Text must not contain NUL characters';
export const LONE_SURROGATE_MESSAGE = 'Text must be well-formed Unicode: it contains half of a surrogate pair (such as \\ud800) without the other half';

/**
 * A surrogate standing alone: with the `u` flag a well-formed pair is one code point, so only an unpaired half matches.
 * JSON lets a client send one (`"\ud800"`), and PostgreSQL refuses it in jsonb: it answered 500.
 */
const LONE_SURROGATE = /\p{Surrogate}/u;

/** Why PostgreSQL could not store `s` as text, or undefined when it can. */
function stringProblem(s: string): string | undefined {
  if (s.includes('\u0000')) return NUL_MESSAGE;
  if (LONE_SURROGATE.test(s)) return LONE_SURROGATE_MESSAGE;
  return undefined;
}

/**
 * Why `value` (a string, or an object or array at any depth, keys included) is not text PostgreSQL can store (a NUL
 * character, a lone surrogate), or undefined. Walked with an explicit stack and no depth cut-off: a cut-off let a NUL
 * through below it, and recursion would overflow on a body nested as deep as the body limit allows.
 */
export function textProblem(value: unknown): string | undefined {
  const pending: unknown[] = [value];
  const seen = new Set<object>();
  while (pending.length) {
    const v = pending.pop();
    if (typeof v === 'string') {
      const problem = stringProblem(v);
      if (problem) return problem;
      continue;
    }
    // binary bodies (uploads, raw parsers) are bytes, not text
    if (v === null || typeof v !== 'object' || ArrayBuffer.isView(v) || seen.has(v)) continue;
    seen.add(v);
    if (Array.isArray(v)) for (const item of v) pending.push(item);
    else
      for (const [k, item] of Object.entries(v)) {
        const problem = stringProblem(k);
        if (problem) return problem;
        pending.push(item);
      }
  }
  return undefined;
}

/** Throws 400 `invalid_characters` when `value` holds text PostgreSQL could not store. */
function refuseBadText(value: unknown) {
  const problem = textProblem(value);
  if (problem) throw new AppError(400, 'invalid_characters', problem);
}

/**
 * PostgreSQL text cannot hold U+0000 nor, in jsonb, a lone surrogate: either one that reached a query failed it with a 500. Installed first of all guards by
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
    for (const part of [req.query, req.params, req.body]) refuseBadText(part);
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
    if (metadata.type !== 'custom') refuseBadText(value);
    return value;
  }
}
