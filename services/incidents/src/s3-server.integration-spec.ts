import { GetObjectCommand, HeadObjectCommand, S3Client } from '@aws-sdk/client-s3';
import sharp from 'sharp';
import { TestS3Server } from '@beacon/testing';
import { Harness, startHarness, TestUser } from './testing/harness';

jest.setTimeout(60_000);

async function photo(): Promise<Buffer> {
  return sharp({ create: { width: 40, height: 30, channels: 3, background: { r: 20, g: 90, b: 200 } } })
    .jpeg()
    .toBuffer();
}

async function upload(h: Harness, user: TestUser, file: Buffer) {
  const form = new FormData();
  form.append('file', new Blob([new Uint8Array(file)], { type: 'image/jpeg' }), 'photo.jpg');
  const res = await fetch(`${h.svc.url}/uploads/incident-photos`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
  return { status: res.status, body: (await res.json().catch(() => undefined)) as { path: string; url: string } };
}

/**
 * The S3 upload driver against an S3-compatible server that checks every request's AWS signature (S3rver, from the
 * npm registry; see docs/deploy.md for why not MinIO): an upload is stored under its key in the bucket, read back
 * through the service's signed photo URL (photos of unpublished reports are served by the service, never by a
 * presigned S3 URL), refused by the server under a wrong secret, and kept across a restart of the server; while the
 * server is down an upload fails with an error (never a 201 for a photo that was not stored).
 */
describe('uploads on an S3-compatible server', () => {
  const s3 = new TestS3Server();
  let h: Harness;
  let alice: TestUser;
  const client = (secretAccessKey: string) =>
    new S3Client({
      endpoint: s3.endpoint,
      region: 'us-east-1',
      forcePathStyle: true,
      credentials: { accessKeyId: s3.accessKeyId, secretAccessKey },
    });

  beforeAll(async () => {
    await s3.start();
    h = await startHarness(s3.vars);
    alice = await h.user();
  });
  afterAll(async () => {
    await h?.close();
    await s3.close();
  });

  it('stores, serves, survives a restart of the server, and never reports a photo it could not store', async () => {
    const first = await upload(h, alice, await photo());
    expect(first.status).toBe(201);
    const direct = client(s3.secretAccessKey);
    try {
      const head = await direct.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: first.body.path }));
      expect(head.ContentType).toBe('image/jpeg');
      const body = await (await direct.send(new GetObjectCommand({ Bucket: s3.bucket, Key: first.body.path }))).Body!.transformToByteArray();
      expect((await sharp(Buffer.from(body)).metadata()).format).toBe('jpeg');
    } finally {
      direct.destroy();
    }
    const served = await fetch(`${h.svc.origin}${first.body.url}`);
    expect(served.status).toBe(200);
    expect(served.headers.get('content-type')).toBe('image/jpeg');

    // the server really checks signatures: the same request under a wrong secret is refused
    const forged = client('not-the-secret');
    try {
      await expect(forged.send(new HeadObjectCommand({ Bucket: s3.bucket, Key: first.body.path }))).rejects.toMatchObject({
        $metadata: { httpStatusCode: 403 },
      });
    } finally {
      forged.destroy();
    }

    // down: an upload is refused with a server error, not acknowledged
    await s3.stop();
    const during = await upload(h, alice, await photo());
    expect(during.status).toBeGreaterThanOrEqual(500);

    // back on the same port and data: the first photo is still served, and uploads work again
    await s3.start();
    const again = await fetch(`${h.svc.origin}${first.body.url}`);
    expect(again.status).toBe(200);
    expect(Buffer.from(await again.arrayBuffer()).length).toBeGreaterThan(0);
    const second = await upload(h, alice, await photo());
    expect(second.status).toBe(201);
    expect((await fetch(`${h.svc.origin}${second.body.url}`)).status).toBe(200);
  });
});
