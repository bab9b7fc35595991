import 'reflect-metadata';
import { Body, Controller, Get, Module, Param, Post, UseInterceptors } from '@nestjs/common';
import { AnyFilesInterceptor } from '@nestjs/platform-express';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { createServiceApp } from './bootstrap';
import { BaseEnv } from './env';
import { LONE_SURROGATE_MESSAGE, NUL_MESSAGE, textProblem } from './text-safety';

const NUL = '\u0000';

describe('textProblem', () => {
  const nest = (depth: number, leaf: unknown): unknown => {
    let value = leaf;
    for (let i = 0; i < depth; i++) value = i % 2 ? [value] : { k: value };
    return value;
  };

  it.each([
    ['a string', `a${NUL}b`],
    ['a key', { [`k${NUL}`]: 'v' }],
    ['an array item', ['ok', `x${NUL}`]],
    ['deep in a body (past any depth cut-off)', nest(40, NUL)],
    ['a key deep in a body', nest(100, { [NUL]: 1 })],
  ])('finds a NUL in %s', (_name, value) => {
    expect(textProblem(value)).toBe(NUL_MESSAGE);
  });

  it('walks a body nested as deep as a 100 KiB JSON body can be, without overflowing the stack', () => {
    expect(textProblem(nest(50_000, NUL))).toBe(NUL_MESSAGE);
    expect(textProblem(nest(50_000, 'clean'))).toBeUndefined();
  });

  it('passes clean values', () => {
    expect(textProblem({ a: ['b', { c: 1, d: null, e: true }] })).toBeUndefined();
    expect(textProblem(undefined)).toBeUndefined();
  });

  // PostgreSQL refuses `\ud800` in jsonb: a translation holding one answered 500.
  it.each([
    ['a high surrogate alone', 'Evacuate \ud800 now'],
    ['a low surrogate alone', 'Evacuate \udc00'],
    ['a pair in the wrong order', '\ude00\ud83d'],
    ['a high surrogate at the end', 'Flood \ud83d'],
    ['a key', { ['es\ud800']: 'v' }],
    ['a translation deep in a body', { translations: { es: { title: 'Aviso', message: ['ok', '\udfff'] } } }],
  ])('finds a lone surrogate in %s', (_name, value) => {
    expect(textProblem(value)).toBe(LONE_SURROGATE_MESSAGE);
  });

  it('passes well-formed text outside the Basic Multilingual Plane (emoji, CJK extension B)', () => {
    expect(textProblem({ title: 'Tornado 🌪️ warning', message: '𠀀 \ud83d\ude00 ⚠' })).toBeUndefined();
  });
});

/**
 * The shared bootstrap refuses NUL characters wherever a client can put them, on routes that read them and on routes
 * that do not (a service with no query parameters is no exception), before guards, interceptors or the handler act.
 */
describe('createServiceApp refuses NUL characters', () => {
  const seen: unknown[] = [];

  @Controller('things')
  class ThingsController {
    @Get()
    list() {
      seen.push('list');
      return { items: [] };
    }

    @Get(':id')
    one(@Param('id') id: string) {
      seen.push(id);
      return { id };
    }

    @Post()
    create(@Body() body: unknown) {
      seen.push(body);
      return { ok: true };
    }

    @Post('no-body')
    act() {
      seen.push('act');
      return { ok: true };
    }

    @Post('form')
    @UseInterceptors(AnyFilesInterceptor())
    form(@Body() body: unknown) {
      seen.push(body);
      return { ok: true };
    }
  }

  @Module({ controllers: [ThingsController] })
  class ThingsModule {}

  let app: NestExpressApplication;
  let base: string;

  beforeAll(async () => {
    const env = Object.assign(new BaseEnv(), { NODE_ENV: 'test', LOG_LEVEL: 'silent' });
    app = await createServiceApp({ name: 'things', envClass: BaseEnv, module: () => ThingsModule, port: () => 0, prefix: 'api/things' }, env as BaseEnv, {
      logger: false,
    });
    await app.listen(0, '127.0.0.1');
    base = `http://127.0.0.1:${(app.getHttpServer().address() as { port: number }).port}/api/things`;
  });
  afterAll(() => app.close());
  beforeEach(() => (seen.length = 0));

  const json = (body: unknown) => ({ method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) });
  const multipart = () => {
    const form = new FormData();
    form.append('caption', `Hello${NUL}`);
    return { method: 'POST', body: form };
  };
  const nested = (depth: number) => {
    let value: unknown = `x${NUL}`;
    for (let i = 0; i < depth; i++) value = { k: value };
    return value;
  };

  it.each<[string, string, RequestInit | undefined]>([
    ['a query parameter a route does not read', `/things?search=${encodeURIComponent(NUL)}`, undefined],
    ['a query key', `/things?${encodeURIComponent(`a${NUL}`)}=1`, undefined],
    ['a nested query parameter', `/things?filter[name]=${encodeURIComponent(NUL)}`, undefined],
    ['a route parameter', `/things/${encodeURIComponent(`a${NUL}`)}`, undefined],
    ['a JSON body', '/things', json({ name: `a${NUL}` })],
    ['a JSON key', '/things', json({ [`a${NUL}`]: 1 })],
    ['a JSON body nested 40 deep', '/things', json(nested(40))],
    ['a JSON body a route does not read', '/things/no-body', json({ note: NUL })],
    ['a urlencoded body', '/things', { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: `name=a%00b` }],
    ['a multipart field', '/things/form', multipart()],
  ])('%s: 400 invalid_characters, the handler never runs', async (_name, path, init) => {
    const res = await fetch(`${base}${path}`, init);
    const text = await res.text();
    expect(res.status).toBe(400);
    expect(JSON.parse(text)).toEqual({ statusCode: 400, code: 'invalid_characters', message: 'Text must not contain NUL characters' });
    expect(seen).toEqual([]);
  });

  it.each([
    ['a JSON body', '/things', { title: 'Aviso \ud800' }],
    ['a JSON key', '/things', { ['\udc00']: 1 }],
    ['a JSON body a route does not read', '/things/no-body', { note: 'x\udbff' }],
  ])('a lone surrogate in %s: 400 invalid_characters, the handler never runs', async (_name, path, body) => {
    // JSON.stringify escapes a lone surrogate as \ud800, which JSON.parse turns back into one
    expect(JSON.stringify(body)).toMatch(/\\ud[89a-f]/);
    const res = await fetch(`${base}${path}`, json(body));
    expect(res.status).toBe(400);
    expect(await res.json()).toEqual({ statusCode: 400, code: 'invalid_characters', message: LONE_SURROGATE_MESSAGE });
    expect(seen).toEqual([]);
  });

  it('lets clean text through, %-escapes that are not NUL included', async () => {
    expect((await fetch(`${base}/things?search=${encodeURIComponent('100% %2500 ok')}`)).status).toBe(200);
    expect((await fetch(`${base}/things`, json({ name: 'fine', deep: nested(0) === undefined }))).status).toBe(201);
    expect(seen).toEqual(['list', { name: 'fine', deep: false }]);
  });
});
