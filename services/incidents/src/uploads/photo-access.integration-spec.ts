import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { Harness, PHOENIX, startHarness, TestUser } from '../testing/harness';

const plainUrl = (path: string) => `/api/incidents/uploads/${path}`;

/**
 * A pending or rejected report is visible only to its reporter and admins; its photo must not be a way around
 * that. Strangers get the same 404 as for a photo that does not exist.
 */
describe('who may see an uploaded photo', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;
  let admin: TestUser;
  let jpeg: Buffer;

  beforeAll(async () => {
    h = await startHarness();
    [alice, bob, admin] = await Promise.all([h.user(), h.user(), h.user('admin')]);
    jpeg = await sharp({ create: { width: 16, height: 16, channels: 3, background: '#c03030' } })
      .jpeg()
      .toBuffer();
  });
  afterAll(() => h.close());

  async function upload(user: TestUser, bucket = 'incident-photos') {
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
    const res = await fetch(`${h.svc.url}/uploads/${bucket}`, { method: 'POST', headers: { authorization: `Bearer ${user.token}` }, body: form });
    expect(res.status).toBe(201);
    return (await res.json()) as { path: string; url: string };
  }

  async function report(user: TestUser) {
    const { path } = await upload(user);
    const res = await h.call('POST', '/incidents', {
      user,
      body: { type: 'accident', description: 'Two cars collided at the light', ...PHOENIX, photoPath: path },
    });
    expect(res.status).toBe(201);
    return { id: res.body.id as string, path, photoUrl: res.body.photoUrl as string };
  }

  /** GET of a photo URL as the API gives it (path and query), with no token unless a user is given. */
  async function fetchPhoto(url: string, user?: TestUser) {
    const res = await fetch(`${h.svc.origin}${url}`, { headers: user ? { authorization: `Bearer ${user.token}` } : {} });
    const body = Buffer.from(await res.arrayBuffer());
    return { status: res.status, body, cacheControl: res.headers.get('cache-control'), json: () => JSON.parse(body.toString()) };
  }

  const moderate = (id: string, status: string) => h.call('PATCH', `/incidents/${id}/status`, { user: admin, body: { status } });

  it('new keys carry 128 random bits: the user id and time alone find nothing', async () => {
    const { path } = await upload(alice);
    expect(path).toMatch(new RegExp(`^incident-photos/${alice.id}/\\d{13}-[0-9a-f]{32}\\.jpg$`));
    const guessed = path.replace(/-[0-9a-f]{32}\./, '.');
    for (const user of [undefined, alice, admin]) expect((await fetchPhoto(plainUrl(guessed), user)).status).toBe(404);
  });

  it("a pending report's photo: 404 to strangers and anonymous, served to the reporter and admins", async () => {
    const { id, path, photoUrl } = await report(alice);
    for (const user of [undefined, bob]) {
      const res = await fetchPhoto(plainUrl(path), user);
      expect(res.status).toBe(404);
      expect(res.json()).toMatchObject({ code: 'image_not_found' });
    }
    // with a token (API clients) ...
    for (const user of [alice, admin]) {
      const res = await fetchPhoto(plainUrl(path), user);
      expect(res.status).toBe(200);
      expect([...res.body.subarray(0, 2)]).toEqual([0xff, 0xd8]); // a JPEG
      expect(res.cacheControl).toMatch(/^private/);
    }
    // ... and through the URL the API hands them, which an <img> can load without one
    expect(photoUrl).not.toBe(plainUrl(path));
    expect((await fetchPhoto(photoUrl)).status).toBe(200);
    const queue = await h.call('GET', '/incidents/moderation-queue?limit=50', { user: admin });
    const inQueue = queue.body.items.find((i: { id: string }) => i.id === id);
    const viaQueue = await fetchPhoto(inQueue.photoUrl);
    expect(viaQueue.status).toBe(200);
    expect(viaQueue.cacheControl).toMatch(/^private/);
    expect((await fetchPhoto((await h.call('GET', `/incidents/${id}`, { user: alice })).body.photoUrl)).status).toBe(200);
  });

  it("a rejected report's photo is just as private", async () => {
    const { id, path } = await report(alice);
    expect((await moderate(id, 'rejected')).status).toBe(200);
    for (const user of [undefined, bob]) expect((await fetchPhoto(plainUrl(path), user)).status).toBe(404);
    for (const user of [alice, admin]) expect((await fetchPhoto(plainUrl(path), user)).status).toBe(200);
    const mine = await h.call('GET', `/incidents/${id}`, { user: alice });
    expect((await fetchPhoto(mine.body.photoUrl)).status).toBe(200);
  });

  it("an approved report's photo is public, and private again if the report is later rejected", async () => {
    const { id, path } = await report(alice);
    expect((await moderate(id, 'verified')).status).toBe(200);
    const seen = await h.call('GET', `/incidents/${id}`, { user: bob });
    expect(seen.body.photoUrl).toBe(plainUrl(path));
    const res = await fetchPhoto(plainUrl(path));
    expect(res.status).toBe(200);
    expect(res.cacheControl).toMatch(/^public/);
    expect((await fetchPhoto(plainUrl(path), bob)).status).toBe(200);

    expect((await moderate(id, 'rejected')).status).toBe(200);
    expect((await fetchPhoto(plainUrl(path))).status).toBe(404);
  });

  it('a signed URL only opens its own photo, and not once altered', async () => {
    const a = await report(alice);
    const b = await report(alice);
    const query = new URL(a.photoUrl, 'http://x').search;
    expect(query).toMatch(/token=/);
    expect((await fetchPhoto(`${plainUrl(b.path)}${query}`)).status).toBe(404);
    const tampered = new URL(a.photoUrl, 'http://x');
    tampered.searchParams.set('expires', String(Number(tampered.searchParams.get('expires')) + 3600));
    expect((await fetchPhoto(`${tampered.pathname}${tampered.search}`)).status).toBe(404);
    tampered.searchParams.set('token', 'A'.repeat(43));
    expect((await fetchPhoto(`${tampered.pathname}${tampered.search}`)).status).toBe(404);
  });

  it('keys made before the random part stay readable under the same rules', async () => {
    const path = `incident-photos/${alice.id}/1763800000000.jpg`;
    await mkdir(join(h.uploadsDir, 'incident-photos', alice.id), { recursive: true });
    await writeFile(join(h.uploadsDir, path), jpeg);
    const [row] = await h.db.query(
      `INSERT INTO incidents.incidents (type, description, lat, lng, photo_path, reported_by, status)
       VALUES ('accident', 'An older report with a photo', $1, $2, $3, $4, 'pending') RETURNING id`,
      [PHOENIX.lat, PHOENIX.lng, path, alice.id],
    );
    expect((await fetchPhoto(plainUrl(path))).status).toBe(404);
    expect((await fetchPhoto(plainUrl(path), alice)).status).toBe(200);
    expect((await fetchPhoto((await h.call('GET', `/incidents/${row.id}`, { user: alice })).body.photoUrl)).status).toBe(200);
    expect((await moderate(row.id, 'verified')).status).toBe(200);
    expect((await fetchPhoto(plainUrl(path))).status).toBe(200);
  });

  it("a community post's image is public once posted; before that only its uploader sees it", async () => {
    const uploaded = await upload(alice, 'community-post-photos');
    expect((await fetchPhoto(plainUrl(uploaded.path))).status).toBe(404);
    expect((await fetchPhoto(plainUrl(uploaded.path), bob)).status).toBe(404);
    expect((await fetchPhoto(uploaded.url)).status).toBe(200);
    const post = await h.call('POST', '/community/posts', {
      user: alice,
      body: {
        title: 'Pothole on Main',
        category: 'other',
        description: 'A deep pothole opened up in the right lane today.',
        ...PHOENIX,
        imagePath: uploaded.path,
      },
    });
    expect(post.status).toBe(201);
    expect(post.body.imageUrl).toBe(plainUrl(uploaded.path));
    const listed = await h.call('GET', '/community/posts');
    expect(listed.body.items.find((p: { id: string }) => p.id === post.body.id).imageUrl).toBe(plainUrl(uploaded.path));
    const res = await fetchPhoto(plainUrl(uploaded.path));
    expect(res.status).toBe(200);
    expect(res.cacheControl).toMatch(/^public/);
  });
});
