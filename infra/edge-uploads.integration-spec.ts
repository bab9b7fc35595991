import { AddressInfo } from 'node:net';
import { Server } from 'node:http';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import sharp from 'sharp';
import { loadEnv } from '@beacon/common';
import { BODY_LIMITS, INCIDENT_LIMITS } from '@beacon/contracts';
import { createTestDatabase, RunningService, startTestIdentity, startTestService, TestDatabase, TestIdentity, testRedisPrefix } from '@beacon/testing';
import { DATABASES } from './databases';
import { startEdge } from './edge';
import { EdgeEnv } from './edge.env';
import { SERVICE_DEFINITIONS } from './service-definitions';

/**
 * Uploads through the edge to the real incidents service. A service that refuses an upload answers 413 and closes
 * while the client is still sending; the edge used to report that reachable service as down (502), often, not always.
 * So every oversize case is repeated, and the sizes go from far over the limit to one byte over it (a body the edge
 * itself cannot tell from an acceptable one, which only the service refuses).
 */
describe('uploads through the edge (real incidents service)', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  let identity: TestIdentity;
  let incidents: RunningService<unknown>;
  let identityService: RunningService<unknown>;
  let edge: Server;
  let base: string;
  let token: string;

  beforeAll(async () => {
    db = await createTestDatabase(DATABASES);
    identity = await startTestIdentity();
    const def = SERVICE_DEFINITIONS.find((d) => d.name === 'incidents')!;
    incidents = await startTestService(def, {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWKS_URL: identity.jwksUrl,
      UPLOADS_DIR: mkdtempSync(join(tmpdir(), 'beacon-edge-uploads-')),
      TRUSTED_PROXY: 'loopback',
      INCIDENTS_RATE_UPLOADS_USER: '1000/3600',
      INCIDENTS_RATE_UPLOADS_IP: '1000/3600',
    });
    identityService = await startTestService(
      SERVICE_DEFINITIONS.find((d) => d.name === 'identity')!,
      {
        DATABASE_URL: db.url,
        REDIS_URL: redis.url,
        REDIS_PREFIX: redis.prefix,
        TRUSTED_PROXY: 'loopback',
      },
    );
    edge = await startEdge(loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', INCIDENTS_URL: incidents.origin, IDENTITY_URL: identityService.origin }));
    base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}/api/incidents`;
    token = await identity.token();
  });
  afterAll(async () => {
    await new Promise((r) => edge.close(r));
    await incidents.close();
    await identityService.close();
    await identity.close();
    await db.drop();
    await redis.cleanup();
  });

  const auth = () => ({ authorization: `Bearer ${token}` });
  const form = (file: Uint8Array) => {
    const body = new FormData();
    body.append('file', new Blob([file], { type: 'image/jpeg' }), 'photo.jpg');
    return body;
  };
  /** The same multipart body, streamed with no Content-Length: only counting can stop it. */
  const streamed = (file: Uint8Array) => {
    const boundary = '----beacon-edge-boundary';
    const parts = [
      Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="photo.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`),
      ...Array.from({ length: Math.ceil(file.length / 65536) }, (_, i) => file.subarray(i * 65536, (i + 1) * 65536)),
      Buffer.from(`\r\n--${boundary}--\r\n`),
    ];
    return {
      method: 'POST',
      duplex: 'half',
      headers: { ...auth(), 'content-type': `multipart/form-data; boundary=${boundary}` },
      body: new ReadableStream<Uint8Array>({
        pull(c) {
          const next = parts.shift();
          if (next) c.enqueue(new Uint8Array(next));
          else c.close();
        },
      }),
    } as RequestInit;
  };
  const answer = async (res: Response) => ({ status: res.status, body: (await res.json().catch(() => undefined)) as any });
  const TOO_LARGE = { statusCode: 413, code: 'file_too_large', message: 'Photo must be less than 5MB' };

  const sizes: [string, number][] = [
    ['6 MB', 6 * 1024 * 1024],
    ["one byte over the photo limit, within the edge's envelope allowance", INCIDENT_LIMITS.photoMaxBytes + 1],
    ["just under the edge's body limit", BODY_LIMITS.uploadBytes - 1024],
  ];

  it.each(sizes)("an upload of %s with a declared length: 413 with the service's body, every time", async (_name, size) => {
    const file = new Uint8Array(size);
    for (let i = 0; i < 8; i++) {
      expect(await answer(await fetch(`${base}/uploads/incident-photos`, { method: 'POST', headers: auth(), body: form(file) }))).toEqual({
        status: 413,
        body: TOO_LARGE,
      });
    }
  });

  it.each(sizes)("an upload of %s sent chunked: 413 with the service's body, every time", async (_name, size) => {
    const file = new Uint8Array(size);
    for (let i = 0; i < 5; i++) {
      expect(await answer(await fetch(`${base}/uploads/incident-photos`, streamed(file)))).toEqual({ status: 413, body: TOO_LARGE });
    }
  });

  // the 502s came under load: several large uploads at once, the service refusing each before reading it
  it("several oversize uploads at once, round after round: every one 413 with the service's body, never 502", async () => {
    const file = new Uint8Array(8 * 1024 * 1024);
    for (let round = 0; round < 6; round++) {
      const answers = await Promise.all(
        [0, 1, 2].flatMap(() => [
          fetch(`${base}/uploads/incident-photos`, { method: 'POST', headers: auth(), body: form(file) }).then(answer),
          fetch(`${base}/uploads/incident-photos`, streamed(file)).then(answer),
        ]),
      );
      expect(answers).toEqual(Array(6).fill({ status: 413, body: TOO_LARGE }));
    }
  });

  it("names the bucket's own limit (community photos)", async () => {
    const res = await answer(
      await fetch(`${base}/uploads/community-post-photos`, { method: 'POST', headers: auth(), body: form(new Uint8Array(INCIDENT_LIMITS.photoMaxBytes + 1)) }),
    );
    expect(res).toEqual({ status: 413, body: { statusCode: 413, code: 'file_too_large', message: 'Image must be less than 5MB' } });
  });

  it("an oversize JSON body: the service's 413", async () => {
    const res = await fetch(`${base}/incidents`, {
      method: 'POST',
      headers: { ...auth(), 'content-type': 'application/json' },
      body: JSON.stringify({ description: 'x'.repeat(BODY_LIMITS.jsonBytes) }),
    });
    expect(await answer(res)).toEqual({ status: 413, body: { statusCode: 413, code: 'payload_too_large', message: 'The request body is too large' } });
  });

  it.each([
    ['the default error shape', {}, { code: 413, error_code: 'validation_failed', msg: 'The request body is too large' }],
    ['the 2024-01-01 error shape', { 'x-supabase-api-version': '2024-01-01' }, { code: 'validation_failed', message: 'The request body is too large' }],
  ])("an oversize JSON body to identity: identity's own 413 in %s, every time", async (_name, headers, body) => {
    const payload = JSON.stringify({ email: 'big@example.test', password: 'a-long-password-1', data: { blob: 'x'.repeat(2 * 1024 * 1024) } });
    for (let i = 0; i < 8; i++) {
      const url = `${base.replace('/api/incidents', '')}/auth/v1/signup`;
      const res = await fetch(url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: payload });
      expect(await answer(res)).toEqual({ status: 413, body });
      const chunks = [payload.slice(0, payload.length / 2), payload.slice(payload.length / 2)];
      const streamedJson = await fetch(url, {
        method: 'POST',
        duplex: 'half',
        headers: { ...headers, 'content-type': 'application/json' },
        body: new ReadableStream<Uint8Array>({
          pull(c) {
            const next = chunks.shift();
            if (next) c.enqueue(new TextEncoder().encode(next));
            else c.close();
          },
        }),
      } as RequestInit);
      expect(await answer(streamedJson)).toEqual({ status: 413, body });
    }
  });

  it('a normal photo still goes through, declared or chunked, after all those refusals', async () => {
    const photo = await sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 20, g: 120, b: 200 } } })
      .jpeg()
      .toBuffer();
    const declared = await answer(await fetch(`${base}/uploads/incident-photos`, { method: 'POST', headers: auth(), body: form(new Uint8Array(photo)) }));
    expect(declared.status).toBe(201);
    expect(declared.body.path).toMatch(/^incident-photos\//);
    const chunked = await answer(await fetch(`${base}/uploads/incident-photos`, streamed(new Uint8Array(photo))));
    expect(chunked.status).toBe(201);
  });
});
