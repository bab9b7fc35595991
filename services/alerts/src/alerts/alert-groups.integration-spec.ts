import { randomUUID } from 'node:crypto';
import { ALERT_GROUPS_MAX, AdminAlert, AlertAudience, AlertPreferences, ContactGroup, Page, UserAlert } from '@beacon/contracts';
import { destination } from '@beacon/geo';
import { jsonClient, RunningService, startTestService, waitFor } from '@beacon/testing';
import { dispatcherService } from '../dispatcher.service';
import { alertsService } from '../service';
import { DispatchStack } from '../testing/dispatch-stack';

const TEMPE = { lat: 33.4255, lng: -111.94 };
const FLAGSTAFF = { lat: 35.1983, lng: -111.6513 };
const GROUPS = '/admin/contact-groups';

jest.setTimeout(90_000);

/**
 * Issue #42 through the API and the dispatcher: an alert targets its area, contact groups, or both. Validation, the
 * preview against the rows the dispatch writes, the admin view of its groups, the feed, updates of its groups, and the
 * public CAP feed, which an alert to groups alone is never in.
 */
describe('alerts to contact groups', () => {
  const stack = new DispatchStack();
  let alerts: RunningService<unknown>;
  let dispatcher: RunningService<unknown>;
  let admin: string;
  const call = jsonClient(() => alerts.url);
  const people: Record<'inArea' | 'both' | 'member' | 'member2' | 'outsider', { id: string; token: string; email: string }> = {} as never;
  let schools: ContactGroup;
  let roads: ContactGroup;
  let external: string;

  const deliveryRows = (alertId: string) =>
    stack.db.query<{ user_id: string; channel: string; kind: string; round: number; status: string }>(
      `SELECT user_id, channel, kind, round, status FROM alerts.alert_deliveries WHERE alert_id = $1 ORDER BY round, user_id`,
      [alertId],
    );

  /** A user whose e-mail is on, at `home` (or none), following `alertTypes` at `threshold`. */
  async function makeUser(home: { lat: number; lng: number } | null, alertTypes: string[], threshold = 'low') {
    const id = randomUUID();
    const email = `user-${id.slice(0, 8)}@example.test`;
    const token = await stack.identity.token({ id, email });
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, {
      alertTypes,
      severityThreshold: threshold,
      home,
      radiusMiles: 20,
      methods: { push: false, sms: false, email: true, voice: false },
    });
    expect(saved.status).toBe(200);
    return { id, token, email };
  }

  async function group(name: string, members: { email: string }[]) {
    const made = await call<ContactGroup>('POST', GROUPS, admin, { name });
    expect(made.status).toBe(201);
    for (const m of members) expect((await call('POST', `${GROUPS}/${made.body.id}/members`, admin, { kind: 'user', email: m.email })).status).toBe(201);
    return made.body;
  }

  beforeAll(async () => {
    await stack.start({ PUBLIC_URL: 'http://localhost:8080', SWEEP_INTERVAL_SECONDS: '3600' });
    alerts = await startTestService(alertsService, stack.vars);
    dispatcher = await startTestService(dispatcherService, stack.vars);
    admin = await stack.identity.token({ id: randomUUID(), email: 'admin@beacon.local', role: 'admin' });
    people.inArea = await makeUser(TEMPE, ['weather']);
    people.both = await makeUser(destination(TEMPE, 2, 45), ['weather']);
    // Members the area rule refuses: far away or no home, another type, the highest threshold.
    people.member = await makeUser(FLAGSTAFF, ['crime'], 'critical');
    people.member2 = await makeUser(null, ['crime'], 'critical');
    people.outsider = await makeUser(FLAGSTAFF, ['weather']);
    schools = await group('School staff', [people.member, people.both]);
    roads = await group('Road crews', [people.member2, people.both]);
    const contact = await call<{ id: string }>('POST', `${GROUPS}/${schools.id}/members`, admin, {
      kind: 'external',
      name: 'Pat Lee',
      email: 'pat@example.test',
    });
    expect(contact.status).toBe(201);
    external = contact.body.id;
  });

  afterAll(async () => {
    await stack.close(dispatcher, alerts);
  });

  const body = (over: Record<string, unknown> = {}) => ({
    title: 'Flash flood warning',
    message: 'Move to higher ground now.',
    category: 'weather',
    severity: 'critical',
    channels: ['email'],
    ...over,
  });
  const area = { type: 'circle', lat: TEMPE.lat, lng: TEMPE.lng, radiusKm: 10 };

  /** Whether external contacts have recipient rows yet (the ExternalRecipients mirror): they are then recipients of their groups. */
  const mirrored = async (ids: string[]) =>
    (await stack.db.query<{ user_id: string }>(`SELECT user_id FROM alerts.user_preferences WHERE user_id = ANY($1::uuid[])`, [ids])).map((r) => r.user_id);

  const sentTo = (alertId: string, n: number) =>
    waitFor(`${n} deliveries sent`, async () => {
      const rows = await deliveryRows(alertId);
      return rows.length === n && rows.every((r) => r.status === 'sent') ? rows : null;
    });

  it('refuses an unknown group, more than the maximum, and groups with everyone, with a 400 and its code', async () => {
    const unknown = randomUUID();
    for (const path of ['', '/audience']) {
      const notFound = await call<{ code: string; message: string }>('POST', path, admin, body({ area, groupIds: [schools.id, unknown] }));
      expect({ path, status: notFound.status, code: notFound.body.code }).toEqual({ path, status: 400, code: 'alert_group_not_found' });
      expect(notFound.body.message).toContain(unknown);
      expect(notFound.body.message).not.toContain(schools.id);
      const many = Array.from({ length: ALERT_GROUPS_MAX + 1 }, () => randomUUID());
      const tooMany = await call<{ code: string }>('POST', path, admin, body({ area, groupIds: many }));
      expect({ path, status: tooMany.status, code: tooMany.body.code }).toEqual({ path, status: 400, code: 'alert_too_many_groups' });
      const withEveryone = await call<{ code: string }>('POST', path, admin, body({ groupIds: [schools.id], everyone: true }));
      expect({ path, status: withEveryone.status, code: withEveryone.body.code }).toEqual({ path, status: 400, code: 'groups_and_everyone' });
      const notIds = await call<{ code: string }>('POST', path, admin, body({ area, groupIds: ['school staff'] }));
      expect({ path, status: notIds.status, code: notIds.body.code }).toEqual({ path, status: 400, code: 'validation_failed' });
    }
    // Twenty, the same group twice among them, is within the limit: duplicates are merged before counting.
    const twenty = [schools.id.toUpperCase(), ...Array.from({ length: ALERT_GROUPS_MAX }, () => schools.id)];
    const merged = await call<AdminAlert>('POST', '', admin, body({ groupIds: twenty, draft: true }));
    expect(merged.status).toBe(201);
    expect(merged.body.groups.map((g) => g.id)).toEqual([schools.id]);
    const nothing = await call<{ code: string }>('POST', '', admin, body({ groupIds: [] }));
    expect(nothing.body.code).toBe('area_required');
  });

  it('an alert to an area and a group reaches both, each person once, as the preview counted, with the groups named', async () => {
    const asked = body({ area, groupIds: [schools.id] });
    const preview = await call<AlertAudience>('POST', '/audience', admin, asked);
    expect(preview.status).toBe(200);
    const contacts = await mirrored([external]);
    const expected = [people.inArea.id, people.both.id, people.member.id, ...contacts].sort();
    expect(preview.body).toMatchObject({ concerned: expected.length, recipients: expected.length, channels: { email: { recipients: expected.length } } });
    expect(preview.body.byTarget).toEqual({
      area: 2,
      groups: [{ id: schools.id, name: 'School staff', concerned: 2 + contacts.length, external: contacts.length }],
    });

    const created = await call<AdminAlert>('POST', '', admin, asked, { 'idempotency-key': randomUUID() });
    expect(created.status).toBe(201);
    expect(created.body.groups).toEqual([{ id: schools.id, name: 'School staff', memberCount: 3, externalCount: 1 }]);
    const rows = await sentTo(created.body.id, expected.length);
    expect(rows.map((r) => r.user_id).sort()).toEqual(expected);
    const recipients = await waitFor('the recipients', async () => (await call<AdminAlert>('GET', `/${created.body.id}`, admin)).body.recipients ?? null);
    expect(recipients).toBe(preview.body.recipients);

    const listed = await call<Page<AdminAlert>>('GET', '?pageSize=50', admin);
    expect(listed.body.items.find((a) => a.id === created.body.id)?.groups).toEqual(created.body.groups);

    // Public with its area alone: in the CAP feed, the groups not named.
    const atom = await fetch(`${alerts.url}/cap/alerts.atom`).then((r) => r.text());
    expect(atom).toContain(created.body.id);
    const cap = await fetch(`${alerts.url}/cap/alerts/${created.body.id}.xml`);
    expect(cap.status).toBe(200);
    const xml = await cap.text();
    expect(xml).toContain('<circle>');
    expect(xml).not.toContain('School staff');
  });

  it('an alert to groups alone goes to their members wherever they live, not to everyone, and stays out of public view', async () => {
    const preview = await call<AlertAudience>('POST', '/audience', admin, body({ groupIds: [schools.id] }));
    expect(preview.status).toBe(200);
    expect(preview.body.byTarget?.area).toBeNull();
    const created = await call<AdminAlert>('POST', '', admin, body({ groupIds: [schools.id] }));
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({ area: null, lat: null, groups: [{ id: schools.id }] });
    const contacts = await mirrored([external]);
    const expected = [people.both.id, people.member.id, ...contacts].sort();
    const rows = await sentTo(created.body.id, expected.length);
    expect(rows.map((r) => r.user_id).sort()).toEqual(expected);
    expect(preview.body.recipients).toBe(expected.length);

    const feed = async (token: string) => (await call<Page<UserAlert>>('GET', '/me/alerts', token)).body.items.map((a) => a.id);
    expect(await feed(people.member.token)).toContain(created.body.id);
    expect(await feed(people.outsider.token)).not.toContain(created.body.id);
    expect(await feed(people.inArea.token)).not.toContain(created.body.id);
    expect((await call('GET', `/me/alerts/${created.body.id}`, people.member.token)).status).toBe(200);
    expect((await call('GET', `/me/alerts/${created.body.id}`, people.outsider.token)).status).toBe(404);

    const atom = await fetch(`${alerts.url}/cap/alerts.atom`).then((r) => r.text());
    expect(atom).not.toContain(created.body.id);
    expect((await fetch(`${alerts.url}/cap/alerts/${created.body.id}.xml`)).status).toBe(404);

    // Its groups replaced: those newly in one get it as new, those no longer in any are told they left.
    const unknown = randomUUID();
    expect((await call<{ code: string }>('POST', `/${created.body.id}/update`, admin, { groupIds: [unknown] })).body.code).toBe('alert_group_not_found');
    expect((await call<{ code: string }>('POST', `/${created.body.id}/update/audience`, admin, { groupIds: [unknown] })).body.code).toBe(
      'alert_group_not_found',
    );
    expect((await call<{ code: string }>('POST', `/${created.body.id}/update`, admin, { groupIds: [] })).body.code).toBe('area_required');
    const told = await call<AlertAudience>('POST', `/${created.body.id}/update/audience`, admin, { groupIds: [roads.id] });
    expect(told.body.told).toEqual({ stillInArea: 1, leftArea: 1 + contacts.length, newlyConcerned: 1 });
    const updated = await call<AdminAlert>('POST', `/${created.body.id}/update`, admin, { groupIds: [roads.id] });
    expect(updated.status).toBe(200);
    expect(updated.body.groups).toEqual([{ id: roads.id, name: 'Road crews', memberCount: 2, externalCount: 0 }]);
    const round = await waitFor('the update fanned out', async () => {
      const later = (await deliveryRows(created.body.id)).filter((r) => r.round > 1);
      return later.length === 3 + contacts.length ? later : null;
    });
    expect(Object.fromEntries(round.map((r) => [r.user_id, r.kind]))).toEqual({
      [people.both.id]: 'update',
      [people.member.id]: 'left_area',
      [people.member2.id]: 'alert',
      ...Object.fromEntries(contacts.map((id) => [id, 'left_area'])),
    });
    expect(await feed(people.member2.token)).toContain(created.body.id);
    expect(await feed(people.member.token)).toContain(created.body.id); // it reached them: still theirs to read
  });

  it("a draft's groups are edited, its send refuses everyone beside them, and a deleted group is left out", async () => {
    const draft = await call<AdminAlert>('POST', '', admin, body({ groupIds: [schools.id], draft: true }));
    expect(draft.status).toBe(201);
    const draftId = draft.body.id;
    const edited = await call<AdminAlert>('POST', `/${draftId}/update`, admin, { groupIds: [schools.id, roads.id], revision: draft.body.revision });
    expect(edited.status).toBe(200);
    expect(edited.body.groups.map((g) => g.name)).toEqual(['School staff', 'Road crews']);

    expect((await call<{ code: string }>('GET', `/${draftId}/audience?everyone=true`, admin)).body.code).toBe('groups_and_everyone');
    const preview = await call<AlertAudience>('GET', `/${draftId}/audience`, admin);
    expect(preview.status).toBe(200);
    expect(preview.body.byTarget?.groups.map((g) => [g.name, g.concerned - g.external])).toEqual([
      ['School staff', 2],
      ['Road crews', 2],
    ]);
    expect((await call<{ code: string }>('POST', `/${draftId}/send`, admin, { everyone: true })).body.code).toBe('groups_and_everyone');

    expect((await call('DELETE', `${GROUPS}/${roads.id}`, admin)).status).toBe(200);
    expect((await call<AdminAlert>('GET', `/${draftId}`, admin)).body.groups.map((g) => g.id)).toEqual([schools.id]);
    const sent = await call<AdminAlert>('POST', `/${draftId}/send`, admin, {});
    expect(sent.status).toBe(200);
    expect(sent.body.status).toBe('active');
  });
});
