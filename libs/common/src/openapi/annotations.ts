import { SetMetadata } from '@nestjs/common';
import type { ApiResponses, ErrorCode, StaffRole } from '@beacon/contracts';

/**
 * Who may call a route, as the OpenAPI document says it: `public` (no token), `optional` (works without a token,
 * reads the user when one is sent), `user` (a bearer token), or the least staff role the route needs (issue #38):
 * `viewer`, `publisher`, `approver` or `admin` (a bearer token whose app_metadata.role is that role or a higher one).
 */
export type RouteAccess = 'public' | 'optional' | 'user' | StaffRole;

export const API_ACCESS = 'beacon:openapi-access';
export const API_RESPONSE = 'beacon:openapi-response';
export const API_OPERATION = 'beacon:openapi-operation';
export const API_ERRORS = 'beacon:openapi-errors';
export const API_GUARD_ERRORS = 'beacon:openapi-guard-errors';

/** What a route is, in words: its operation in the API document. */
export interface OperationAnnotation {
  id: string;
  summary: string;
  description: string;
}

/**
 * What a route does, for the API document: a stable operationId, `<resource>.<verb>` in camelCase (e.g.
 * 'alerts.create', 'myAlerts.markRead'), unique in the whole API (the edge merges every service's document); a summary
 * of a few words; a description in sentences. The document adds who may call it. In a controller every service
 * mounts (health), `{service}` in the id stands for the service's name.
 */
export const ApiOperation = (id: string, summary: string, description: string) =>
  SetMetadata(API_OPERATION, { id, summary, description } satisfies OperationAnnotation);

/** The statuses of the errors a route can answer, besides the 5xx every route may (500, the edge's 502). */
export type ErrorStatus = 400 | 401 | 403 | 404 | 409 | 413 | 415 | 422 | 429 | 502 | 503;

/** Error codes by status: what a route, or a guard, can answer. */
export type ErrorMap = Partial<Record<ErrorStatus, readonly ErrorCode[]>>;

/** The union of error maps, each status's codes sorted and once. */
export function mergeErrors(...maps: (ErrorMap | undefined)[]): ErrorMap {
  const merged: Partial<Record<ErrorStatus, Set<ErrorCode>>> = {};
  for (const map of maps)
    for (const [status, codes] of Object.entries(map ?? {})) for (const code of codes ?? []) (merged[Number(status) as ErrorStatus] ??= new Set()).add(code);
  return Object.fromEntries(
    Object.entries(merged)
      .sort(([a], [b]) => Number(a) - Number(b))
      .map(([status, codes]) => [status, [...codes].sort()]),
  ) as ErrorMap;
}

/**
 * The errors a route's own code can answer, by status: its handler and what the handler calls (services,
 * repositories, helpers), its pipes (a ParseUUIDPipe's exceptionFactory) and interceptors. On a controller, for each
 * of its routes. Not what the shared layers add, which the document derives for every route: the token guard's
 * errors by access, validation of body and query DTOs, body parsing, the NUL check, @RateLimit, and the errors of a
 * guard of the route's own (@ApiGuardErrors). libs/common/src/openapi/route-errors.spec.ts holds every list to what
 * the code can raise, both ways.
 */
export function ApiErrors(errors: ErrorMap) {
  return (target: object, _key?: string | symbol, descriptor?: PropertyDescriptor) => {
    const on = (descriptor?.value as object | undefined) ?? target;
    Reflect.defineMetadata(API_ERRORS, mergeErrors(Reflect.getOwnMetadata(API_ERRORS, on) as ErrorMap | undefined, errors), on);
  };
}

/**
 * On a guard class: the errors it answers for the routes it guards, by their access (`user`, `admin`...): a guard
 * may refuse more on an administrators' route. The document adds them to every route the guard is on.
 */
export const ApiGuardErrors = (errors: Partial<Record<RouteAccess, ErrorMap>>) => SetMetadata(API_GUARD_ERRORS, errors);

/**
 * The access a route documents when a guard of its own (not the shared token guard's metadata) decides it, e.g.
 * identity's IdentityAuthGuard or incidents' RequireSignIn. The document refuses a route with a guard of its own and
 * no @ApiAccess, so such a route is never documented as public by mistake.
 */
export const ApiAccess = (access: RouteAccess) => SetMetadata(API_ACCESS, access);

/** What a route answers, as the document's builder reads it back from the handler. */
export type ResponseAnnotation =
  | { kind: 'json'; type: keyof ApiResponses; status?: number; failure?: { status: ErrorStatus; description: string } }
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
 * `status` overrides the method's usual status (201 for POST, else 200, or @HttpCode's): an operation has one success
 * status. `failure` is an error answered with the same body type (e.g. /ready's 503, with the checks that failed).
 */
export function ApiReturns<K extends keyof ApiResponses>(type: K, options: { status?: number; failure?: { status: ErrorStatus; description: string } } = {}) {
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
