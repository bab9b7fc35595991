import { createServer } from 'node:http';
import { AddressInfo } from 'node:net';
import Redis from 'ioredis';
import { Server } from 'socket.io';
import { createAdapter } from '@socket.io/redis-adapter';
import { io as connect, Socket } from 'socket.io-client';
import { Queue } from 'bullmq';
import {
  COMMUNITY_MESSAGES,
  CommunityCommentEvent,
  CommunityPostEvent,
  JobName,
  levelFor,
  queuePrefix,
  QueueName,
  Rooms,
  socketIoKey,
} from '@beacon/contracts';
import { eventually, Harness, north, PHOENIX, startHarness, TestUser } from '../testing/harness';

const post = (over: Record<string, unknown> = {}) => ({
  title: 'Wrong-way driver on Loop 101',
  category: 'wrong-way-driver',
  description: 'Saw a sedan heading south in the northbound lanes near exit 34 around 11 pm.',
  ...PHOENIX,
  locationName: 'Loop 101 exit 34',
  ...over,
});

describe('community API (real database)', () => {
  let h: Harness;
  let alice: TestUser;
  let bob: TestUser;

  const pointsOf = async (user: TestUser) => (await h.call('GET', '/community/points/me', { user })).body;
  const waitForPoints = (user: TestUser, expected: number) =>
    eventually(async () => {
      const p = await pointsOf(user);
      return p.points === expected ? p : undefined;
    }, `${expected} points`);

  beforeAll(async () => {
    h = await startHarness();
    [alice, bob] = await Promise.all([h.user(), h.user()]);
  });
  afterAll(() => h.close());

  describe('validation and sign-in', () => {
    it.each([
      ['short title', { title: 'Hey' }, COMMUNITY_MESSAGES.titleMin],
      ['no title', { title: undefined }, COMMUNITY_MESSAGES.titleMin],
      ['101-character title', { title: 't'.repeat(101) }, COMMUNITY_MESSAGES.titleMax],
      ['no category', { category: undefined }, COMMUNITY_MESSAGES.categoryRequired],
      ['unknown category', { category: 'gossip' }, COMMUNITY_MESSAGES.categoryRequired],
      ['short description', { description: 'Too short to help.' }, COMMUNITY_MESSAGES.descriptionMin],
      ['1001-character description', { description: 'd'.repeat(1001) }, COMMUNITY_MESSAGES.descriptionMax],
      ['no latitude', { lat: undefined }, COMMUNITY_MESSAGES.locationRequired],
      ['null longitude', { lng: null }, COMMUNITY_MESSAGES.locationRequired],
    ])('%s is refused with the spec message', async (_case, over, message) => {
      const res = await h.call('POST', '/community/posts', { user: alice, body: post(over) });
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ code: 'validation_failed', message });
    });

    it('refuses server-owned fields', async () => {
      for (const extra of [{ userId: bob.id }, { status: 'active' }, { likesCount: 100 }]) {
        expect((await h.call('POST', '/community/posts', { user: alice, body: post(extra) })).status).toBe(400);
      }
    });

    it('says how to sign in, before looking at the body', async () => {
      expect(await h.call('POST', '/community/posts', { body: {} })).toMatchObject({ status: 401, body: { message: COMMUNITY_MESSAGES.signInToPost } });
      expect(await h.call('POST', '/community/posts/00000000-0000-4000-8000-000000000000/like')).toMatchObject({
        status: 401,
        body: { message: COMMUNITY_MESSAGES.signInToLike },
      });
      expect((await h.call('POST', '/community/posts', { body: post(), user: { ...alice, token: 'forged' } })).status).toBe(401);
    });
  });

  describe('points and levels', () => {
    it("shows 'New Member' with 0 points before any record", async () => {
      const newbie = await h.user();
      expect(await pointsOf(newbie)).toEqual({ points: 0, level: 1, levelName: 'New Member', nextLevelAt: 51, progress: 0, hasRecord: false });
    });

    it('5 for a post, 2 for a comment, 1 for a like received, none for liking your own post; unliking takes it back', async () => {
      const author = await h.user();
      const fan = await h.user();
      const created = await h.call('POST', '/community/posts', { user: author, body: post() });
      expect(created.status).toBe(201);
      expect(created.body).toMatchObject({ userId: author.id, status: 'active', likesCount: 0, commentsCount: 0, userEmail: '', mine: true });
      await waitForPoints(author, 5);

      // own like: counted, but no point
      expect((await h.call('POST', `/community/posts/${created.body.id}/like`, { user: author })).body).toEqual({
        postId: created.body.id,
        liked: true,
        likesCount: 1,
      });
      await h.call('POST', `/community/posts/${created.body.id}/comments`, { user: author, body: { content: 'Update: police have closed the ramp.' } });
      await waitForPoints(author, 7);

      // a fan's like gives the author 1, the fan's comment gives the fan 2
      await h.call('POST', `/community/posts/${created.body.id}/like`, { user: fan });
      await waitForPoints(author, 8);
      await h.call('POST', `/community/posts/${created.body.id}/comments`, { user: fan, body: { content: 'Thanks for the warning!' } });
      await waitForPoints(fan, 2);

      // unlike, like, unlike: converges to no like point
      for (let i = 0; i < 3; i++) await h.call('POST', `/community/posts/${created.body.id}/like`, { user: fan });
      await h.settled();
      expect((await pointsOf(author)).points).toBe(7);
      const [{ n }] = await h.db.query(`SELECT count(*)::int AS n FROM incidents.points_awards WHERE user_id = $1`, [author.id]);
      expect(n).toBe(2); // the post and the comment
    });

    it('replaying an event never awards twice', async () => {
      const author = await h.user();
      const { body } = await h.call('POST', '/community/posts', { user: author, body: post({ title: 'Replay check post' }) });
      await waitForPoints(author, 5);
      const connection = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379', { maxRetriesPerRequest: null });
      const queue = new Queue(QueueName.IncidentsInbox, { connection, prefix: queuePrefix(h.redisPrefix) });
      try {
        const replay = await queue.add(JobName.PostCreated, { postId: body.id, userId: author.id });
        await eventually(async () => ((await replay.isCompleted()) ? true : undefined), 'the replayed event to be processed');
        expect((await pointsOf(author)).points).toBe(5);
      } finally {
        await queue.close();
        connection.disconnect();
      }
    });

    it('levels follow the thresholds', async () => {
      expect(levelFor(50)).toMatchObject({ level: 1, levelName: 'Newcomer', nextLevelAt: 51 });
      expect(levelFor(51)).toMatchObject({ level: 2, levelName: 'Regular', nextLevelAt: 201, progress: 0 });
      expect(levelFor(200)).toMatchObject({ level: 2, levelName: 'Regular' });
      expect(levelFor(201)).toMatchObject({ level: 3, levelName: 'Contributor', nextLevelAt: 501 });
      expect(levelFor(501)).toMatchObject({ level: 4, levelName: 'Expert', nextLevelAt: null, progress: 100 });
      // and the API applies them to stored points
      const veteran = await h.user();
      await h.db.query(`INSERT INTO incidents.user_points (user_id, points) VALUES ($1, 230)`, [veteran.id]);
      expect(await pointsOf(veteran)).toMatchObject({ points: 230, level: 3, levelName: 'Contributor', nextLevelAt: 501, progress: 9 });
    });
  });

  describe('likes under concurrency', () => {
    it('20 users liking at once: 20 likes, count 20; all unliking at once: 0', async () => {
      const author = await h.user();
      const { body } = await h.call('POST', '/community/posts', { user: author, body: post({ title: 'Popular safety tip' }) });
      const fans = await Promise.all(Array.from({ length: 20 }, () => h.user()));
      const liked = await Promise.all(fans.map((fan) => h.call('POST', `/community/posts/${body.id}/like`, { user: fan })));
      expect(liked.every((r) => r.status === 200 && r.body.liked === true)).toBe(true);
      expect(new Set(liked.map((r) => r.body.likesCount)).size).toBe(20); // each saw its own increment
      const [row] = await h.db.query(
        `SELECT likes_count, (SELECT count(*)::int FROM incidents.post_likes WHERE post_id = $1) AS rows FROM incidents.community_posts WHERE id = $1`,
        [body.id],
      );
      expect(row).toEqual({ likes_count: 20, rows: 20 });
      await waitForPoints(author, 5 + 20);

      // one user double-clicking: one like, not two
      const twice = await h.user();
      await Promise.all([
        h.call('POST', `/community/posts/${body.id}/like`, { user: twice }),
        h.call('POST', `/community/posts/${body.id}/like`, { user: twice }),
      ]);
      const [after] = await h.db.query(
        `SELECT likes_count, (SELECT count(*)::int FROM incidents.post_likes WHERE post_id = $1) AS rows FROM incidents.community_posts WHERE id = $1`,
        [body.id],
      );
      expect(after.likes_count).toBe(after.rows);

      await Promise.all([...fans, twice].map((fan) => h.call('POST', `/community/posts/${body.id}/like`, { user: fan })));
      const [end] = await h.db.query(
        `SELECT likes_count, (SELECT count(*)::int FROM incidents.post_likes WHERE post_id = $1) AS rows FROM incidents.community_posts WHERE id = $1`,
        [body.id],
      );
      expect(end.likes_count).toBe(end.rows);
    });
  });

  describe('comments', () => {
    it('nest as replies, oldest first; a parent from another post is refused', async () => {
      const a = (await h.call('POST', '/community/posts', { user: alice, body: post({ title: 'Thread A about lights' }) })).body;
      const b = (await h.call('POST', '/community/posts', { user: alice, body: post({ title: 'Thread B about lanes' }) })).body;
      const top = (await h.call('POST', `/community/posts/${a.id}/comments`, { user: bob, body: { content: 'Which intersection?' } })).body;
      const reply = await h.call('POST', `/community/posts/${a.id}/comments`, { user: alice, body: { content: '7th St and McDowell.', parentId: top.id } });
      expect(reply.status).toBe(201);
      expect(reply.body).toMatchObject({ parentId: top.id, postId: a.id, mine: true });

      const cross = await h.call('POST', `/community/posts/${b.id}/comments`, { user: bob, body: { content: 'Sneaky reply', parentId: top.id } });
      expect(cross).toMatchObject({ status: 400, body: { code: 'parent_not_found' } });
      expect((await h.call('POST', `/community/posts/${a.id}/comments`, { user: bob, body: { content: '   ' } })).body.message).toBe(
        COMMUNITY_MESSAGES.commentRequired,
      );
      expect((await h.call('POST', `/community/posts/00000000-0000-4000-8000-000000000000/comments`, { user: bob, body: { content: 'Hello' } })).status).toBe(
        404,
      );

      const list = await h.call('GET', `/community/posts/${a.id}/comments`, { user: bob });
      expect(list.body.items.map((c: { content: string; parentId: string | null }) => [c.content, c.parentId])).toEqual([
        ['Which intersection?', null],
        ['7th St and McDowell.', top.id],
      ]);
      expect((await h.call('GET', `/community/posts/${a.id}`, { user: bob })).body.commentsCount).toBe(2);
    });

    it('user text is stored and returned as text', async () => {
      const html = '<img src=x onerror=alert(1)> & <b>bold</b>';
      const p = (
        await h.call('POST', '/community/posts', { user: alice, body: post({ title: 'Markup <b>test</b>', description: `${html} is just text here` }) })
      ).body;
      expect((await h.call('GET', `/community/posts/${p.id}`)).body.description).toBe(`${html} is just text here`);
    });
  });

  describe('list, search, sort, radius, paging, trending, stats', () => {
    let h2: Harness;
    let author: TestUser;
    beforeAll(async () => {
      h2 = await startHarness(); // an empty forum, so counts are exact
      author = await h2.user();
      const centre = { lat: 33.5, lng: -112.0 };
      const specs = [
        { title: 'Pothole on Central Ave', category: 'traffic-tip', km: 0.5, likes: 3, comments: 0 },
        { title: 'Suspicious van on Elm St', category: 'neighborhood-watch', km: 5, likes: 1, comments: 2 },
        { title: 'Wrong way at exit 12', category: 'wrong-way-driver', km: 20, likes: 5, comments: 1 },
        { title: 'Road closed for parade', category: 'other', km: 60, likes: 0, comments: 0 },
      ];
      for (const s of specs) {
        const { body } = await h2.call('POST', '/community/posts', {
          user: author,
          body: { title: s.title, category: s.category, description: `Details about ${s.title.toLowerCase()} for neighbours.`, ...north(centre, s.km * 1000) },
        });
        for (let i = 0; i < s.likes; i++) await h2.call('POST', `/community/posts/${body.id}/like`, { user: await h2.user() });
        for (let i = 0; i < s.comments; i++)
          await h2.call('POST', `/community/posts/${body.id}/comments`, { user: await h2.user(), body: { content: `Comment ${i}` } });
      }
      for (let i = 0; i < 11; i++) {
        await h2.call('POST', '/community/posts', {
          user: author,
          body: { title: `Filler post ${i}`, category: 'other', description: 'Filler text for paging through the list.', lat: 10, lng: 10 },
        });
      }
    });
    afterAll(() => h2.close());

    const titles = (r: { body: { items: { title: string }[] } }) => r.body.items.map((p) => p.title);

    it('pages by 10 with the exact total', async () => {
      const first = await h2.call('GET', '/community/posts');
      expect(first.body.total).toBe(15);
      expect(first.body.items).toHaveLength(10);
      const second = await h2.call('GET', '/community/posts?offset=10');
      expect(second.body.items).toHaveLength(5);
      expect(new Set([...titles(first), ...titles(second)]).size).toBe(15);
    });

    it('filters by category and searches title or description case-insensitively, literally', async () => {
      expect(titles(await h2.call('GET', '/community/posts?category=neighborhood-watch'))).toEqual(['Suspicious van on Elm St']);
      expect(titles(await h2.call('GET', '/community/posts?search=POTHOLE'))).toEqual(['Pothole on Central Ave']);
      expect((await h2.call('GET', '/community/posts?search=for%20neighbours')).body.total).toBe(4);
      expect((await h2.call('GET', '/community/posts?search=%25')).body.total).toBe(0);
    });

    it('sorts by likes and by comments', async () => {
      expect(titles(await h2.call('GET', '/community/posts?sort=likes')).slice(0, 3)).toEqual([
        'Wrong way at exit 12',
        'Pothole on Central Ave',
        'Suspicious van on Elm St',
      ]);
      expect(titles(await h2.call('GET', '/community/posts?sort=comments')).slice(0, 2)).toEqual(['Suspicious van on Elm St', 'Wrong way at exit 12']);
    });

    it('filters by radius below 50 km only', async () => {
      const at = 'lat=33.5&lng=-112.0';
      expect(titles(await h2.call('GET', `/community/posts?${at}&radiusKm=1`))).toEqual(['Pothole on Central Ave']);
      expect((await h2.call('GET', `/community/posts?${at}&radiusKm=25`)).body.total).toBe(3);
      expect((await h2.call('GET', `/community/posts?${at}&radiusKm=50`)).body.total).toBe(15);
      expect((await h2.call('GET', `/community/posts?${at}&radiusKm=0.5`)).status).toBe(400);
      expect((await h2.call('GET', `/community/posts?radiusKm=10`)).body.code).toBe('location_required');
    });

    it('trending: last 7 days, most liked, 5 at most', async () => {
      await h2.db.query(`UPDATE incidents.community_posts SET created_at = now() - interval '8 days' WHERE title = 'Wrong way at exit 12'`);
      const trending = await h2.call('GET', '/community/posts/trending');
      expect(trending.body.items).toHaveLength(5);
      expect(titles(trending).slice(0, 2)).toEqual(['Pothole on Central Ave', 'Suspicious van on Elm St']);
    });

    it('stats are counted from the data', async () => {
      // 1 author, 9 likers, 3 commenters, all distinct
      await h2.db.query(`UPDATE incidents.community_comments SET created_at = now() - interval '2 days' WHERE content = 'Comment 1'`);
      expect((await h2.call('GET', '/community/stats')).body).toEqual({ members: 13, postsThisWeek: 14, commentsToday: 2 });
    });

    it('shows the caller whether they liked each post', async () => {
      const viewer = await h2.user();
      const target = (await h2.call('GET', '/community/posts?search=Pothole')).body.items[0];
      await h2.call('POST', `/community/posts/${target.id}/like`, { user: viewer });
      expect((await h2.call('GET', '/community/posts?search=Pothole', { user: viewer })).body.items[0].likedByMe).toBe(true);
      expect((await h2.call('GET', '/community/posts?search=Pothole')).body.items[0].likedByMe).toBe(false);
    });
  });

  describe('my activity (GET /community/me/activity)', () => {
    type Item = { kind: string; id: string; createdAt: string; title?: string; postTitle?: string; excerpt?: string; levelName?: string };
    const activityOf = async (user: TestUser, query = '') => {
      const res = await h.call('GET', `/community/me/activity${query}`, { user });
      expect(res.status).toBe(200);
      return res.body as { items: Item[]; total: number };
    };
    const summary = (items: Item[]) => items.map((i) => [i.kind, i.title ?? i.postTitle ?? i.levelName]);
    const at = (id: string, table: string, time: string) => h.db.query(`UPDATE incidents.${table} SET created_at = $2 WHERE id = $1`, [id, time]);

    it("lists only the caller's own posts and comments, newest first", async () => {
      const me = await h.user();
      const other = await h.user();
      const mine = (await h.call('POST', '/community/posts', { user: me, body: post({ title: 'My first warning' }) })).body;
      const theirs = (await h.call('POST', '/community/posts', { user: other, body: post({ title: 'Their road tip' }) })).body;
      const long = `Seen it too. ${'x'.repeat(300)}`;
      const myComment = (await h.call('POST', `/community/posts/${theirs.id}/comments`, { user: me, body: { content: long } })).body;
      const theirComment = (await h.call('POST', `/community/posts/${mine.id}/comments`, { user: other, body: { content: 'Thanks!' } })).body;
      await at(mine.id, 'community_posts', '2025-03-01T10:00:00Z');
      await at(theirs.id, 'community_posts', '2025-03-01T11:00:00Z');
      await at(myComment.id, 'community_comments', '2025-03-01T12:00:00Z');
      await at(theirComment.id, 'community_comments', '2025-03-01T13:00:00Z');

      const { items, total } = await activityOf(me);
      expect(total).toBe(2);
      expect(items).toEqual([
        {
          kind: 'comment',
          id: myComment.id,
          postId: theirs.id,
          postTitle: 'Their road tip',
          excerpt: `${long.slice(0, 200)}…`,
          createdAt: '2025-03-01T12:00:00.000Z',
        },
        { kind: 'post', id: mine.id, postId: mine.id, title: 'My first warning', category: 'wrong-way-driver', createdAt: '2025-03-01T10:00:00.000Z' },
      ]);
      expect(summary((await activityOf(other)).items)).toEqual([
        ['comment', 'My first warning'],
        ['post', 'Their road tip'],
      ]);
      expect(await activityOf(await h.user())).toEqual({ items: [], total: 0 });
    });

    it('pages in the database with the exact total; equal times are ordered by id', async () => {
      const me = await h.user();
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const { body } = await h.call('POST', '/community/posts', { user: me, body: post({ title: `Paged post ${i}` }) });
        await at(body.id, 'community_posts', `2025-04-0${i + 1}T00:00:00Z`);
        ids.push(body.id);
      }
      // a tie with post 4 (the newest): id decides, the same way on every page
      const { body: twin } = await h.call('POST', '/community/posts', { user: me, body: post({ title: 'Paged twin' }) });
      await at(twin.id, 'community_posts', '2025-04-05T00:00:00Z');
      const expected = [...[ids[4], twin.id].sort(), ids[3], ids[2], ids[1], ids[0]];

      const pages = [await activityOf(me, '?limit=2'), await activityOf(me, '?limit=2&offset=2'), await activityOf(me, '?limit=2&offset=4')];
      expect(pages.map((p) => p.total)).toEqual([6, 6, 6]);
      expect(pages.map((p) => p.items.length)).toEqual([2, 2, 2]);
      expect(pages.flatMap((p) => p.items.map((i) => i.id))).toEqual(expected);
      expect(await activityOf(me, '?offset=10')).toEqual({ items: [], total: 6 });
      expect((await activityOf(me)).items).toHaveLength(6); // default limit 20
    });

    it('lists each level the points ledger reached, when it was reached', async () => {
      const veteran = await h.user();
      const award = (key: string, points: number, time: string) =>
        h.db.query(`INSERT INTO incidents.points_awards (award_key, user_id, points, reason, created_at) VALUES ($1, $2, $3, 'post', $4)`, [
          key,
          veteran.id,
          points,
          time,
        ]);
      await award(`test:${veteran.id}:1`, 40, '2025-05-01T00:00:00Z');
      await award(`test:${veteran.id}:2`, 20, '2025-05-02T00:00:00Z'); // 60: level 2
      await award(`test:${veteran.id}:3`, 10, '2025-05-03T00:00:00Z');
      await award(`test:${veteran.id}:4`, 200, '2025-05-04T00:00:00Z'); // 270: level 3
      const { items, total } = await activityOf(veteran);
      expect(total).toBe(2);
      expect(items).toEqual([
        { kind: 'level', id: 'level-3', level: 3, levelName: 'Contributor', createdAt: '2025-05-04T00:00:00.000Z' },
        { kind: 'level', id: 'level-2', level: 2, levelName: 'Regular', createdAt: '2025-05-02T00:00:00.000Z' },
      ]);
    });

    it('needs sign-in, and refuses bad paging with a code', async () => {
      expect(await h.call('GET', '/community/me/activity')).toMatchObject({ status: 401, body: { code: 'unauthorized' } });
      for (const [query, message] of [
        ['limit=0', 'limit must be a whole number from 1 to 50'],
        ['limit=abc', 'limit must be a whole number from 1 to 50'],
        ['limit=51', 'limit must be a whole number from 1 to 50'],
        ['offset=-1', 'offset must be a whole number of at least 0'],
      ]) {
        expect(await h.call('GET', `/community/me/activity?${query}`, { user: alice })).toMatchObject({
          status: 400,
          body: { code: 'validation_failed', message },
        });
      }
    });
  });

  describe('live updates through the gateway adapter', () => {
    it('a socket in the public room receives new posts and comments', async () => {
      // the gateway's side, as configured there: a Socket.IO server with the Redis adapter on the shared key
      const pub = new Redis(process.env.TEST_REDIS_URL || 'redis://127.0.0.1:6379');
      const sub = pub.duplicate();
      const http = createServer();
      const server = new Server(http, { adapter: createAdapter(pub, sub, { key: socketIoKey(h.redisPrefix) }) });
      server.on('connection', (s) => s.join(Rooms.public));
      await new Promise<void>((r) => http.listen(0, '127.0.0.1', r));
      const client: Socket = connect(`http://127.0.0.1:${(http.address() as AddressInfo).port}`, { transports: ['websocket'] });
      try {
        const posts: CommunityPostEvent[] = [];
        const comments: CommunityCommentEvent[] = [];
        client.on('community:post', (p: CommunityPostEvent) => posts.push(p));
        client.on('community:comment', (c: CommunityCommentEvent) => comments.push(c));
        await eventually(async () => (client.connected ? true : undefined), 'the socket to connect');
        // the adapter subscribes asynchronously: keep posting until one arrives
        const created = await eventually(async () => {
          const { body } = await h.call('POST', '/community/posts', { user: alice, body: post({ title: 'Live post for the socket' }) });
          await new Promise((r) => setTimeout(r, 100));
          return posts.find((p) => p.id === body.id) ? body : undefined;
        }, 'community:post');
        expect(posts.find((p) => p.id === created.id)).toMatchObject({ title: 'Live post for the socket', category: 'wrong-way-driver', userId: alice.id });
        const comment = (await h.call('POST', `/community/posts/${created.id}/comments`, { user: bob, body: { content: 'Seen it live' } })).body;
        await eventually(async () => (comments.find((c) => c.id === comment.id) ? true : undefined), 'community:comment');
        expect(comments.find((c) => c.id === comment.id)).toMatchObject({ postId: created.id, content: 'Seen it live', parentId: null });
      } finally {
        client.close();
        await new Promise<void>((r) => server.close(() => r()));
        pub.disconnect();
        sub.disconnect();
      }
    });
  });
});
