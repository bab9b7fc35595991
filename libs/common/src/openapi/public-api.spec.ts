import 'reflect-metadata';
import { Body, Controller, Get, INestApplication, Module, Param, ParseUUIDPipe, Post, Type, UseGuards } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { compileErrors, validate } from '@readme/openapi-parser';
import { IsString, MinLength } from 'class-validator';
import { SERVICE_DEFINITIONS } from '../../../../infra/service-definitions';
import type { ServiceDefinition } from '../bootstrap';
import { BaseEnv, loadEnv } from '../env';
import { ApiNoContent, ApiReturns } from './annotations';
import { documentProblems } from './check';
import { OpenApiDocument } from './document';
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
    expect(create.responses['200']).toBeDefined(); // an idempotent replay
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
    // the auth API's errors have its own shape
    expect(operation('post', '/auth/v1/token').responses.default.content?.['application/json'].schema).toEqual({ $ref: '#/components/schemas/AuthApiError' });
    expect(operation('get', '/api/store/products').responses.default.content?.['application/json'].schema).toEqual({
      $ref: '#/components/schemas/ApiErrorBody',
    });
  });

  it('marks who may call each route: bearer token, administrators only, optional or public', () => {
    expect(merged().components.securitySchemes.bearerAuth).toMatchObject({ type: 'http', scheme: 'bearer', bearerFormat: 'JWT' });
    expect(operation('post', '/api/alerts').security).toEqual([{ bearerAuth: ['admin'] }]);
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

  it('refuses a route with a guard of its own that does not say who may call it', async () => {
    const guarded = await preview(GuardedModule);
    try {
      expect(() => serviceDocumentOf(guarded, { name: 'guarded' })).toThrow(/GuardedController.read has a guard of its own but no @ApiAccess/);
    } finally {
      await guarded.close();
    }
  });
});
