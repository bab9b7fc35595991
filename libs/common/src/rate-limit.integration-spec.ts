import { Body, Controller, INestApplication, Module, Post, Req } from '@nestjs/common';
import { IsIn } from 'class-validator';
import { Test } from '@nestjs/testing';
import type { NestExpressApplication } from '@nestjs/platform-express';
import request from 'supertest';
import { testRedisPrefix } from '@beacon/testing';
import { AllExceptionsFilter, badRequest, createValidationPipe } from './errors';
import { RateLimit, RateLimitModule } from './rate-limit';
import { RedisModule } from './redis';

class ReportDto {
  @IsIn(['accident', 'hazard', 'duplicate'], { message: 'type must be accident or hazard' }) type: string;
}

@Controller()
class LimitedController {
  /** Refused by the validation pipe (an unknown type) or by the handler itself (a duplicate): both are 400. */
  @Post('checked')
  @RateLimit('checked')
  checked(@Body() dto: ReportDto) {
    if (dto.type === 'duplicate') throw badRequest('Already reported');
    return { ok: true };
  }

  @Post('reports')
  @RateLimit('reportCreate')
  create(@Req() _req: unknown) {
    return { ok: true };
  }

  @Post('open')
  open() {
    return { ok: true };
  }
}

/** The shared limits: per user and per address through Redis, 429 with Retry-After and a code, counted across replicas. */
describe('RateLimitModule', () => {
  const ns = testRedisPrefix();
  const apps: INestApplication[] = [];

  async function replica() {
    @Module({
      imports: [
        RedisModule.forRoot(ns.url, { keyPrefix: `${ns.prefix}:` }),
        RateLimitModule.forRoot({
          service: 'test',
          rules: { reportCreate: { user: '3/60', ip: '5/60' }, checked: { user: '3/60', ip: '100/60', refused: { user: '5/60', ip: '100/60' } } },
        }),
      ],
      controllers: [LimitedController],
    })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication<NestExpressApplication>({ logger: false });
    app.set('trust proxy', 'loopback');
    app.useGlobalFilters(new AllExceptionsFilter());
    app.useGlobalPipes(createValidationPipe());
    // stands in for the auth guard: the user id comes from a header in this spec
    app.use((req: { headers: Record<string, string>; user?: { id: string } }, _res: unknown, next: () => void) => {
      if (req.headers['x-user']) req.user = { id: req.headers['x-user'] };
      next();
    });
    await app.init();
    apps.push(app);
    return app;
  }

  afterAll(async () => {
    await Promise.all(apps.map((a) => a.close()));
    await ns.cleanup();
  });

  it('limits a user across replicas and answers 429 with Retry-After and a code', async () => {
    const [a, b] = [await replica(), await replica()];
    const post = (app: INestApplication, ip: string) => request(app.getHttpServer()).post('/reports').set('x-user', 'u1').set('x-forwarded-for', ip);
    expect((await post(a, '203.0.113.1')).status).toBe(201);
    expect((await post(b, '203.0.113.2')).status).toBe(201);
    expect((await post(a, '203.0.113.3')).status).toBe(201);
    const refused = await post(b, '203.0.113.4');
    expect(refused.status).toBe(429);
    expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(refused.body.message).toMatch(/^Too many requests\. Please try again in (\d+ seconds?|1 minute)\.$/);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // another user is not affected, and a route without @RateLimit never counts
    expect((await request(a.getHttpServer()).post('/reports').set('x-user', 'u2').set('x-forwarded-for', '203.0.113.9')).status).toBe(201);
    for (let i = 0; i < 10; i++) expect((await request(a.getHttpServer()).post('/open').set('x-user', 'u1')).status).toBe(201);
  });

  it('limits one address across users', async () => {
    const app = await replica();
    const statuses: number[] = [];
    for (let i = 0; i < 6; i++) {
      statuses.push((await request(app.getHttpServer()).post('/reports').set('x-user', `ip-user-${i}`).set('x-forwarded-for', '198.51.100.7')).status);
    }
    expect(statuses).toEqual([201, 201, 201, 201, 201, 429]);
  });

  it('with a refusal ceiling, counts only accepted calls against the limit, and refusals against a ceiling of their own', async () => {
    const [a, b] = [await replica(), await replica()];
    const post = (app: INestApplication, user: string, type: string) =>
      request(app.getHttpServer()).post('/checked').set('x-user', user).set('x-forwarded-for', '192.0.2.10').send({ type });
    // four refusals (the validation pipe's and the handler's), across replicas: the limit of 3 is untouched
    for (const [app, type] of [
      [a, 'flood'],
      [b, 'duplicate'],
      [a, 'flood'],
      [b, 'duplicate'],
    ] as const)
      expect((await post(app, 'r1', type)).status).toBe(400);
    for (let i = 0; i < 3; i++) expect((await post(i % 2 ? a : b, 'r1', 'accident')).status).toBe(201);
    const overLimit = await post(a, 'r1', 'hazard');
    expect(overLimit.status).toBe(429);
    expect(overLimit.body).toMatchObject({ code: 'rate_limited' });

    // the fifth refusal reaches the ceiling: every call after it is refused with 429 and Retry-After, valid or not
    expect((await post(b, 'r2', 'flood')).status).toBe(400);
    for (let i = 0; i < 4; i++) expect((await post(a, 'r2', 'duplicate')).status).toBe(400);
    for (const type of ['flood', 'accident']) {
      const refused = await post(b, 'r2', type);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
      expect(Number(refused.headers['retry-after'])).toBeGreaterThanOrEqual(1);
      expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    }
    // another user is not affected
    expect((await post(a, 'r3', 'accident')).status).toBe(201);
  });

  it('refuses a malformed rule at boot', () => {
    expect(() => RateLimitModule.forRoot({ service: 't', rules: { x: { user: '10 per hour' } } })).toThrow('not a rate');
    expect(() => RateLimitModule.forRoot({ service: 't', rules: { x: {} } })).toThrow('limits nothing');
    expect(() => RateLimitModule.forRoot({ service: 't', rules: { x: { user: '1/1', refused: { ip: '1 an hour' } } } })).toThrow('not a rate');
    expect(() => RateLimitModule.forRoot({ service: 't', rules: { x: { user: '1/1', refused: {} } } })).toThrow('refusal ceiling that limits nothing');
  });
});
