import { request as httpRequest, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { brotliDecompressSync, gunzipSync } from 'node:zlib';
import { loadEnv } from '@beacon/common';
import { startEdge } from './edge';
import { EdgeEnv } from './edge.env';

/**
 * The built web app (npm run build:web) as the edge serves it to a phone: the landing page's JavaScript within the
 * budget, every script compressed for a client that accepts brotli or gzip, caching that lets a release through,
 * and no source map handed out.
 */
const WEB_DIST = resolve(__dirname, '../web/dist');
const LANDING_JS_BUDGET_GZIP = 200 * 1024;

type Answer = { status: number; headers: Record<string, string | string[] | undefined>; body: Buffer };

/** A raw GET: node's fetch would decode the body and hide how it travelled. */
function get(base: string, path: string, acceptEncoding?: string): Promise<Answer> {
  return new Promise((ok, fail) => {
    const req = httpRequest(`${base}${path}`, { headers: acceptEncoding === undefined ? {} : { 'accept-encoding': acceptEncoding } }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('end', () => ok({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(chunks) }));
      res.on('error', fail);
    });
    req.on('error', fail);
    req.end();
  });
}

function decoded(answer: Answer) {
  const coding = answer.headers['content-encoding'];
  if (coding === 'br') return brotliDecompressSync(answer.body);
  if (coding === 'gzip') return gunzipSync(answer.body);
  return answer.body;
}

/** The scripts index.html makes the browser load before anything shows: the entry and what it preloads. */
function entryScripts(indexHtml: string) {
  const entries = [...indexHtml.matchAll(/<script[^>]*type="module"[^>]*src="([^"]+)"/g)].map((m) => m[1]);
  const preloads = [...indexHtml.matchAll(/<link[^>]*rel="modulepreload"[^>]*href="([^"]+)"/g)].map((m) => m[1]);
  return [...entries, ...preloads];
}

describe('edge: the built web app', () => {
  let edge: Server;
  let base: string;
  const scripts = existsSync(join(WEB_DIST, 'assets')) ? readdirSync(join(WEB_DIST, 'assets')).filter((f) => f.endsWith('.js')) : [];

  beforeAll(async () => {
    if (!existsSync(join(WEB_DIST, 'index.html'))) throw new Error(`${WEB_DIST} has no build: run npm run build:web first`);
    edge = await startEdge(loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', WEB_DIST }));
    base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    if (edge) await new Promise((r) => edge.close(r));
  });

  it(`loads the signed-out landing page with at most ${LANDING_JS_BUDGET_GZIP / 1024} KB of JavaScript, gzip, as served`, async () => {
    const page = await get(base, '/', 'gzip');
    expect(page.status).toBe(200);
    const urls = entryScripts(decoded(page).toString('utf8'));
    expect(urls.length).toBeGreaterThan(0);
    let total = 0;
    for (const url of urls) {
      const script = await get(base, url, 'gzip');
      expect(script.status).toBe(200);
      expect(script.headers['content-encoding']).toBe('gzip');
      total += script.body.length;
    }
    expect(total).toBeLessThanOrEqual(LANDING_JS_BUDGET_GZIP);
  });

  it('splits the code: the landing page does not load the admin console or the map', () => {
    const indexHtml = readFileSync(join(WEB_DIST, 'index.html'), 'utf8');
    const loaded = new Set<string>();
    // the entry and every chunk it imports statically; import() of a route's chunk happens only on that route
    const visit = (file: string) => {
      if (loaded.has(file)) return;
      loaded.add(file);
      const code = readFileSync(join(WEB_DIST, 'assets', file), 'utf8');
      for (const m of code.matchAll(/(?:\bfrom\s*|\bimport\s*)["']\.\/([^"']+\.js)["']/g)) visit(m[1]);
    };
    for (const url of entryScripts(indexHtml)) visit(url.replace('/assets/', ''));
    const names = [...loaded];
    expect(names.filter((n) => /^(admin-area|SafetyMapView|marker-shadow|HelpRequestsPage)-/.test(n))).toEqual([]);
    const code = names.map((n) => readFileSync(join(WEB_DIST, 'assets', n), 'utf8')).join('\n');
    expect({ leafletInEntry: code.includes('leaflet-container') }).toEqual({ leafletInEntry: false });
    // Vite 8's minifier writes the chunk's name as a template literal: import(`./admin-area-….js`)
    expect({ adminChunkLoadedLazily: /import\(["'`]\.\/admin-area-[^"'`]+\.js["'`]\)/.test(code) }).toEqual({ adminChunkLoadedLazily: true });
  });

  it('serves every script brotli-compressed to a client that accepts br, and the same bytes', async () => {
    expect(scripts.length).toBeGreaterThan(0);
    for (const name of scripts) {
      const original = readFileSync(join(WEB_DIST, 'assets', name));
      for (const accept of ['br', 'gzip, deflate, br', 'gzip, deflate, br, zstd']) {
        const answer = await get(base, `/assets/${name}`, accept);
        expect({ name, accept, status: answer.status, coding: answer.headers['content-encoding'] }).toEqual({ name, accept, status: 200, coding: 'br' });
        expect(answer.headers['content-type']).toMatch(/^text\/javascript|^application\/javascript/);
        expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
        // a few hundred bytes barely compress (brotli's frame can even add a few); anything real shrinks
        if (original.length >= 1024) expect(answer.body.length).toBeLessThan(original.length);
        expect(decoded(answer).equals(original)).toBe(true);
      }
    }
  });

  it('serves every script gzip-compressed to a client that accepts only gzip', async () => {
    for (const name of scripts) {
      const answer = await get(base, `/assets/${name}`, 'gzip, deflate');
      expect({ name, coding: answer.headers['content-encoding'] }).toEqual({ name, coding: 'gzip' });
      expect(decoded(answer).equals(readFileSync(join(WEB_DIST, 'assets', name)))).toBe(true);
    }
  });

  it('sends the file as it is to a client that accepts no compression, still saying it varies', async () => {
    const name = scripts[0];
    const answer = await get(base, `/assets/${name}`);
    expect(answer.headers['content-encoding']).toBeUndefined();
    expect(answer.headers.vary).toMatch(/Accept-Encoding/i);
    expect(answer.body.equals(readFileSync(join(WEB_DIST, 'assets', name)))).toBe(true);
  });

  it('caches hashed assets for a year (immutable) and revalidates index.html and the service worker every time', async () => {
    const asset = await get(base, `/assets/${scripts[0]}`, 'br');
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    for (const path of ['/', '/index.html', '/dashboard/alerts', '/push-sw.js']) {
      const answer = await get(base, path, 'br');
      expect({ path, status: answer.status, cache: answer.headers['cache-control'] }).toEqual({ path, status: 200, cache: 'no-cache' });
      expect(answer.headers['content-encoding']).toBe('br');
    }
  });

  it('never serves a source map, and no script points at one', async () => {
    const maps = readdirSync(join(WEB_DIST, 'assets')).filter((f) => f.endsWith('.map'));
    for (const name of maps) expect((await get(base, `/assets/${name}`)).status).toBe(404);
    for (const name of scripts) {
      expect(readFileSync(join(WEB_DIST, 'assets', name), 'utf8')).not.toMatch(/sourceMappingURL=/);
    }
  });

  it('answers a missing asset 404, not with the app page, and never hands out the compressed copies by name', async () => {
    const missing = await get(base, '/assets/gone-12345678.js', 'br');
    expect(missing.status).toBe(404);
    expect(String(missing.headers['content-type'])).toContain('application/json');
    expect((await get(base, `/assets/${scripts[0]}.br`)).status).toBe(404);
  });
});
