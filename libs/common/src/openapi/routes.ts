import { RequestMethod, Type } from '@nestjs/common';
import { GUARDS_METADATA, HTTP_CODE_METADATA, METHOD_METADATA, PATH_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants';
import { RouteParamtypes } from '@nestjs/common/enums/route-paramtypes.enum';
import { ModulesContainer } from '@nestjs/core';
import { ROLES } from '@beacon/contracts';
import { IS_PUBLIC, OPTIONAL_AUTH_METADATA, RATE_LIMIT_METADATA, ROLES_METADATA } from '../public';
import {
  API_ACCESS,
  API_ERRORS,
  API_GUARD_ERRORS,
  API_OPERATION,
  API_RESPONSE,
  ErrorMap,
  mergeErrors,
  OperationAnnotation,
  ResponseAnnotation,
  RouteAccess,
} from './annotations';

/** The provider libs/auth's AuthModule registers: the access of a route that says nothing (a token is needed). */
export const DEFAULT_ROUTE_ACCESS = 'beacon:default-route-access';

export type HttpMethod = 'get' | 'post' | 'put' | 'patch' | 'delete';

const METHODS: Partial<Record<RequestMethod, HttpMethod>> = {
  [RequestMethod.GET]: 'get',
  [RequestMethod.POST]: 'post',
  [RequestMethod.PUT]: 'put',
  [RequestMethod.PATCH]: 'patch',
  [RequestMethod.DELETE]: 'delete',
};

/** One argument of a handler that comes from the request, as Nest's @Param/@Query/@Body/@Headers/@UploadedFile record it. */
export interface RouteArgument {
  in: 'path' | 'query' | 'body' | 'header' | 'file';
  /** The field's name (@Param('id')), or undefined for the whole object (@Query() dto). */
  name?: string;
  /** The declared TypeScript type as emitted in design:paramtypes (String, Number, a DTO class...). */
  type?: Type<unknown>;
  /** Pipes given to the decorator, e.g. a ParseUUIDPipe. */
  pipes: unknown[];
}

/** One HTTP route of a running (or previewed) Nest application, found by reflection on its controllers. */
export interface DiscoveredRoute {
  controller: Type<unknown>;
  handlerName: string;
  method: HttpMethod;
  /** The path as a client calls it through the edge, in OpenAPI form: /api/alerts/{id}/send. */
  path: string;
  status: number;
  access: RouteAccess;
  /** True when the route has a guard of its own besides the shared token guard. */
  ownGuards: boolean;
  /** The classes of those guards. */
  guards: Type<unknown>[];
  /**
   * How libs/auth's token guard treats the route, where it checks every route (the service imports AuthModule): by
   * @Public, @OptionalAuth and @Roles, whatever @ApiAccess says (a guard of the route's own may ask more). Else null.
   */
  tokenGuard: RouteAccess | null;
  /** True for a route outside the service's prefix (health, ready), which keeps the shared error body. */
  outsidePrefix: boolean;
  /** True for a route with @RateLimit. */
  rateLimited: boolean;
  args: RouteArgument[];
  response?: ResponseAnnotation;
  operation?: OperationAnnotation;
  /** The errors its own code answers (@ApiErrors on the handler and its controller). */
  errors: ErrorMap;
  /** The errors its own guards answer for its access (their @ApiGuardErrors). */
  guardErrors: ErrorMap;
}

export interface RouteDiscoveryOptions {
  /** The global prefix, e.g. 'api/alerts'. */
  prefix?: string;
  /** Where a route excluded from the prefix (health, ready) is reached through the edge, e.g. '/api/alerts'. */
  unprefixedBase: string;
  /** Paths excluded from the global prefix. */
  unprefixed?: string[];
}

const ARG_KINDS: Partial<Record<RouteParamtypes, RouteArgument['in']>> = {
  [RouteParamtypes.PARAM]: 'path',
  [RouteParamtypes.QUERY]: 'query',
  [RouteParamtypes.BODY]: 'body',
  [RouteParamtypes.HEADERS]: 'header',
  [RouteParamtypes.FILE]: 'file',
};

const asArray = (v: string | string[] | undefined) => (v === undefined ? [''] : Array.isArray(v) ? v : [v]);
const trimSlashes = (s: string) => s.replace(/^\/+|\/+$/g, '');

/** Express/Nest path syntax to OpenAPI's: ':id' to '{id}'. */
function openApiPath(...parts: string[]) {
  const joined = parts.map(trimSlashes).filter(Boolean).join('/');
  return `/${joined}`.replace(/:([A-Za-z0-9_]+)/g, '{$1}');
}

/** The controllers Nest registered in the application, each once, in module order. */
export function controllersOf(container: ModulesContainer): Type<unknown>[] {
  const seen = new Set<Type<unknown>>();
  for (const module of container.values()) {
    for (const wrapper of module.controllers.values()) {
      if (wrapper.metatype) seen.add(wrapper.metatype as Type<unknown>);
    }
  }
  return [...seen];
}

/** The access a route without any metadata has: 'user' where libs/auth's global guard is installed, else 'public'. */
export function defaultAccessOf(container: ModulesContainer): RouteAccess {
  for (const module of container.values()) {
    const provider = module.providers.get(DEFAULT_ROUTE_ACCESS);
    if (provider?.instance) return provider.instance as RouteAccess;
  }
  return 'public';
}

/** getAllAndOverride, as the guards read it: the handler's metadata wins over the controller's. */
function meta<T>(key: string, handler: object, controller: object): T | undefined {
  return (Reflect.getMetadata(key, handler) as T | undefined) ?? (Reflect.getMetadata(key, controller) as T | undefined);
}

function accessOf(handler: object, controller: object, fallback: RouteAccess): RouteAccess {
  return meta<RouteAccess>(API_ACCESS, handler, controller) ?? tokenAccessOf(handler, controller, fallback);
}

/**
 * The least role of a @Roles/@MinRole list: @MinRole('publisher') lists publisher and every role above it. A list that
 * lets a plain user in documents as `user`.
 */
function leastRoleOf(roles: string[]): RouteAccess {
  const least = ROLES.find((r) => roles.includes(r));
  if (!least) throw new Error(`@Roles(${roles.join(', ')}) names no role Beacon has`);
  return least;
}

function tokenAccessOf(handler: object, controller: object, fallback: RouteAccess): RouteAccess {
  const roles = meta<string[]>(ROLES_METADATA, handler, controller);
  if (roles?.length) return leastRoleOf(roles);
  if (meta<boolean>(IS_PUBLIC, handler, controller)) return 'public';
  if (meta<boolean>(OPTIONAL_AUTH_METADATA, handler, controller)) return 'optional';
  return fallback;
}

function argumentsOf(controller: Type<unknown>, handlerName: string): RouteArgument[] {
  const recorded = (Reflect.getMetadata(ROUTE_ARGS_METADATA, controller, handlerName) ?? {}) as Record<
    string,
    { index: number; data?: unknown; pipes?: unknown[] }
  >;
  const types = (Reflect.getMetadata('design:paramtypes', controller.prototype, handlerName) ?? []) as Type<unknown>[];
  const args: (RouteArgument & { index: number })[] = [];
  for (const [key, value] of Object.entries(recorded)) {
    const kind = ARG_KINDS[Number(key.split(':')[0]) as RouteParamtypes];
    if (!kind) continue; // @Req, @Res, custom decorators (@CurrentUser)
    args.push({
      in: kind,
      name: typeof value.data === 'string' ? value.data : undefined,
      type: types[value.index],
      pipes: value.pipes ?? [],
      index: value.index,
    });
  }
  return args.sort((a, b) => a.index - b.index).map(({ index: _index, ...arg }) => arg);
}

/** Every route of every controller of the application, found by reflection (Nest's own route metadata). */
export function discoverRoutes(container: ModulesContainer, options: RouteDiscoveryOptions): DiscoveredRoute[] {
  const fallback = defaultAccessOf(container);
  const unprefixed = new Set((options.unprefixed ?? []).map(trimSlashes));
  const routes: DiscoveredRoute[] = [];
  for (const controller of controllersOf(container)) {
    const proto = controller.prototype as Record<string, unknown>;
    for (const handlerName of Object.getOwnPropertyNames(proto)) {
      if (handlerName === 'constructor') continue;
      const handler = Object.getOwnPropertyDescriptor(proto, handlerName)?.value as object | undefined;
      if (typeof handler !== 'function') continue;
      const requestMethod = Reflect.getMetadata(METHOD_METADATA, handler) as RequestMethod | undefined;
      const handlerPaths = Reflect.getMetadata(PATH_METADATA, handler) as string | string[] | undefined;
      if (requestMethod === undefined || handlerPaths === undefined) continue;
      const method = METHODS[requestMethod];
      if (!method) throw new Error(`${controller.name}.${handlerName}: HTTP method ${RequestMethod[requestMethod]} has no place in the document`);
      const guards = [
        ...((Reflect.getMetadata(GUARDS_METADATA, controller) as unknown[]) ?? []),
        ...((Reflect.getMetadata(GUARDS_METADATA, handler) as unknown[]) ?? []),
      ].map((g) => (typeof g === 'function' ? g : (g as object).constructor) as Type<unknown>);
      const access = accessOf(handler, controller, fallback);
      const guardErrors = mergeErrors(
        ...guards.map((g) => (Reflect.getMetadata(API_GUARD_ERRORS, g) as Partial<Record<RouteAccess, ErrorMap>> | undefined)?.[access]),
      );
      const errors = mergeErrors(
        Reflect.getMetadata(API_ERRORS, controller) as ErrorMap | undefined,
        Reflect.getMetadata(API_ERRORS, handler) as ErrorMap | undefined,
      );
      for (const base of asArray(Reflect.getMetadata(PATH_METADATA, controller) as string | string[] | undefined)) {
        for (const own of asArray(handlerPaths)) {
          const local = openApiPath(base, own);
          const outsidePrefix = unprefixed.has(trimSlashes(local)) || !options.prefix;
          const path = outsidePrefix ? openApiPath(options.unprefixedBase, local) : openApiPath(options.prefix!, local);
          routes.push({
            controller,
            handlerName,
            method,
            path,
            status: (Reflect.getMetadata(HTTP_CODE_METADATA, handler) as number | undefined) ?? (method === 'post' ? 201 : 200),
            access,
            ownGuards: guards.length > 0,
            guards,
            tokenGuard: fallback === 'user' ? tokenAccessOf(handler, controller, fallback) : null,
            outsidePrefix,
            rateLimited: Reflect.getMetadata(RATE_LIMIT_METADATA, handler) !== undefined,
            args: argumentsOf(controller, handlerName),
            response: Reflect.getMetadata(API_RESPONSE, handler) as ResponseAnnotation | undefined,
            operation: Reflect.getMetadata(API_OPERATION, handler) as OperationAnnotation | undefined,
            errors,
            guardErrors,
          });
        }
      }
    }
  }
  return routes;
}
