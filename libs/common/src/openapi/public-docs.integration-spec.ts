import { mkdtempSync } from 'node:fs';
import { Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chromium } from '@playwright/test';
import { compileErrors, validate } from '@readme/openapi-parser';
import { createTestDatabase, RunningService, startTestService, TestDatabase, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from '../../../../infra/databases';
import { startEdge } from '../../../../infra/edge';
import { EdgeEnv } from '../../../../infra/edge.env';
import { SERVICE_DEFINITIONS } from '../../../../infra/service-definitions';
import { loadEnv } from '../env';
import type { ErrorBody } from '../errors';
import { documentProblems } from './check';
import { OpenApiDocument } from './document';
import { routesOf } from './serve';

/** The whole system's services, each booted as main.ts boots it, behind the edge: the public entry point. */
describe('GET /api/docs through the edge', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  const services = new Map<string, RunningService<unknown>>();
  let edge: Server;
  let base: string;

  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    for (const def of SERVICE_DEFINITIONS) {
      services.set(def.name, await startTestService(def, { DATABASE_URL: db.url, REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix }));
    }
    const urls = Object.fromEntries([...services].map(([name, svc]) => [`${name.toUpperCase()}_URL`, svc.origin]));
    edge = await startEdge(loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', WEB_DIST: mkdtempSync(join(tmpdir(), 'beacon-web-')), ...urls }));
    base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((r) => edge?.close(r));
    for (const svc of services.values()) await svc.close();
    await db?.drop();
    await redis.cleanup();
  });

  it('serves one valid OpenAPI 3.1 document with every route the running services serve', async () => {
    const res = await fetch(`${base}/api/docs`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    const document = (await res.json()) as OpenApiDocument;
    expect(document.openapi).toBe('3.1.0');
    const result = await validate(structuredClone(document) as never);
    expect(result.valid ? '' : compileErrors(result)).toBe('');
    expect(result.valid).toBe(true);
    // the routes of the running applications, found by reflection on what Nest mounted
    const routes = SERVICE_DEFINITIONS.flatMap((def) => routesOf(services.get(def.name)!.app, { name: def.name, prefix: def.prefix }));
    expect(routes.length).toBeGreaterThan(90);
    expect(documentProblems(routes, document)).toEqual([]);
    expect(document.tags?.map((t) => t.name).sort()).toEqual(SERVICE_DEFINITIONS.map((d) => d.name).sort());
    // one server (the edge, relative), operationIds unique, each operation's errors by status with their codes
    expect(document.servers).toEqual([{ url: '/', description: expect.any(String) }]);
    const ids = Object.values(document.paths).flatMap((item) => Object.values(item).map((op) => op!.operationId));
    expect(new Set(ids).size).toBe(ids.length);
    expect(document.paths['/api/alerts/{id}']!.get!.responses['404'].description).toBe('Not found: alert_not_found');
  });

  it("has a reader that needs nothing from outside, within the edge's Content-Security-Policy", async () => {
    const page = await fetch(`${base}/api/docs/viewer`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toMatch(/^text\/html/);
    expect(await page.text()).not.toMatch(/https?:\/\//);
    const browser = await chromium.launch({ executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium' });
    try {
      const tab = await browser.newPage();
      const problems: string[] = [];
      tab.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
      tab.on('pageerror', (e) => problems.push(e.message));
      tab.on('request', (r) => !r.url().startsWith(base) && problems.push(`requested ${r.url()}`));
      await tab.goto(`${base}/api/docs/viewer`);
      const create = tab
        .locator('details.op', { has: tab.locator('.path', { hasText: /^\/api\/alerts$/ }) })
        .filter({ has: tab.locator('.method', { hasText: 'post' }) });
      await create.locator('summary').first().click();
      expect(await create.locator('.access').textContent()).toBe('publisher');
      await create.getByText('Request body (application/json): CreateAlertDto').waitFor({ state: 'visible' });
      await create.getByText('201 (application/json): AdminAlert').waitFor({ state: 'visible' });
      await create.getByText('422 (application/json): Cannot be processed: idempotency_key_reused').waitFor({ state: 'visible' });
      expect(await create.locator('.what').textContent()).toBe('Create an alert');
      expect(await tab.locator('h2').allTextContents()).toEqual(expect.arrayContaining(['identity', 'alerts', 'traffic']));
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
    }
  });

  it('says which service did not answer rather than serve a document without its routes', async () => {
    await services.get('traffic')!.close();
    services.delete('traffic');
    const res = await fetch(`${base}/api/docs`);
    expect(res.status).toBe(502);
    const body = (await res.json()) as ErrorBody;
    expect(body.code).toBe('service_unavailable');
    expect(body.message).toMatch(/^The traffic service did not give its API document/);
  });
});
