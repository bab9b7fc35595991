import 'reflect-metadata';
import { Body, Controller, Get, INestApplication, Module, Param, ParseUUIDPipe, Post, Type, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { compileErrors, validate } from '@readme/openapi-parser';
import { isErrorCode } from '@beacon/contracts';
import { IsString, MinLength } from 'class-validator';
import { SERVICE_DEFINITIONS } from '../../../../infra/service-definitions';
import type { ServiceDefinition } from '../bootstrap';
import { BaseEnv, loadEnv } from '../env';
import { ApiErrors, ApiNoContent, ApiOperation, ApiReturns } from './annotations';
import { documentProblems } from './check';
import { OpenApiDocument, OpenApiOperation, OpenApiResponse } from './document';
import { mergeDocuments } from './merge';
import { DiscoveredRoute } from './routes';
import { routesOf, serviceDocumentOf } from './serve';

/** Every service the edge routes to, as its main.ts starts it. */
const SERVICES = SERVICE_DEFINITIONS;

/** The application's modules and controllers, resolved without instantiating anything (no database, no Redis). */
async function preview(module: ReturnType<ServiceDefinition<BaseEnv>['module']> | Type<unknown>): Promise<INestApplication> {
  return NestFactory.create(module, { preview: true, logger: false, abortOnError: false });
}

interface Described {
  name: string;
  routes: DiscoveredRoute[];
  document: OpenApiDocument;
  undocumented: DiscoveredRoute[];
}

const described: Described[] = [];

beforeAll(async () => {
  for (const def of SERVICES) {
    const app = await preview(def.module(loadEnv(def.envClass, { NODE_ENV: 'test', LOG_LEVEL: 'silent' })));
    const options = { name: def.name, prefix: def.prefix, errorType: def.openApiErrorType };
    const { document, undocumented } = serviceDocumentOf(app, options);
    described.push({ name: def.name, routes: routesOf(app, options), document, undocumented });
    await app.close();
  }
});

const merged = () =>
  mergeDocuments(
    described.map((d) => ({ service: d.name, document: d.document })),
    { title: 'Beacon API', version: 'test' },
  );
const operation = (method: string, path: string) => {
  const op = merged().paths[path]?.[method];
  if (!op) throw new Error(`${method} ${path} is not documented`);
  return op;
};

describe('the public API document', () => {
  it('has every route of every controller of every service, with its parameters, body and response types', () => {
    for (const service of described) {
      expect(service.routes.length).toBeGreaterThan(0);
      expect(service.undocumented.map((r) => `${r.controller.name}.${r.handlerName}`)).toEqual([]);
      expect(documentProblems(service.routes, service.document)).toEqual([]);
    }
    // and so does the document the edge serves: one for all, merged
    expect(
      documentProblems(
        described.flatMap((d) => d.routes),
        merged(),
      ),
    ).toEqual([]);
    // the routes a browser uses most, to see the reflection found them at all
    const paths = Object.keys(merged().paths);
    expect(paths).toEqual(
      expect.arrayContaining([
        '/auth/v1/token',
        '/api/alerts',
        '/api/alerts/{id}/send',
        '/api/incidents/incidents',
        '/api/store/products',
        '/api/traffic/cameras',
      ]),
    );
    expect(paths).toEqual(expect.arrayContaining(SERVICES.map((s) => `/api/${s.name}/health`)));
  });

  it('is a valid OpenAPI 3.1 document', async () => {
    const document = merged();
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.valid).toBe(true);
    // the validator does refuse a broken one: a path parameter the operation does not declare
    const broken = structuredClone(document);
    broken.paths['/api/alerts/{id}']!.get!.parameters = [];
    expect((await validate(broken as never)).valid).toBe(false);
  });

  it('derives request schemas from the DTOs and names the response types', () => {
    const create = operation('post', '/api/alerts');
    expect(create.requestBody?.content['application/json'].schema).toEqual({ $ref: '#/components/schemas/CreateAlertDto' });
    const dto = merged().components.schemas.CreateAlertDto;
    expect(Object.keys(dto.properties ?? {})).toEqual(expect.arrayContaining(['title', 'message', 'severity']));
    expect(dto.required).toEqual(expect.arrayContaining(['title', 'message']));
    expect(create.responses['201'].content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/AdminAlert' });
    // one success status: a replay of its Idempotency-Key is told in words
    expect(Object.keys(create.responses).filter((status) => /^2/.test(status))).toEqual(['201']);
    expect(create.description).toMatch(/Idempotency-Key.*200/);
    expect(merged().components.schemas.AdminAlert.properties?.deliveryLabel).toBeDefined();
    expect(create.parameters).toContainEqual({ name: 'idempotency-key', in: 'header', required: false, schema: { type: 'string' } });

    // a query DTO becomes one parameter per field
    const mine = operation('get', '/api/alerts/me/alerts');
    expect(mine.parameters.map((p) => p.name)).toEqual(expect.arrayContaining(['page', 'pageSize', 'severity']));
    // a path parameter with its pipe's format
    expect(operation('get', '/api/alerts/{id}').parameters).toContainEqual({
      name: 'id',
      in: 'path',
      required: true,
      schema: { type: 'string', format: 'uuid' },
    });
    // non-JSON answers
    expect(Object.keys(operation('get', '/api/alerts/export.csv').responses['200'].content ?? {})).toEqual(['text/csv']);
    expect(operation('get', '/auth/v1/verify').responses['303'].headers?.Location).toBeDefined();
    expect(operation('delete', '/api/store/products/{id}').responses['204']).toEqual({ description: 'No content' });
    // uploads are multipart
    expect(Object.keys(operation('post', '/api/incidents/uploads/{bucket}').requestBody?.content ?? {})).toEqual(['multipart/form-data']);
    // the auth API's errors have its own shape, its health routes the shared one
    expect(operation('post', '/auth/v1/token').responses['400'].content?.['application/json'].schema.allOf?.[0]).toEqual({
      $ref: '#/components/schemas/AuthApiError',
    });
    expect(operation('post', '/auth/v1/token').responses.default).toEqual({ $ref: '#/components/responses/AuthUnexpectedError' });
    expect(operation('get', '/api/identity/ready').responses.default).toEqual({ $ref: '#/components/responses/UnexpectedError' });
    expect(operation('get', '/api/store/products').responses['400'].content?.['application/json'].schema.allOf?.[0]).toEqual({
      $ref: '#/components/schemas/ApiErrorBody',
    });
    expect(operation('get', '/api/store/products').responses.default).toEqual({ $ref: '#/components/responses/UnexpectedError' });
  });

  it('marks who may call each route: bearer token, the least staff role, optional or public', () => {
    expect(merged().components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    // staff routes name their least role (issue #38) and list every role they let in
    expect(operation('post', '/api/alerts')['x-beacon-access']).toBe('publisher');
    expect(operation('post', '/api/alerts').security).toEqual([{ bearerAuth: ['publisher', 'approver', 'admin'] }]);
    expect(operation('get', '/api/alerts')['x-beacon-access']).toBe('viewer');
    expect(operation('get', '/api/alerts').security).toEqual([{ bearerAuth: ['viewer', 'publisher', 'approver', 'admin'] }]);
    expect(operation('get', '/api/alerts').description).toMatch(/viewer role or a higher one/);
    expect(operation('put', '/api/alerts/admin/settings')['x-beacon-access']).toBe('admin');
    expect(operation('put', '/api/alerts/admin/settings').security).toEqual([{ bearerAuth: ['admin'] }]);
    expect(operation('post', '/api/alerts/admin/help-requests/{id}/resolve')['x-beacon-access']).toBe('publisher');
    expect(operation('delete', '/api/alerts/admin/cap-sources/{id}')['x-beacon-access']).toBe('admin');
    expect(operation('get', '/api/alerts/me/preferences').security).toEqual([{ bearerAuth: [] }]);
    expect(operation('get', '/api/incidents/community/posts').security).toEqual([{}, { bearerAuth: [] }]);
    expect(operation('get', '/api/alerts/cap/alerts.atom').security).toEqual([]);
    // guards of a service's own: identity's admin API and token guard, incidents' sign-in requirement
    expect(operation('get', '/auth/v1/admin/users')['x-beacon-access']).toBe('admin');
    expect(operation('get', '/auth/v1/user')['x-beacon-access']).toBe('user');
    expect(operation('post', '/auth/v1/token')['x-beacon-access']).toBe('public');
    expect(operation('post', '/api/incidents/community/posts')['x-beacon-access']).toBe('user');
    expect(operation('get', '/api/store/products')['x-beacon-access']).toBe('user');
    expect(operation('post', '/api/store/products')['x-beacon-access']).toBe('admin');
  });
});

const operations = () =>
  Object.entries(merged().paths).flatMap(([path, item]) => Object.entries(item).map(([method, op]) => ({ path, method, op: op as OpenApiOperation })));

/** An operation's error responses, as status: codes (the codes its body's `code` may hold). */
function errorsOf(op: OpenApiOperation): Record<string, string[]> {
  const codes = (r: OpenApiResponse) => {
    const narrowed = r.content?.['application/json'].schema.allOf?.[1]?.properties as Record<string, { enum?: string[] }> | undefined;
    return (narrowed?.error_code ?? narrowed?.code)?.enum ?? [];
  };
  return Object.fromEntries(
    Object.entries(op.responses)
      .filter(([status]) => /^[45]\d\d$/.test(status))
      .map(([status, r]) => [status, codes(r)]),
  );
}

const TOKEN_401 = ['session_revoked', 'token_expired', 'token_invalid', 'token_missing'];

describe('each operation of the public API document', () => {
  it('has a stable operationId (resource.verb), unique in the whole API, and one server: the edge', () => {
    const ids = operations().map(({ op }) => op.operationId);
    expect(ids.filter((id) => !/^[a-z][A-Za-z]*\.[a-z][A-Za-z]*$/.test(id))).toEqual([]);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    expect(operation('post', '/api/alerts').operationId).toBe('alerts.create');
    expect(operation('post', '/api/alerts/me/alerts/{id}/read').operationId).toBe('myAlerts.markRead');
    expect(operation('get', '/api/store/health').operationId).toBe('store.health');
    expect(operation('post', '/auth/v1/token').operationId).toBe('auth.token');
    expect(merged().servers).toEqual([{ url: '/', description: expect.stringMatching(/edge/) }]);
    expect(merged().tags?.filter((t) => !t.description)).toEqual([]);
  });

  it('says in words what it does, and who may call it', () => {
    for (const { op } of operations()) {
      expect([op.operationId, op.summary!.length > 3, op.summary!.includes('Controller.')]).toEqual([op.operationId, true, false]);
      expect([op.operationId, op.description]).toEqual([op.operationId, expect.stringMatching(/^[A-Z\w].{10,}\n\nAccess: \S/s)]);
    }
    expect(operation('post', '/api/alerts').summary).toBe('Create an alert');
    expect(operation('post', '/api/alerts').description).toMatch(/\n\nAccess: Staff with the publisher role or a higher one/);
    expect(operation('put', '/api/alerts/admin/settings').description).toMatch(/\n\nAccess: Administrators only/);
    expect(operation('get', '/api/traffic/cameras').description).toMatch(/\n\nAccess: No token needed\.$/);
  });

  it('lists the errors it can answer, by status and code, instead of every code there is', () => {
    // the shared token guard by access, the NUL check of the path, the handler's own
    expect(errorsOf(operation('get', '/api/alerts/{id}'))).toEqual({
      '400': ['invalid_characters'],
      '401': TOKEN_401,
      '403': ['forbidden'],
      '404': ['alert_not_found'],
      '503': ['session_check_unavailable'],
    });
    // a JSON body: validation, parsing, size; what creating an alert refuses (a stale audience preview too: issue #38); no 404
    const create = errorsOf(operation('post', '/api/alerts'));
    expect(Object.keys(create)).toEqual(['400', '401', '403', '409', '413', '422', '503']);
    expect(create['409']).toEqual(expect.arrayContaining(['audience_changed']));
    expect(create['400']).toEqual(
      expect.arrayContaining(['validation_failed', 'malformed_json', 'invalid_characters', 'invalid_idempotency_key', 'area_too_large']),
    );
    expect(create['413']).toEqual(['payload_too_large']);
    expect(create['422']).toEqual(['idempotency_key_reused']);
    // public, nothing read from the client: no error of its own
    expect(errorsOf(operation('get', '/api/traffic/cameras'))).toEqual({});
    // an optional token: refused only when one is sent and not valid
    expect(errorsOf(operation('get', '/api/incidents/community/stats'))['401']).toEqual(['session_revoked', 'token_expired', 'token_invalid']);
    // an optional token, and a sign-in guard of the route's own: no token is its 401 unauthorized, not token_missing
    expect(errorsOf(operation('post', '/api/incidents/community/posts'))['401']).toEqual(['session_revoked', 'token_expired', 'token_invalid', 'unauthorized']);
    // @RateLimit
    expect(errorsOf(operation('post', '/api/incidents/incidents'))['429']).toEqual(['rate_limited']);
    // the auth API, in its own codes: the shared layers' renamed as its filter renames them
    const token = errorsOf(operation('post', '/auth/v1/token'));
    expect(token['400']).toEqual(expect.arrayContaining(['bad_json', 'validation_failed', 'invalid_credentials', 'refresh_token_not_found']));
    expect(token['429']).toEqual(['over_request_rate_limit']);
    expect(token['401']).toBeUndefined();
    // its own guard: not_admin on the admin routes only
    expect(errorsOf(operation('get', '/auth/v1/admin/users'))['403']).toEqual(['not_admin', 'session_not_found', 'user_not_found']);
    expect(errorsOf(operation('get', '/auth/v1/user'))['403']).toEqual(['session_not_found', 'user_not_found']);
    // a failed mail link is a redirect, not an error
    expect(Object.keys(errorsOf(operation('get', '/auth/v1/verify')))).toEqual(['400', '429']);

    const all = operations().map(({ op }) => errorsOf(op));
    const codes = all.flatMap((e) => Object.values(e).flat());
    expect(codes.filter((c) => !isErrorCode(c))).toEqual([]);
    expect(Math.max(...all.flatMap((e) => Object.values(e).map((c) => c.length)))).toBeLessThan(30);
    // every operation but the probes and a few public reads answers some error of its own
    expect(all.filter((e) => Object.keys(e).length).length).toBeGreaterThan(100);
  });

  it('passes `redocly lint` (its recommended rules) with no error, one success status per operation', () => {
    const document = merged();
    for (const { path, method, op } of operations()) {
      expect([`${method.toUpperCase()} ${path}`, Object.keys(op.responses).filter((s) => /^[23]/.test(s)).length]).toEqual([
        `${method.toUpperCase()} ${path}`,
        1,
      ]);
    }
    expect(document.servers?.length).toBeGreaterThan(0);
    // the merged document, linted by Redocly's own CLI (no telemetry, no update check: nothing leaves the machine)
    const dir = mkdtempSync(join(tmpdir(), 'openapi-lint-'));
    const file = process.env.OPENAPI_DOCUMENT ?? join(dir, 'openapi.json');
    try {
      writeFileSync(file, JSON.stringify(document, null, 2));
      const cli = require.resolve('@redocly/cli/bin/cli.js');
      const run = spawnSync(process.execPath, [cli, 'lint', '--format', 'json', file], {
        encoding: 'utf8',
        env: { ...process.env, REDOCLY_TELEMETRY: 'off', REDOCLY_SUPPRESS_UPDATE_NOTICE: 'true' },
        maxBuffer: 64 * 1024 * 1024,
      });
      const report = JSON.parse(run.stdout) as { totals: { errors: number }; problems: { ruleId: string; severity: string; message: string }[] };
      expect(report.problems.filter((p) => p.severity === 'error').map((p) => `${p.ruleId}: ${p.message}`)).toEqual([]);
      expect(report.totals.errors).toBe(0);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

// ---------------------------------------------------------------- the check itself

class NoteDto {
  @IsString()
  @MinLength(3)
  text: string;
}

@Controller('notes')
class NotesController {
  @Get(':id')
  @ApiReturns('Ok')
  @ApiOperation('notes.get', 'One note', 'A note by its id.')
  @ApiErrors({ 404: ['not_found'] })
  one(@Param('id', new ParseUUIDPipe()) _id: string) {
    return { ok: true };
  }

  /** Added without saying what it answers. */
  @Post()
  add(@Body() dto: NoteDto) {
    return { ok: dto.text.length > 0 };
  }
}

@Module({ controllers: [NotesController] })
class NotesModule {}

class OwnGuard {
  canActivate() {
    return true;
  }
}

@Controller('guarded')
class GuardedController {
  @Get()
  @UseGuards(OwnGuard)
  @ApiReturns('Ok')
  read() {
    return { ok: true };
  }
}

@Module({ controllers: [GuardedController] })
class GuardedModule {}

/**
 * The compiler holds an annotation to what the handler answers (`npm run typecheck` checks specs too): each
 * @ts-expect-error below fails the type check if the mismatch it marks is ever accepted.
 */
class _AnnotationsTheCompilerRefuses {
  // @ts-expect-error: 'Ok' is { ok: boolean }, this handler answers { ok: string }
  @ApiReturns('Ok')
  wrongType() {
    return { ok: 'yes' };
  }

  // @ts-expect-error: 'AlertAudience' needs more than this handler answers
  @ApiReturns('AlertAudience')
  async missingFields() {
    return { concerned: 1, recipients: 1 };
  }

  // @ts-expect-error: a handler that answers a body is not @ApiNoContent
  @ApiNoContent()
  answersABody() {
    return { ok: true };
  }

  @ApiReturns('AlertReadReceipt')
  async datesBecomeStrings() {
    return { alertId: 'a', read: true as const, readAt: new Date() };
  }
}

describe('the document check', () => {
  let app: INestApplication;
  const options = { name: 'notes', prefix: 'api' };

  beforeAll(async () => {
    app = await preview(NotesModule);
  });
  afterAll(() => app.close());

  it('fails for a controller route the document lacks', () => {
    const routes = routesOf(app, options);
    expect(routes.map((r) => `${r.method} ${r.path}`)).toEqual(['get /api/notes/{id}', 'post /api/notes']);
    const { document, undocumented } = serviceDocumentOf(app, options);
    expect(undocumented.map((r) => r.handlerName)).toEqual(['add']);
    expect(documentProblems(routes, document)).toEqual([
      'POST /api/notes (NotesController.add) is not in the document: it has no @ApiReturns, @ApiFile, @ApiRedirect or @ApiNoContent',
    ]);
  });

  it('fails for a route whose parameters, body or response the document lacks', () => {
    const routes = routesOf(app, options);
    const { document } = serviceDocumentOf(app, options);
    const one = document.paths['/api/notes/{id}']!.get!;
    one.parameters = [];
    one.responses['200'].content = {};
    one['x-beacon-access'] = 'admin';
    expect(documentProblems(routes, document)).toEqual(
      expect.arrayContaining([
        'GET /api/notes/{id} (NotesController.one): path parameter id is not documented',
        'GET /api/notes/{id} (NotesController.one): response 200 has no schema',
        'GET /api/notes/{id} (NotesController.one): documented as admin, but it is public',
      ]),
    );
  });

  it('fails for a route without its operation in words, with two success statuses, or without an error it answers', () => {
    const routes = routesOf(app, options);
    const { document } = serviceDocumentOf(app, options);
    const one = document.paths['/api/notes/{id}']!.get!;
    expect(one.operationId).toBe('notes.get');
    expect(Object.keys(one.responses)).toEqual(['200', '400', '404', 'default']);
    delete one.responses['404'];
    one.responses['202'] = one.responses['200'];
    const bare = routes.map((r) => (r.handlerName === 'one' ? { ...r, operation: undefined } : r));
    expect(documentProblems(bare, document)).toEqual(
      expect.arrayContaining([
        'GET /api/notes/{id} (NotesController.one): 2 success responses are documented (200, 202): one is',
        'GET /api/notes/{id} (NotesController.one): it has no @ApiOperation (operationId, summary, description)',
        'GET /api/notes/{id} (NotesController.one): its 404 errors are not documented',
      ]),
    );
  });

  it('refuses a route with a guard of its own that does not say who may call it', async () => {
    const guarded = await preview(GuardedModule);
    try {
      expect(() => serviceDocumentOf(guarded, { name: 'guarded' })).toThrow(/GuardedController.read has a guard of its own but no @ApiAccess/);
    } finally {
      await guarded.close();
    }
  });
});
