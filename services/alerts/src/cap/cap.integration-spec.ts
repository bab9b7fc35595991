import { createECDH, randomBytes, randomUUID } from 'node:crypto';
import { create } from 'xmlbuilder2';
import { AdminAlert } from '@beacon/contracts';
import {
  createTestDatabase,
  jsonClient,
  RunningService,
  startTestIdentity,
  startTestService,
  TestDatabase,
  TestIdentity,
  testRedisPrefix,
} from '@beacon/testing';
import { alertsDatabase } from '../database';
import { alertsService } from '../service';
import { strictParse } from '../testing/strict-xml';
import { validateCap } from '../testing/cap-schema';

jest.setTimeout(60_000);

const CAP = 'urn:oasis:names:tc:emergency:cap:1.2';
const ATOM = 'http://www.w3.org/2005/Atom';
const PUBLIC_URL = 'https://alerts.example.org:8443/';
const SENDER = 'beacon@alerts.example.org';
const CAP_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\+00:00$/;
const HOSTILE = '<script>&"';

/** The few DOM calls the assertions need, on the document xmlbuilder2's parser builds. */
interface El {
  namespaceURI: string | null;
  localName: string;
  textContent: string | null;
  getAttribute(name: string): string | null;
  getElementsByTagNameNS(ns: string, name: string): ArrayLike<El>;
}

const parse = (xml: string): El => create(xml).root().node as unknown as El;
const all = (el: El, ns: string, name: string): El[] => Array.from(el.getElementsByTagNameNS(ns, name));
/** The text of the only `name` under `el`; undefined when there is none, and a failure when there are several. */
function one(el: El, ns: string, name: string): string | undefined {
  const found = all(el, ns, name);
  expect(found.length).toBeLessThanOrEqual(1);
  return found[0]?.textContent ?? undefined;
}
const cap = (el: El, name: string) => one(el, CAP, name);

/** CAP's dateTime of an ISO timestamp, derived here independently of the service's formatter. */
const capTimeOf = (iso: string) => `${iso.slice(0, 19)}+00:00`;

describe('CAP 1.2 feed', () => {
  let db: TestDatabase;
  const redis = testRedisPrefix();
  let identity: TestIdentity;
  let svc: RunningService<unknown>;
  let admin: string;
  const call = jsonClient(() => svc.url);
  /** No token: these are public. */
  const get = async (path: string, headers: Record<string, string> = {}) => {
    const res = await fetch(`${svc.url}${path}`, { headers });
    return { status: res.status, text: await res.text(), headers: res.headers };
  };

  const ids: Record<string, string> = {};
  const alerts: Record<string, AdminAlert> = {};
  const located = {
    type: 'Amber Alert',
    severity: 'critical',
    title: `Missing child ${HOSTILE}`,
    message: `Last seen near the park <b>&</b> "Main St". Call 911.`,
    locationName: 'Encanto Park & Main <St>',
    lat: 33.4745,
    lng: -112.0878,
    radiusKm: 20,
    channels: ['web_push', 'sms'],
  };
  const expiresAt = new Date(Date.now() + 2 * 3600_000).toISOString();

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    identity = await startTestIdentity();
    svc = await startTestService(alertsService, {
      DATABASE_URL: db.url,
      REDIS_URL: redis.url,
      REDIS_PREFIX: redis.prefix,
      JWKS_URL: identity.jwksUrl,
      WEBHOOK_ALLOW_HOSTS: '',
      PUBLIC_URL,
      PUSH_ENDPOINT_HOSTS: '8.8.8.8',
    });
    admin = await identity.token({ role: 'admin', email: 'admin@beacon.local' });

    const post = async (name: string, body: Record<string, unknown>) => {
      const res = await call<AdminAlert>('POST', '', admin, body);
      expect(res.status).toBe(201);
      ids[name] = res.body.id;
      alerts[name] = res.body;
    };
    const cancel = async (name: string) => {
      const res = await call<AdminAlert>('POST', `/${ids[name]}/cancel`, admin);
      expect(res.body.status).toBe('cancelled');
      alerts[name] = res.body;
    };

    await post('located', located);
    await post('plain', {
      type: 'Weather',
      priority: 'medium',
      title: 'Heat advisory',
      message: 'Highs near 115 F this afternoon.',
      channels: ['web_push'],
      everyone: true,
      expiresAt,
    });
    await post('draft', {
      type: 'Emergency',
      priority: 'high',
      title: 'Draft notice',
      message: 'Not sent to anyone yet.',
      channels: ['web_push'],
      draft: true,
    });
    await post('cancelled', {
      type: 'Traffic',
      priority: 'high',
      title: 'I-10 closed',
      message: 'I-10 closed at Exit 150 both ways.',
      channels: ['web_push'],
      lat: 33.3,
      lng: -111.9,
    });
    await cancel('cancelled');
    await post('expired', {
      type: 'Public Safety',
      priority: 'low',
      title: 'Boil water notice',
      message: 'Boil tap water before drinking.',
      channels: ['web_push'],
      everyone: true,
    });
    await post('longGone', {
      type: 'Weather',
      priority: 'low',
      title: 'Dust storm passed',
      message: 'The dust storm has moved east.',
      channels: ['web_push'],
      everyone: true,
    });
    await cancel('longGone');
    await post('cancelledDraft', {
      type: 'Emergency',
      priority: 'low',
      title: 'Never sent',
      message: 'A draft cancelled before sending.',
      channels: ['web_push'],
      draft: true,
    });
    await cancel('cancelledDraft');
    // Time passing: an expiry that came an hour ago, and a cancel from more than a day ago.
    await db.query(`UPDATE alerts.alerts SET expires_at = now() - interval '1 hour' WHERE id = $1`, [ids.expired]);
    await db.query(`UPDATE alerts.alerts SET sent_at = now() - interval '26 hours', updated_at = now() - interval '25 hours' WHERE id = $1`, [ids.longGone]);

    // A test alert, the way an admin sends one: it needs a device of the admin's to reach.
    expect((await call('PUT', '/admin/settings', admin, { push: { enabled: true } })).status).toBe(200);
    const keys = { p256dh: createECDH('prime256v1').generateKeys().toString('base64url'), auth: randomBytes(16).toString('base64url') };
    expect((await call('POST', '/me/push-subscriptions', admin, { endpoint: 'https://8.8.8.8/push/admin', keys })).status).toBe(201);
    const test = await call<{ alert: AdminAlert }>('POST', '/admin/settings/test-alert', admin);
    expect(test.body.alert).toMatchObject({ status: 'active', source: 'test' });
    ids.test = test.body.alert.id;
  });

  afterAll(async () => {
    await svc?.close();
    await identity?.close();
    await db?.drop();
    await redis.cleanup();
  });

  describe('Atom feed', () => {
    it('lists the alerts in effect and those ended in the last 24 h, newest first, never drafts or test alerts', async () => {
      const res = await get('/cap/alerts.atom');
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/atom\+xml/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const feed = parse(res.text);
      expect([feed.namespaceURI, feed.localName]).toEqual([ATOM, 'feed']);
      const entries = all(feed, ATOM, 'entry');
      // The expired one was sent last; the cancel came after 'plain' was sent.
      expect(entries.map((e) => one(e, ATOM, 'id'))).toEqual(['expired', 'cancelled', 'plain', 'located'].map((n) => `urn:uuid:${ids[n]}`));
      for (const n of ['draft', 'test', 'longGone', 'cancelledDraft']) expect(res.text).not.toContain(ids[n]);
    });

    it('gives each entry a title, updated time, summary and a link to its CAP message that the service answers', async () => {
      const entries = all(parse((await get('/cap/alerts.atom')).text), ATOM, 'entry');
      const byId = new Map(entries.map((e) => [one(e, ATOM, 'id'), e]));
      const located = byId.get(`urn:uuid:${ids.located}`)!;
      expect(one(located, ATOM, 'title')).toBe(`Missing child ${HOSTILE}`);
      expect(one(located, ATOM, 'summary')).toBe(alerts.located.message);
      expect(one(located, ATOM, 'updated')).toBe(alerts.located.sentAt);
      expect(one(byId.get(`urn:uuid:${ids.cancelled}`)!, ATOM, 'title')).toBe('Cancelled: I-10 closed');
      expect(one(byId.get(`urn:uuid:${ids.cancelled}`)!, ATOM, 'updated')).toBe(alerts.cancelled.updatedAt);
      expect(one(byId.get(`urn:uuid:${ids.expired}`)!, ATOM, 'title')).toBe('Expired: Boil water notice');

      const link = all(located, ATOM, 'link').find((l) => l.getAttribute('type') === 'application/cap+xml')!;
      const href = new URL(link.getAttribute('href')!);
      expect(href.origin).toBe('https://alerts.example.org:8443');
      expect(href.pathname).toBe(`/api/alerts/cap/alerts/${ids.located}.xml`);
      // The edge forwards /api/alerts/* unchanged, so the same path on the service is the message.
      const msg = await fetch(`${svc.origin}${href.pathname}`);
      expect(msg.status).toBe(200);
      expect(cap(parse(await msg.text()), 'identifier')).toBe(ids.located);
    });

    it('escapes user text instead of passing markup through', async () => {
      const { text } = await get('/cap/alerts.atom');
      expect(text).not.toContain('<script>');
      expect(text).not.toContain('<b>');
      expect(text).toContain('Missing child &lt;script&gt;&amp;');
    });

    it('answers 304 to a repeated request with its ETag', async () => {
      const first = await get('/cap/alerts.atom');
      const etag = first.headers.get('etag');
      expect(etag).toBeTruthy();
      // fetch would add 'Cache-Control: no-cache' to a conditional request, which rightly defeats the 304; a
      // browser revalidating a stale copy sends max-age=0 instead.
      expect((await get('/cap/alerts.atom', { 'if-none-match': etag!, 'cache-control': 'max-age=0' })).status).toBe(304);
    });
  });

  describe('CAP messages', () => {
    it('describes a located critical alert as an Actual public CAP 1.2 Alert with its mappings and area circle', async () => {
      const res = await get(`/cap/alerts/${ids.located}.xml`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toMatch(/^application\/(cap\+)?xml/);
      expect(res.headers.get('cache-control')).toBe('public, max-age=60');
      const alert = parse(res.text);
      expect([alert.namespaceURI, alert.localName]).toEqual([CAP, 'alert']);
      expect({
        identifier: cap(alert, 'identifier'),
        sender: cap(alert, 'sender'),
        sent: cap(alert, 'sent'),
        status: cap(alert, 'status'),
        msgType: cap(alert, 'msgType'),
        scope: cap(alert, 'scope'),
        references: cap(alert, 'references'),
      }).toEqual({
        identifier: ids.located,
        sender: SENDER,
        sent: capTimeOf(alerts.located.sentAt!),
        status: 'Actual',
        msgType: 'Alert',
        scope: 'Public',
        references: undefined,
      });
      expect(cap(alert, 'sent')).toMatch(CAP_TIME);
      const [info] = all(alert, CAP, 'info');
      expect(all(alert, CAP, 'info')).toHaveLength(1);
      expect({
        language: cap(info, 'language'),
        category: cap(info, 'category'),
        event: cap(info, 'event'),
        urgency: cap(info, 'urgency'),
        severity: cap(info, 'severity'),
        certainty: cap(info, 'certainty'),
        headline: cap(info, 'headline'),
        description: cap(info, 'description'),
        web: cap(info, 'web'),
        expires: cap(info, 'expires'),
        areaDesc: cap(info, 'areaDesc'),
        circle: cap(info, 'circle'),
      }).toEqual({
        language: 'en-US',
        category: 'Rescue',
        event: 'Amber Alert',
        urgency: 'Immediate',
        severity: 'Extreme',
        certainty: 'Observed',
        headline: `Missing child ${HOSTILE}`,
        description: located.message,
        web: `https://alerts.example.org:8443/alerts/${ids.located}`,
        expires: undefined,
        areaDesc: located.locationName,
        circle: '33.4745,-112.0878 20',
      });
      expect(res.text).not.toContain('<script>');
      expect(res.text).toContain('Encanto Park &amp; Main &lt;St&gt;');
    });

    it('a medium alert without a location: Moderate, Expected, Met, its expiry, and an area without a circle', async () => {
      const info = all(parse((await get(`/cap/alerts/${ids.plain}.xml`)).text), CAP, 'info')[0];
      expect({
        category: cap(info, 'category'),
        event: cap(info, 'event'),
        urgency: cap(info, 'urgency'),
        severity: cap(info, 'severity'),
        expires: cap(info, 'expires'),
        areaDesc: cap(info, 'areaDesc'),
        circle: cap(info, 'circle'),
      }).toEqual({
        category: 'Met',
        event: 'Weather',
        urgency: 'Expected',
        severity: 'Moderate',
        expires: capTimeOf(expiresAt),
        areaDesc: 'Area of the alert',
        circle: undefined,
      });
    });

    it('a cancelled alert is a Cancel message of its own that references the original Alert', async () => {
      const alert = parse((await get(`/cap/alerts/${ids.cancelled}.xml`)).text);
      expect(cap(alert, 'msgType')).toBe('Cancel');
      expect(cap(alert, 'identifier')).not.toBe(ids.cancelled);
      expect(cap(alert, 'sent')).toBe(capTimeOf(alerts.cancelled.updatedAt));
      expect(cap(alert, 'references')).toBe(`${SENDER},${ids.cancelled},${capTimeOf(alerts.cancelled.sentAt!)}`);
      const info = all(alert, CAP, 'info')[0];
      expect([cap(info, 'category'), cap(info, 'severity'), cap(info, 'urgency')]).toEqual(['Transport', 'Severe', 'Expected']);
      // Located without a radius in the request: the service's default radius applies, so the circle has it.
      expect(cap(info, 'circle')).toBe(`33.3,-111.9 ${alerts.cancelled.radiusKm}`);
    });

    it('an expired alert is still the original Alert, with its expiry', async () => {
      const alert = parse((await get(`/cap/alerts/${ids.expired}.xml`)).text);
      expect(cap(alert, 'msgType')).toBe('Alert');
      expect(cap(alert, 'identifier')).toBe(ids.expired);
      expect(cap(all(alert, CAP, 'info')[0], 'expires')).toMatch(CAP_TIME);
      expect(cap(all(alert, CAP, 'info')[0], 'severity')).toBe('Minor');
    });

    it.each(['draft', 'test', 'cancelledDraft', 'unknown'])('404 with a code for a %s alert', async (name) => {
      const res = await call('GET', `/cap/alerts/${ids[name] ?? randomUUID()}.xml`, null);
      expect(res.status).toBe(404);
      expect(res.body).toMatchObject({ statusCode: 404, code: 'alert_not_found' });
    });

    it('400 with a code for a malformed id', async () => {
      const res = await call('GET', '/cap/alerts/not-a-uuid.xml', null);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({ statusCode: 400, code: 'invalid_alert_id' });
    });
  });

  describe('entity-like text and control characters', () => {
    const typed = { title: 'Road closed &nbsp; test', message: 'Fish &amp; chips ]]> \u0001 &#1; <b>"x"</b>', locationName: 'Main &amp; 1st\u001f' };
    const readable = 'Fish &amp; chips ]]>  &#1; <b>"x"</b>';

    beforeAll(async () => {
      const res = await call<AdminAlert>('POST', '', admin, { type: 'Traffic', priority: 'high', channels: ['web_push'], lat: 33.4, lng: -112, ...typed });
      expect(res.status).toBe(201);
      ids.typed = res.body.id;
    });

    it('keeps the Atom feed well-formed for every reader and reads back what the admin typed, less forbidden characters', async () => {
      const texts = strictParse((await get('/cap/alerts.atom')).text);
      expect(texts.get('title')).toContain(typed.title);
      expect(texts.get('summary')).toContain(readable);
    });

    it('keeps the CAP message well-formed and exact too', async () => {
      const texts = strictParse((await get(`/cap/alerts/${ids.typed}.xml`)).text);
      expect([texts.get('headline'), texts.get('description'), texts.get('areaDesc')]).toEqual([[typed.title], [readable], ['Main &amp; 1st']]);
    });
  });

  describe('an alert of several areas (issue #42)', () => {
    const parts = [
      {
        type: 'polygon',
        points: [
          [44.99, -65.56],
          [45.03, -65.1],
          [44.8, -64.92],
          [44.55, -65.08],
          [44.99, -65.56],
        ],
        description: 'Annapolis County',
      },
      {
        type: 'polygon',
        points: [
          [46.45, -63.45],
          [46.5, -62.95],
          [46.2, -62.8],
          [46.45, -63.45],
        ],
        description: 'Queens County P.E.I.',
      },
      { type: 'circle', lat: 44.65, lng: -63.57, radiusKm: 12.5, description: 'Halifax' },
      { type: 'circle', lat: 46.09, lng: -64.78, radiusKm: 8 },
    ];

    beforeAll(async () => {
      const res = await call<AdminAlert>('POST', '', admin, {
        type: 'Weather',
        priority: 'medium',
        title: 'Frost advisory',
        message: 'Frost is expected tonight.',
        channels: ['web_push'],
        locationName: 'Maritimes',
        area: { type: 'multi', parts },
      });
      expect(res.status).toBe(201);
      ids.multi = res.body.id;
    });

    it('is published with one valid CAP 1.2 <area> per part, each named by its description, else by the location name', async () => {
      const res = await get(`/cap/alerts/${ids.multi}.xml`);
      expect(res.status).toBe(200);
      expect(validateCap(res.text)).toEqual([]);
      const areas = all(all(parse(res.text), CAP, 'info')[0], CAP, 'area');
      expect(areas.map((a) => [cap(a, 'areaDesc'), cap(a, 'polygon'), cap(a, 'circle')])).toEqual([
        ['Annapolis County', '44.99,-65.56 45.03,-65.1 44.8,-64.92 44.55,-65.08 44.99,-65.56', undefined],
        ['Queens County P.E.I.', '46.45,-63.45 46.5,-62.95 46.2,-62.8 46.45,-63.45', undefined],
        ['Halifax', undefined, '44.65,-63.57 12.5'],
        ['Maritimes', undefined, '46.09,-64.78 8'],
      ]);
    });
  });
});
