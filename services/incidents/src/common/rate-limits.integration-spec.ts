import sharp from 'sharp';
import { Harness, PHOENIX, startHarness, TestUser } from '../testing/harness';

/** Every limited action, with tiny limits so the spec reaches them: 2 per user and 4 per address a minute. */
const ACTIONS = ['REPORTS', 'UPLOADS', 'POSTS', 'COMMENTS', 'LIKES'] as const;
const LIMITS = Object.fromEntries(
  ACTIONS.flatMap((a) => [
    [`INCIDENTS_RATE_${a}_USER`, '2/60'],
    [`INCIDENTS_RATE_${a}_IP`, '4/60'],
  ]),
);

describe('rate limits of the incidents service (real Redis)', () => {
  let h: Harness;
  let postId: string;
  let jpeg: Buffer;

  beforeAll(async () => {
    h = await startHarness(LIMITS);
    jpeg = await sharp({ create: { width: 8, height: 8, channels: 3, background: '#3060c0' } })
      .jpeg()
      .toBuffer();
    // made in SQL, so that setting it up counts against no limit
    const [post] = await h.db.query(
      `INSERT INTO incidents.community_posts (title, category, description, lat, lng, user_id)
       VALUES ('Flooded underpass', 'other', 'The underpass on 7th Street is flooded again.', $1, $2, gen_random_uuid()) RETURNING id`,
      [PHOENIX.lat, PHOENIX.lng],
    );
    postId = post.id;
  });
  afterAll(() => h.close());

  /** One call of each action as the web app makes it; returns status, Retry-After and body. */
  const actions: Record<string, (user: TestUser) => Promise<{ status: number; retryAfter: string | null; body: any }>> = {
    'report creation': (user) => send('POST', '/incidents', user, { type: 'accident', description: 'Two cars collided at the light', ...PHOENIX }),
    'photo upload': (user) => {
      const form = new FormData();
      form.append('file', new Blob([new Uint8Array(jpeg)], { type: 'image/jpeg' }), 'photo.jpg');
      return send('POST', '/uploads/incident-photos', user, form);
    },
    'community post': (user) =>
      send('POST', '/community/posts', user, {
        title: 'Debris on the freeway',
        category: 'other',
        description: 'A mattress is lying in the left lane of I-10.',
        ...PHOENIX,
      }),
    comment: (user) => send('POST', `/community/posts/${postId}/comments`, user, { content: 'Thanks for the heads-up!' }),
    like: (user) => send('POST', `/community/posts/${postId}/like`, user),
  };

  async function send(method: string, path: string, user: TestUser, body?: unknown) {
    const form = body instanceof FormData;
    const res = await fetch(`${h.svc.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${user.token}`, ...(body !== undefined && !form ? { 'content-type': 'application/json' } : {}) },
      body: form ? body : body !== undefined ? JSON.stringify(body) : undefined,
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json().catch(() => undefined) };
  }

  it.each(Object.keys(actions))('%s: limited per user, then per address, with 429 and Retry-After', async (name) => {
    const act = actions[name];
    const [alice, bob] = await Promise.all([h.user(), h.user()]);
    for (let i = 0; i < 2; i++) expect([200, 201]).toContain((await act(alice)).status);

    const refused = await act(alice);
    expect(refused.status).toBe(429);
    expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
    expect(Number(refused.retryAfter)).toBeLessThanOrEqual(60);
    expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
    expect(refused.body.message).toMatch(/^Too many requests\. Please try again in \d+ (second|minute)s?\.$/);

    // another user has a count of their own, but shares this address (4 calls so far, the refused one included)
    expect([200, 201]).toContain((await act(bob)).status);
    expect((await act(bob)).status).toBe(429);
  });
});

/**
 * A report refused for its input (400) is not an accepted report: ten mistakes used up the hourly budget (10/h) and
 * locked the person out for an hour. Refusals count against a ceiling of their own.
 */
describe('refused reports count apart from the report budget (real Redis)', () => {
  let h: Harness;
  beforeAll(async () => {
    h = await startHarness({
      INCIDENTS_RATE_REPORTS_USER: '10/3600',
      INCIDENTS_RATE_REPORTS_IP: '1000/3600',
      INCIDENTS_RATE_REPORTS_REFUSED_USER: '30/3600',
      INCIDENTS_RATE_REPORTS_REFUSED_IP: '1000/3600',
    });
  });
  afterAll(() => h.close());

  const valid = { type: 'accident', description: 'Two cars collided at the light', ...PHOENIX };
  const invalid = { ...valid, type: 'not-a-type' };
  const report = async (user: TestUser, body: unknown) => {
    const res = await fetch(`${h.svc.url}/incidents`, {
      method: 'POST',
      headers: { authorization: `Bearer ${user.token}`, 'content-type': 'application/json' },
      body: JSON.stringify(body),
    });
    return { status: res.status, retryAfter: res.headers.get('retry-after'), body: await res.json() };
  };
  const reportsBy = async (user: TestUser) =>
    Number((await h.db.query(`SELECT count(*) AS n FROM incidents.incidents WHERE reported_by = $1`, [user.id]))[0].n);

  it('accepts a valid report after ten refused ones, and still counts accepted reports against the budget', async () => {
    const alice = await h.user();
    for (let i = 0; i < 10; i++) expect((await report(alice, invalid)).body).toMatchObject({ statusCode: 400, code: 'validation_failed' });
    expect((await report(alice, valid)).status).toBe(201);
    for (let i = 0; i < 9; i++) expect((await report(alice, valid)).status).toBe(201);
    const over = await report(alice, valid);
    expect(over.status).toBe(429);
    expect(over.body).toMatchObject({ code: 'rate_limited' });
    expect(await reportsBy(alice)).toBe(10);
  });

  it('refuses with 429 and Retry-After once refusals reach their own ceiling, valid reports included', async () => {
    const bob = await h.user();
    for (let i = 0; i < 30; i++) expect((await report(bob, invalid)).status).toBe(400);
    for (const body of [invalid, valid]) {
      const refused = await report(bob, body);
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({ statusCode: 429, code: 'rate_limited' });
      expect(Number(refused.retryAfter)).toBeGreaterThanOrEqual(1);
      expect(Number(refused.retryAfter)).toBeLessThanOrEqual(3600);
    }
    expect(await reportsBy(bob)).toBe(0);
  });
});
