import { createServer, Server } from 'node:http';
import { AddressInfo } from 'node:net';
import sharp from 'sharp';
import { COMMUNITY_MESSAGES, INCIDENT_MESSAGES } from '@beacon/contracts';
import { Harness, PHOENIX, startHarness, TestUser } from '../testing/harness';

/** A JPEG whose EXIF carries a GPS position, as phones write them. */
async function photoWithGps(): Promise<Buffer> {
  return sharp({ create: { width: 64, height: 48, channels: 3, background: { r: 200, g: 40, b: 40 } } })
    .jpeg()
    .withExif({
      IFD0: { Make: 'PhoneCo', Model: 'Snapper 9' },
      IFD3: { GPSLatitudeRef: 'N', GPSLatitude: '33/1 26/1 54/1', GPSLongitudeRef: 'W', GPSLongitude: '112/1 4/1 26/1' },
    })
    .toBuffer();
}

async function upload(h: Harness, bucket: string, file: Buffer | null, opts: { user?: TestUser; name?: string; type?: string; field?: string } = {}) {
  const form = new FormData();
  if (file) form.append(opts.field ?? 'file', new Blob([new Uint8Array(file)], { type: opts.type ?? 'image/jpeg' }), opts.name ?? 'photo.jpg');
  const res = await fetch(`${h.svc.url}/uploads/${bucket}`, {
    method: 'POST',
    headers: opts.user ? { authorization: `Bearer ${opts.user.token}` } : {},
    body: form,
  });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

/** Sends the multipart body as a stream with no Content-Length, so only the parser's own limit can stop it. */
async function uploadChunked(h: Harness, bucket: string, file: Buffer, user: TestUser) {
  const boundary = '----beacon-test-boundary';
  const head = Buffer.from(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.jpg"\r\nContent-Type: image/jpeg\r\n\r\n`);
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const parts = [head, file, tail];
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      const next = parts.shift();
      if (next) controller.enqueue(new Uint8Array(next));
      else controller.close();
    },
  });
  const res = await fetch(`${h.svc.url}/uploads/${bucket}`, {
    method: 'POST',
    headers: { authorization: `Bearer ${user.token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
    duplex: 'half',
  } as RequestInit);
  return { status: res.status, body: (await res.json().catch(() => undefined)) as any };
}

describe.each(['local', 's3'] as const)('photo uploads (%s storage)', (driver) => {
  let h: Harness;
  let s3: { server: Server; objects: Map<string, { body: Buffer; type: string }> } | undefined;
  let alice: TestUser;
  let bob: TestUser;

  beforeAll(async () => {
    const vars: Record<string, string> = {};
    if (driver === 's3') {
      s3 = await startS3CompatibleServer();
      vars.UPLOADS_DRIVER = 's3';
      vars.UPLOADS_S3_ENDPOINT = `http://127.0.0.1:${(s3.server.address() as AddressInfo).port}`;
      vars.UPLOADS_S3_BUCKET = 'beacon-test';
      vars.UPLOADS_S3_ACCESS_KEY_ID = 'test';
      vars.UPLOADS_S3_SECRET_ACCESS_KEY = 'test-secret';
    }
    h = await startHarness(vars);
    [alice, bob] = await Promise.all([h.user(), h.user()]);
  });
  afterAll(async () => {
    await h.close();
    await new Promise<void>((r) => (s3 ? s3.server.close(() => r()) : r()));
  });

  it('stores a photo under {userId}/{timestamp}-{random}.{ext}, serves it with nosniff and without EXIF', async () => {
    const original = await photoWithGps();
    expect((await sharp(original).metadata()).exif).toBeDefined();

    const res = await upload(h, 'incident-photos', original, { user: alice });
    expect(res.status).toBe(201);
    expect(res.body.path).toMatch(new RegExp(`^incident-photos/${alice.id}/\\d{13}-[0-9a-f]{32}\\.jpg$`));
    // not attached to a published report yet: a signed URL for the uploader's preview
    expect(res.body.url).toMatch(new RegExp(`^/api/incidents/uploads/${res.body.path}\\?expires=\\d+&token=[\\w-]{43}$`));
    if (driver === 's3') expect([...s3!.objects.keys()]).toContain(`beacon-test/${res.body.path}`);

    const served = await fetch(`${h.svc.origin}${res.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');
    expect(served.headers.get('x-content-type-options')).toBe('nosniff');
    const bytes = Buffer.from(await served.arrayBuffer());
    const meta = await sharp(bytes).metadata();
    expect(meta).toMatchObject({ format: 'jpeg', width: 64, height: 48 });
    expect(meta.exif).toBeUndefined();
    expect(bytes.includes(Buffer.from('PhoneCo'))).toBe(false);

    // and it can be attached to the uploader's own report, not to anyone else's
    const incident = await h.call('POST', '/incidents', {
      user: alice,
      body: { type: 'accident', description: 'Fender bender at the light', ...PHOENIX, photoPath: res.body.path },
    });
    expect(incident.status).toBe(201);
    expect(incident.body.photoUrl.split('?')[0]).toBe(res.body.url.split('?')[0]);
    const stolen = await h.call('POST', '/incidents', {
      user: bob,
      body: { type: 'accident', description: 'Fender bender at the light', ...PHOENIX, photoPath: res.body.path },
    });
    expect(stolen).toMatchObject({ status: 400, body: { code: 'upload_not_found' } });
    const wrongBucket = await h.call('POST', '/community/posts', {
      user: alice,
      body: { title: 'Crash on Main', category: 'other', description: 'A small crash happened at the light today.', ...PHOENIX, imagePath: res.body.path },
    });
    expect(wrongBucket).toMatchObject({ status: 400, body: { code: 'upload_not_found' } });
  });

  it('judges by content, not by name or declared type', async () => {
    const png = await sharp({ create: { width: 8, height: 8, channels: 4, background: '#00ff00' } })
      .png()
      .toBuffer();
    const res = await upload(h, 'community-post-photos', png, { user: alice, name: 'cat.gif', type: 'image/gif' });
    expect(res.status).toBe(201);
    expect(res.body.path).toMatch(/\.png$/);
    expect(res.body.contentType).toBe('image/png');
  });

  it.each([
    ['a renamed HTML file', Buffer.from('<!doctype html><html><body><script>alert(document.cookie)</script></body></html>'), 'photo.jpg', 'image/jpeg'],
    [
      'an SVG (decodable, but scriptable)',
      Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"><script>alert(1)</script><rect width="10" height="10"/></svg>'),
      'icon.png',
      'image/png',
    ],
    ['a truncated JPEG', Buffer.from([0xff, 0xd8, 0xff, 0xe0, 0x00, 0x10, 0x4a, 0x46, 0x49, 0x46, 0x00]), 'broken.jpg', 'image/jpeg'],
  ])('refuses %s', async (_what, file, name, type) => {
    const res = await upload(h, 'incident-photos', file, { user: alice, name, type });
    expect(res.status).toBe(415);
    expect(res.body).toMatchObject({ code: 'invalid_image', message: INCIDENT_MESSAGES.invalidImage });
  });

  it('refuses a 6 MB file with the spec message, by declared length and while streaming', async () => {
    const big = Buffer.alloc(6 * 1024 * 1024, 0x41);
    const declared = await upload(h, 'incident-photos', big, { user: alice });
    expect(declared.status).toBe(413);
    expect(declared.body).toMatchObject({ code: 'file_too_large', message: INCIDENT_MESSAGES.photoTooLarge });

    const streamed = await uploadChunked(h, 'incident-photos', big, alice);
    expect(streamed.status).toBe(413);
    expect(streamed.body).toMatchObject({ code: 'file_too_large', message: INCIDENT_MESSAGES.photoTooLarge });

    const community = await uploadChunked(h, 'community-post-photos', big, alice);
    expect(community.body).toMatchObject({ code: 'file_too_large', message: COMMUNITY_MESSAGES.imageTooLarge });
  });

  it('needs a signed-in user, a known bucket, and a file in the field "file"', async () => {
    const jpeg = await photoWithGps();
    expect(await upload(h, 'incident-photos', jpeg)).toMatchObject({ status: 401, body: { message: INCIDENT_MESSAGES.notAuthenticated } });
    expect((await upload(h, 'avatars', jpeg, { user: alice })).status).toBe(404);
    expect((await upload(h, 'incident-photos', null, { user: alice })).body.code).toBe('file_required');
    expect((await upload(h, 'incident-photos', jpeg, { user: alice, field: 'photo' })).body.code).toBe('unexpected_field');
  });

  it('serves nothing outside the generated key shape', async () => {
    for (const path of [`incident-photos/${alice.id}/..%2F..%2Fpackage.json`, 'incident-photos/x/1.jpg', `incident-photos/${alice.id}/1763800000000.html`]) {
      const res = await fetch(`${h.svc.origin}/api/incidents/uploads/${path}`);
      expect(res.status).toBe(404);
    }
  });
});

/**
 * Just enough of the S3 REST API (path-style PUT with If-None-Match, GET, HEAD) for the driver, as an
 * outside provider the test runs itself. Signatures are not checked.
 */
async function startS3CompatibleServer() {
  const objects = new Map<string, { body: Buffer; type: string }>();
  const server = createServer((req, res) => {
    const key = decodeURIComponent(new URL(req.url!, 'http://x').pathname.slice(1));
    if (req.method === 'PUT') {
      const chunks: Buffer[] = [];
      req.on('data', (c) => chunks.push(c));
      req.on('end', () => {
        if (req.headers['if-none-match'] === '*' && objects.has(key)) {
          res
            .writeHead(412, { 'content-type': 'application/xml' })
            .end('<Error><Code>PreconditionFailed</Code><Message>At least one of the pre-conditions you specified did not hold</Message></Error>');
          return;
        }
        objects.set(key, { body: Buffer.concat(chunks), type: String(req.headers['content-type'] ?? 'application/octet-stream') });
        res.writeHead(200, { etag: '"1"' }).end();
      });
      return;
    }
    const object = objects.get(key);
    if (!object) {
      res
        .writeHead(404, { 'content-type': 'application/xml' })
        .end(req.method === 'HEAD' ? undefined : '<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
      return;
    }
    res.writeHead(200, { 'content-type': object.type, 'content-length': object.body.length, etag: '"1"' });
    res.end(req.method === 'HEAD' ? undefined : object.body);
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return { server, objects };
}
