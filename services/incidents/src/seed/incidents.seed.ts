import { createHash } from 'node:crypto';
import type { DataSource, EntityManager } from 'typeorm';
import { POINTS } from '@beacon/contracts';

/** A fixed UUID per seed slug, so re-seeding finds the same rows. */
export function seedId(slug: string): string {
  const h = createHash('sha1').update(`beacon-incidents:${slug}`).digest('hex');
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-5${h.slice(13, 16)}-${((parseInt(h[16], 16) & 0x3) | 0x8).toString(16)}${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

type Who = 'demo' | 'admin';

const POSTS: { slug: string; by: Who; title: string; category: string; description: string; lat: number; lng: number; place: string; hoursAgo: number }[] = [
  {
    slug: 'wrong-way-i10',
    by: 'demo',
    title: 'Wrong-way driver on I-10 near 7th Ave last night',
    category: 'wrong-way-driver',
    description:
      'Around 1:40 am a dark SUV was heading west in the eastbound lanes between 7th Ave and 19th Ave. I pulled onto the shoulder and called 911. If you drive this stretch late, stay in the right lane and watch for headlights coming at you.',
    lat: 33.4619,
    lng: -112.0826,
    place: 'I-10 near 7th Ave',
    hoursAgo: 9,
  },
  {
    slug: 'tip-monsoon',
    by: 'demo',
    title: 'Monsoon driving: pull aside, stay alive',
    category: 'traffic-tip',
    description:
      'Dust storms roll in fast this time of year. If visibility drops, pull off the road as far as you can, turn off all lights, set the parking brake and keep your foot off the brake pedal so nobody follows your tail lights into you.',
    lat: 33.4255,
    lng: -111.94,
    place: 'Tempe',
    hoursAgo: 30,
  },
  {
    slug: 'watch-catalytic',
    by: 'demo',
    title: 'Catalytic converter thefts around Encanto',
    category: 'neighborhood-watch',
    description:
      'Two cars on our street had their converters cut overnight this week. Neighbours report a white van without plates idling around 3 am. Motion lights and parking in the garage seem to help. Please report anything suspicious to the non-emergency line.',
    lat: 33.4747,
    lng: -112.0887,
    place: 'Encanto, Phoenix',
    hoursAgo: 52,
  },
  {
    slug: 'tip-ramp-signs',
    by: 'demo',
    title: 'New DO NOT ENTER signs on the SR-51 ramps',
    category: 'traffic-tip',
    description:
      'ADOT added larger red DO NOT ENTER and WRONG WAY signs with flashing LEDs on the Bethany Home ramps. Good to see: most wrong-way crashes start at an exit ramp after dark.',
    lat: 33.5239,
    lng: -112.0424,
    place: 'SR-51 at Bethany Home Rd',
    hoursAgo: 75,
  },
  {
    slug: 'other-school-crossing',
    by: 'demo',
    title: 'Crossing guard needed at 16th St and Osborn',
    category: 'other',
    description:
      'Since school started, drivers speed through the crosswalk at 16th St and Osborn during drop-off. A few parents are asking the district for a crossing guard; add your name on the school office list if you agree.',
    lat: 33.4878,
    lng: -112.0478,
    place: '16th St and Osborn Rd',
    hoursAgo: 120,
  },
];

const COMMENTS: { slug: string; post: string; by: Who; parent?: string; content: string; hoursAgo: number }[] = [
  { slug: 'c1', post: 'wrong-way-i10', by: 'admin', content: 'Thank you for calling it in. DPS confirmed the driver was stopped at 27th Ave.', hoursAgo: 8 },
  { slug: 'c2', post: 'wrong-way-i10', by: 'demo', parent: 'c1', content: 'Glad to hear nobody got hurt.', hoursAgo: 7 },
  { slug: 'c3', post: 'tip-monsoon', by: 'demo', content: 'Also: never drive into a flooded wash, even if it looks shallow.', hoursAgo: 28 },
  {
    slug: 'c4',
    post: 'watch-catalytic',
    by: 'admin',
    content: 'Police suggest engraving your plate number on the converter; it makes resale harder.',
    hoursAgo: 50,
  },
  { slug: 'c5', post: 'watch-catalytic', by: 'demo', parent: 'c4', content: 'Good idea, a local muffler shop does it for free this month.', hoursAgo: 49 },
];

/** The admin liked a few of the demo user's posts. */
const LIKES: { post: string; by: Who }[] = [
  { post: 'wrong-way-i10', by: 'admin' },
  { post: 'tip-monsoon', by: 'admin' },
  { post: 'watch-catalytic', by: 'admin' },
];

/** A few verified reports for the public map, one pending one for the moderation queue. */
const INCIDENTS: {
  slug: string;
  type: string;
  description: string;
  lat: number;
  lng: number;
  place: string;
  status: 'verified' | 'pending';
  hoursAgo: number;
}[] = [
  {
    slug: 'i-wrong-way-51',
    type: 'wrong-way-driver',
    description: 'Car driving south in the northbound lanes of SR-51 near Glendale Ave',
    lat: 33.5385,
    lng: -112.0387,
    place: 'SR-51 near Glendale Ave',
    status: 'verified',
    hoursAgo: 2,
  },
  {
    slug: 'i-hazard-ladder',
    type: 'traffic-hazard',
    description: 'Ladder lying across the two left lanes of I-17 southbound',
    lat: 33.4941,
    lng: -112.1173,
    place: 'I-17 at Indian School Rd',
    status: 'verified',
    hoursAgo: 5,
  },
  {
    slug: 'i-accident-mcdowell',
    type: 'accident',
    description: 'Two-car collision blocking the right turn lane, police on scene',
    lat: 33.4655,
    lng: -112.0568,
    place: 'McDowell Rd and 12th St',
    status: 'verified',
    hoursAgo: 11,
  },
  {
    slug: 'i-crime-pending',
    type: 'crime',
    description: 'Someone checking car door handles in the library parking lot',
    lat: 33.4556,
    lng: -112.0719,
    place: 'Burton Barr Library',
    status: 'pending',
    hoursAgo: 1,
  },
];

/**
 * Believable community content and a few reports by the demo user, with the points they would have
 * earned. Idempotent: fixed ids, ON CONFLICT DO NOTHING, counters and totals recomputed from the rows.
 */
export async function seedIncidents(ds: DataSource, log: (line: string) => void, emails: { demo: string; admin: string }): Promise<void> {
  const users = await ds.query(`SELECT id, email FROM identity.users WHERE email = ANY($1)`, [[emails.demo, emails.admin]]).catch(() => []);
  const idOf: Record<Who, string | undefined> = {
    demo: users.find((u: { email: string }) => u.email === emails.demo)?.id,
    admin: users.find((u: { email: string }) => u.email === emails.admin)?.id,
  };
  if (!idOf.demo || !idOf.admin) {
    log('demo accounts not found; community and incident demo data skipped');
    return;
  }
  const who = (w: Who) => idOf[w]!;
  await ds.transaction(async (m) => {
    for (const p of POSTS) {
      await m.query(
        `INSERT INTO incidents.community_posts (id, title, category, description, lat, lng, location_name, user_id, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, now() - make_interval(hours => $9), now() - make_interval(hours => $9))
         ON CONFLICT (id) DO NOTHING`,
        [seedId(p.slug), p.title, p.category, p.description, p.lat, p.lng, p.place, who(p.by), p.hoursAgo],
      );
      await award(m, `post:${seedId(p.slug)}`, who(p.by), POINTS.post, 'post');
    }
    for (const c of COMMENTS) {
      await m.query(
        `INSERT INTO incidents.community_comments (id, post_id, user_id, content, parent_id, created_at)
         VALUES ($1, $2, $3, $4, $5, now() - make_interval(hours => $6)) ON CONFLICT (id) DO NOTHING`,
        [seedId(c.slug), seedId(c.post), who(c.by), c.content, c.parent ? seedId(c.parent) : null, c.hoursAgo],
      );
      await award(m, `comment:${seedId(c.slug)}`, who(c.by), POINTS.comment, 'comment');
    }
    for (const l of LIKES) {
      await m.query(`INSERT INTO incidents.post_likes (post_id, user_id) VALUES ($1, $2) ON CONFLICT DO NOTHING`, [seedId(l.post), who(l.by)]);
      const author = who(POSTS.find((p) => p.slug === l.post)!.by);
      if (author !== who(l.by)) await award(m, `like:${seedId(l.post)}:${who(l.by)}`, author, POINTS.likeReceived, 'like');
    }
    const postIds = POSTS.map((p) => seedId(p.slug));
    await m.query(
      `UPDATE incidents.community_posts p SET
         likes_count = (SELECT count(*) FROM incidents.post_likes l WHERE l.post_id = p.id),
         comments_count = (SELECT count(*) FROM incidents.community_comments c WHERE c.post_id = p.id)
       WHERE p.id = ANY($1::uuid[])`,
      [postIds],
    );
    // the running totals are the ledger's sums
    await m.query(
      `INSERT INTO incidents.user_points (user_id, points)
       SELECT user_id, sum(points)::int FROM incidents.points_awards WHERE user_id = ANY($1::uuid[]) GROUP BY user_id
       ON CONFLICT (user_id) DO UPDATE SET points = EXCLUDED.points, updated_at = now()`,
      [[who('demo'), who('admin')]],
    );
    for (const i of INCIDENTS) {
      await m.query(
        `INSERT INTO incidents.incidents (id, type, description, location_name, lat, lng, status, reported_by, reporter_email, moderated_by, moderated_at, created_at, updated_at)
         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $11, $9, CASE WHEN $7 = 'verified' THEN now() - make_interval(hours => $10) END,
                 now() - make_interval(hours => $10), now() - make_interval(hours => $10))
         ON CONFLICT (id) DO NOTHING`,
        [
          seedId(i.slug),
          i.type,
          i.description,
          i.place,
          i.lat,
          i.lng,
          i.status,
          who('demo'),
          i.status === 'verified' ? who('admin') : null,
          i.hoursAgo,
          emails.demo,
        ],
      );
    }
  });
  log(`${POSTS.length} posts, ${COMMENTS.length} comments and ${INCIDENTS.length} incident reports in place`);
}

async function award(m: EntityManager, key: string, userId: string, points: number, reason: string) {
  await m.query(`INSERT INTO incidents.points_awards (award_key, user_id, points, reason) VALUES ($1, $2, $3, $4) ON CONFLICT (award_key) DO NOTHING`, [
    key,
    userId,
    points,
    reason,
  ]);
}
