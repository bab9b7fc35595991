import { SetMetadata } from '@nestjs/common';
import type { ApiResponses } from '@beacon/contracts';

/**
 * Who may call a route, as the OpenAPI document says it: `public` (no token), `optional` (works without a token,
 * reads the user when one is sent), `user` (a bearer token) or `admin` (a bearer token of an administrator).
 */
export type RouteAccess = 'public' | 'optional' | 'user' | 'admin';

export const API_ACCESS = 'beacon:openapi-access';
export const API_RESPONSE = 'beacon:openapi-response';

/**
 * The access a route documents when a guard of its own (not the shared token guard's metadata) decides it, e.g.
 * identity's IdentityAuthGuard or incidents' RequireSignIn. The document refuses a route with a guard of its own and
 * no @ApiAccess, so such a route is never documented as public by mistake.
 */
export const ApiAccess = (access: RouteAccess) => SetMetadata(API_ACCESS, access);

/** What a route answers, as the document's builder reads it back from the handler. */
export type ResponseAnnotation =
  | { kind: 'json'; type: keyof ApiResponses; status?: number; alsoStatus?: number[] }
  | { kind: 'file'; contentType: string; status?: number }
  | { kind: 'redirect'; status: number }
  | { kind: 'empty'; status?: number };

/**
 * What a value becomes on the wire: JSON turns a Date into its ISO string; a tuple stays a tuple ([lat, lng]); a
 * primitive stays itself, also when branded (`string & {}`, as jose's JWK members are), not mapped like an object.
 */
type Json<T> = T extends Date
  ? string
  : T extends string | number | boolean | bigint | null | undefined
    ? T
    : T extends readonly [unknown, ...unknown[]]
      ? { [K in keyof T]: Json<T[K]> }
      : T extends readonly (infer U)[]
        ? Json<U>[]
        : T extends object
          ? { [P in keyof T]: Json<T[P]> }
          : T;
/** A handler's result as the client receives it. */
type Answer<M> = M extends (...args: never[]) => infer R ? Json<Awaited<R>> : never;
/**
 * Accepts the handler when what it answers is assignable to R; otherwise the compiler reports the missing member
 * `handlerReturnsTheNamedType` and shows what the handler answers.
 */
type Checked<M, R> = [Answer<M>] extends [R] ? unknown : { handlerReturnsTheNamedType: R; butAnswers: Answer<M> };

function annotate(value: ResponseAnnotation) {
  return (_target: object, _key: string | symbol, descriptor: PropertyDescriptor) => {
    Reflect.defineMetadata(API_RESPONSE, value, descriptor.value as object);
  };
}

/**
 * The JSON a route answers: a name of the wire type map `ApiResponses` (libs/contracts). The compiler checks that the
 * handler returns that type; the document's schema is generated from the same type (response-schemas.generated.ts).
 * `status` overrides the method's usual status (201 for POST, else 200, or @HttpCode's); `alsoStatus` lists other
 * success statuses with the same body (e.g. 200 for an idempotent replay of a create).
 */
export function ApiReturns<K extends keyof ApiResponses>(type: K, options: { status?: number; alsoStatus?: number[] } = {}) {
  return <M extends (...args: never[]) => unknown>(
    target: object,
    key: string | symbol,
    descriptor: TypedPropertyDescriptor<M> & Checked<M, ApiResponses[K]>,
  ) => annotate({ kind: 'json', type, ...options })(target, key, descriptor);
}

/** A route that answers a body that is not JSON (CSV, XML, an image), written to the response or returned as text. */
export function ApiFile(contentType: string, options: { status?: number } = {}) {
  return annotate({ kind: 'file', contentType, ...options });
}

/** A route that answers with a redirect (the Location header) and no body. */
export function ApiRedirect(status: 301 | 302 | 303 | 307 | 308) {
  return annotate({ kind: 'redirect', status });
}

/** A route that answers no body (204 unless @HttpCode says otherwise); the handler must return nothing. */
export function ApiNoContent() {
  return <M extends (...args: never[]) => unknown>(target: object, key: string | symbol, descriptor: TypedPropertyDescriptor<M> & Checked<M, void>) =>
    annotate({ kind: 'empty' })(target, key, descriptor);
}
