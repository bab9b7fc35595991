import 'reflect-metadata';
import { INestApplication, Type } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { ErrorCode } from '@beacon/contracts';
import { SERVICE_DEFINITIONS } from '../../../../infra/service-definitions';
import { BaseEnv, loadEnv } from '../env';
import type { ServiceDefinition } from '../bootstrap';
import { API_GUARD_ERRORS, ErrorMap, ErrorStatus, mergeErrors, RouteAccess } from './annotations';
import { asAuthApiCode, SHARED_ERRORS, TOKEN_GUARD_ERRORS } from './document';
import { DiscoveredRoute } from './routes';
import { routesOf } from './serve';
import { ErrorSite, Reach, ThrownErrors } from '../../../../scripts/openapi/thrown-errors';

/*
 * Each route documents the errors it can really answer. Its own (@ApiErrors on the handler or controller, @ApiGuardErrors
 * on a guard of its own) are held here to what the compiler finds its code can raise (scripts/openapi/thrown-errors.ts): every
 * code listed is raised somewhere the route reaches, and every code raised there is listed. The shared layers' errors,
 * which the document derives (document.ts TOKEN_GUARD_ERRORS, SHARED_ERRORS), are held to the code of those layers.
 */

/**
 * Errors the compiler finds the route's code can raise but the client never gets: caught by a catch that turns them
 * into something else (the compiler follows a catch that never rethrows, not one that rethrows some), or raised only
 * for arguments the route never passes. Each with why; a line here that no longer applies fails the spec.
 */
const NOT_ANSWERED: Record<string, { errors: string[]; why: string }> = {
  'identity RecoveryController.verifyLink': {
    errors: ['400 user_banned', '400 validation_failed', '403 otp_expired', '422 email_exists'],
    why: 'a mail link that fails to verify redirects with the error in the URL fragment; only 429 and 5xx are answered as errors',
  },
  'identity AuthController.token': {
    errors: ['422 email_exists'],
    why: 'the sign-in only updates the role of a user an ADMIN_EMAILS address names: the email, unique, does not change',
  },
  'alerts CapSourcesController.poll': {
    errors: [
      '400 nothing_to_update',
      '409 alert_not_dispatched',
      '400 type_required',
      '400 severity_priority_mismatch',
      '400 incomplete_location',
      '400 area_and_location',
      '400 revision_required',
      '409 alert_edited_elsewhere',
      '400 area_required',
      '400 area_and_everyone',
      '400 groups_and_everyone',
      '400 alert_group_not_found',
      '400 alert_too_many_groups',
    ],
    why:
      "CapIngestService.apply takes an update that changes nothing as 'ignored' and one of an alert still dispatching as 'retry'; " +
      'the alert it makes of a CAP message always has a category, never a priority, and an area rather than lat/lng; ' +
      'it updates only alerts in effect (a draft is replaced in place), naming no revision, so none is required or stale; ' +
      'it sends only a message with an area (else it keeps a draft), never asks for everyone, and an update without one keeps the old; ' +
      'a CAP message names no contact groups, so its alert and its updates target none',
  },
};

/** Where a service's sources are, for finding a route's controller by its class's name (the first match wins). */
const sourceDirs = (service: string) => [`services/${service === 'dispatcher' ? 'alerts' : service}/src`, 'libs'];

const flat = (map: ErrorMap) => Object.entries(map).flatMap(([status, codes]) => (codes ?? []).map((code) => `${status} ${code}`));

/** Each error as the client receives it, with where it is made: under /auth/v1, identity renames the shared layers' codes (asAuthApiCode). */
function answered(sites: ErrorSite[], route: DiscoveredRoute, authApi: boolean): Map<string, string[]> {
  const errors = new Map<string, string[]>();
  for (const s of sites) {
    const code = authApi && !route.outsidePrefix && s.kind !== 'AuthError' ? asAuthApiCode(s.status as ErrorStatus, s.code as ErrorCode) : s.code;
    const at = errors.get(`${s.status} ${code}`) ?? [];
    errors.set(`${s.status} ${code}`, [...at, s.at]);
  }
  return new Map([...errors].sort(([a], [b]) => a.localeCompare(b)));
}

const noUnresolved = (reach: Reach) => reach.unresolved.map((u) => `${u.at}: ${u.reason}`);

interface Described {
  service: ServiceDefinition<BaseEnv>;
  routes: DiscoveredRoute[];
}

const services: Described[] = [];
let thrown: ThrownErrors;

beforeAll(async () => {
  thrown = new ThrownErrors();
  for (const def of SERVICE_DEFINITIONS) {
    const app: INestApplication = await NestFactory.create(def.module(loadEnv(def.envClass, { NODE_ENV: 'test', LOG_LEVEL: 'silent' })), {
      preview: true,
      logger: false,
      abortOnError: false,
    });
    services.push({ service: def, routes: routesOf(app, { name: def.name, prefix: def.prefix }) });
    await app.close();
  }
});

describe('the errors each route documents', () => {
  it('are what its handler, pipes and interceptors can raise: each listed code raised, each raised code listed', () => {
    const problems: string[] = [];
    const caughtUsed = new Set<string>();
    let routes = 0;
    for (const { service, routes: found } of services) {
      for (const route of found) {
        routes++;
        const key = `${service.name} ${route.controller.name}.${route.handlerName}`;
        const reach = thrown.ofRoute(thrown.findClass(route.controller.name, sourceDirs(service.name)), route.handlerName);
        problems.push(...noUnresolved(reach).map((u) => `${key}: ${u}`));
        const caught = NOT_ANSWERED[key];
        const raisedAt = answered(reach.sites, route, service.openApiErrorType === 'AuthApiError');
        const raised = [...raisedAt.keys()];
        const listed = flat(route.errors);
        for (const error of raised) {
          if (caught?.errors.includes(error)) {
            caughtUsed.add(`${key} ${error}`);
            continue;
          }
          if (!listed.includes(error))
            problems.push(`${key}: raises ${error} (${[...new Set(raisedAt.get(error))].join(', ')}) but its @ApiErrors does not list it`);
        }
        for (const error of listed) {
          if (!raised.includes(error)) problems.push(`${key}: lists ${error} in @ApiErrors, which nothing it reaches raises`);
          if (caught?.errors.includes(error)) problems.push(`${key}: lists ${error}, which NOT_ANSWERED says it never answers`);
        }
      }
    }
    for (const [key, { errors }] of Object.entries(NOT_ANSWERED)) {
      for (const error of errors)
        if (!caughtUsed.has(`${key} ${error}`)) problems.push(`NOT_ANSWERED ${key} ${error}: the route no longer raises it; remove the line`);
    }
    expect(problems).toEqual([]);
    expect(routes).toBeGreaterThan(100);
  });

  it('include what the guards of a route’s own raise, for its access (@ApiGuardErrors)', () => {
    const guards = new Map<Type<unknown>, string>();
    for (const { service, routes } of services) for (const route of routes) for (const guard of route.guards) guards.set(guard, service.name);
    expect([...guards.keys()].map((g) => g.name).sort()).toEqual(['IdentityAuthGuard', 'SignInGuard']);
    for (const [guard, service] of guards) {
      const reach = thrown.ofMethods(thrown.findClass(guard.name, sourceDirs(service)), ['canActivate']);
      expect(noUnresolved(reach)).toEqual([]);
      const declared = Reflect.getMetadata(API_GUARD_ERRORS, guard) as Partial<Record<RouteAccess, ErrorMap>> | undefined;
      expect([guard.name, [...new Set(reach.sites.map((s) => `${s.status} ${s.code}`))].sort()]).toEqual([
        guard.name,
        flat(mergeErrors(...Object.values(declared ?? {}))),
      ]);
    }
    // identity's guard refuses a non-administrator only on the admin routes (@AdminOnly, @ApiAccess('admin'))
    const identity = services.find((s) => s.service.name === 'identity')!.routes;
    for (const route of identity.filter((r) => r.guards.length)) {
      expect([route.handlerName, route.access, flat(route.guardErrors).includes('403 not_admin')]).toEqual([
        route.handlerName,
        route.access,
        route.access === 'admin',
      ]);
    }
  });

  it('include those of the shared layers, as their code raises them', () => {
    const sites = (reach: Reach) => {
      expect(noUnresolved(reach)).toEqual([]);
      return [...new Set(reach.sites.map((s) => `${s.status} ${s.code}`))].sort();
    };
    // libs/auth's token guard: every route of a service that imports AuthModule, by access
    const tokenGuard = sites(thrown.ofMethods(thrown.findClass('AuthGuard', ['libs/auth']), ['canActivate']));
    expect(tokenGuard).toEqual(flat(mergeErrors(...Object.values(TOKEN_GUARD_ERRORS))));
    expect(flat(TOKEN_GUARD_ERRORS.public)).toEqual([]);
    for (const access of ['optional', 'user'] as const)
      expect(flat(TOKEN_GUARD_ERRORS.admin)).toEqual(expect.arrayContaining(flat(TOKEN_GUARD_ERRORS[access])));
    expect(sites(thrown.ofMethods(thrown.findClass('RejectNulGuard', ['libs/common']), ['canActivate']))).toEqual(flat(SHARED_ERRORS.text));
    expect(sites(thrown.ofMethods(thrown.findClass('RejectNulPipe', ['libs/common']), ['transform']))).toEqual(flat(SHARED_ERRORS.text));
    expect(sites(thrown.ofFunction('libs/common/src/errors.ts', 'createValidationPipe'))).toEqual(flat(SHARED_ERRORS.validation));
    expect(sites(thrown.ofMethods(thrown.findClass('RateLimitInterceptor', ['libs/common']), ['intercept']))).toEqual(flat(SHARED_ERRORS.rateLimit));
  });
});
