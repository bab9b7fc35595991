import { randomUUID } from 'node:crypto';
import { migrateDown, migrateUp } from '@beacon/common';
import {
  ALERT_CATEGORIES,
  PREFERENCE_ALERT_TYPES,
  REPLY_WORDS,
  type AlertPreferences,
  type ChannelHealthReport,
  type ContactGroup,
  type ContactGroupMember,
  type ContactImportPreview,
  type ContactImportResult,
} from '@beacon/contracts';
import { createTestDatabase, type TestDatabase } from '@beacon/testing';
import { storedAreaColumns, toAlertArea } from '../alerts/alert-area';
import { alertsDatabase } from '../database';
import { eligiblePredicate, eligibleUsersSql, SqlParams, type EligibilityAlert } from '../deliveries/eligibility.sql';
import { ProviderCallers, saveSecrets } from '../receipts/testing/provider-callers';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(90_000);

const GROUPS = '/admin/contact-groups';
const CATEGORIES = ALERT_CATEGORIES;
const TEMPE = { lat: 33.4255, lng: -111.94 };

/**
 * Every way an external contact's recipient row can go wrong: what is not mirrored exactly (missing, left behind, or
 * with other contacts or channels than its contact's), or a mirror with a home, categories or push. Empty when the
 * mirror is exact.
 */
const MIRROR_FAULTS = `
  SELECT coalesce(c.id, p.user_id) AS id,
         CASE WHEN p.user_id IS NULL THEN 'missing' WHEN c.id IS NULL THEN 'left behind' ELSE 'differs' END AS fault
  FROM alerts.external_contacts c
  FULL JOIN (SELECT * FROM alerts.user_preferences WHERE external) p ON p.user_id = c.id
  WHERE c.id IS NULL OR p.user_id IS NULL
     OR p.phone_number IS DISTINCT FROM c.phone OR p.email IS DISTINCT FROM c.email OR p.language IS DISTINCT FROM c.language
     OR p.sms_enabled <> (c.phone IS NOT NULL) OR p.voice_enabled <> (c.phone IS NOT NULL) OR p.email_enabled <> (c.email IS NOT NULL)
     OR p.push_enabled OR p.lat IS NOT NULL OR p.lng IS NOT NULL OR p.categories <> '{}'`;

/** The recipient row of `id` as the dispatcher reads it. */
const mirrorOf = async (db: TestDatabase, id: string) => {
  const [row] = await db.query(
    `SELECT external, phone_number, email, language, sms_enabled, voice_enabled, email_enabled, push_enabled, sms_stopped, channel_mask,
            categories, alert_types, lat, lng, severity_threshold, frequency, quiet_enabled, weekend_enabled
     FROM alerts.user_preferences WHERE user_id = $1`,
    [id],
  );
  return row ?? null;
};

/**
 * External contacts as recipients (issue #42) on a real database: each contact of a contact group has a recipient row
 * (alerts.user_preferences, `external`) kept exact by the trigger however the contact is written (the API, an import,
 * SQL, a group's deletion), which no area or "everyone" alert concerns, which a STOP from its number stops, and which
 * Beacon never takes for one of its users.
 */
describe('external contacts as recipients', () => {
  const api = new AlertsApi();
  const { call } = api;
  const providers = new ProviderCallers(() => api.service.url, 'https://beacon.example.test');
  let admin: string;
  const db = () => api.db;

  beforeAll(async () => {
    await api.start();
    admin = await api.admin('externals-admin@beacon.local');
    await saveSecrets((sql, params) => api.db.query(sql, params));
  });
  afterAll(() => api.close());

  async function newGroup(name: string): Promise<ContactGroup> {
    const res = await call<ContactGroup>('POST', GROUPS, admin, { name });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function addExternal(groupId: string, contact: { name: string; phone?: string; email?: string; language?: string }) {
    const res = await call<ContactGroupMember>('POST', `${GROUPS}/${groupId}/members`, admin, { kind: 'external', ...contact });
    expect(res.status).toBe(201);
    return res.body;
  }

  async function importCsv(groupId: string, csv: string): Promise<ContactImportResult> {
    const res = await fetch(`${api.service.url}${GROUPS}/${groupId}/import/preview`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      body: csv,
    });
    expect(res.status).toBe(200);
    const preview = (await res.json()) as ContactImportPreview;
    const applied = await call<ContactImportResult>('POST', `${GROUPS}/${groupId}/import`, admin, { token: preview.token });
    expect(applied.status).toBe(200);
    return applied.body;
  }

  /** A Beacon user as they save their preferences (the alerts service's copy of their account e-mail with them). */
  async function user(email: string, prefs: Record<string, unknown> = { alertTypes: ['weather'] }) {
    const id = randomUUID();
    const token = await api.identity.token({ id, email });
    const saved = await call<AlertPreferences>('PUT', '/me/preferences', token, prefs);
    expect(saved.status).toBe(200);
    return { id, token };
  }

  it('mirrors a contact added through the API exactly: its contacts and language, SMS and voice with a phone, e-mail with an address, never push', async () => {
    const group = await newGroup('Road crews');
    const amal = await addExternal(group.id, { name: 'Amal Haddad', phone: '+1 602 555 0142', email: 'Amal@Example.org', language: 'Español' });
    const bo = await addExternal(group.id, { name: 'Bo Chen', email: 'bo@example.org', language: 'zh' });

    expect(await mirrorOf(db(), amal.id)).toEqual({
      external: true,
      phone_number: '+16025550142',
      email: 'Amal@Example.org',
      language: 'es',
      sms_enabled: true,
      voice_enabled: true,
      email_enabled: true,
      push_enabled: false,
      sms_stopped: false,
      // SMS, e-mail and voice (push 1, SMS 2, e-mail 4, voice 8)
      channel_mask: 14,
      categories: [],
      alert_types: [],
      lat: null,
      lng: null,
      // the rest as a new user's defaults: nothing holds their messages
      severity_threshold: 'low',
      frequency: 'immediate',
      quiet_enabled: false,
      weekend_enabled: false,
    });
    expect(await mirrorOf(db(), bo.id)).toMatchObject({ phone_number: null, email: 'bo@example.org', language: 'zh', channel_mask: 4 });
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);

    // removed from the group: their recipient row goes with them
    expect((await call('DELETE', `${GROUPS}/${group.id}/members/${amal.id}`, admin)).status).toBe(200);
    expect(await mirrorOf(db(), amal.id)).toBeNull();
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);
  });

  it('keeps the mirror exact through an import that creates and updates, changes by SQL, and the deletion of the group', async () => {
    const group = await newGroup('Shelter volunteers');
    expect(
      await importCsv(group.id, 'name,phone,email,language\nAnn Lee,+16025550101,ann@example.org,es\nCy Poe,,cy@example.org,fr\nDi Tan,+16025550103,,\n'),
    ).toEqual({
      created: 3,
      updated: 0,
      unchanged: 0,
      rejected: 0,
    });
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);
    const contacts = await db().query<{ id: string; name: string }>(`SELECT id, name FROM alerts.external_contacts WHERE group_id = $1 ORDER BY name`, [
      group.id,
    ]);
    expect(contacts.map((c) => c.name)).toEqual(['Ann Lee', 'Cy Poe', 'Di Tan']);
    const [ann, cy, di] = contacts.map((c) => c.id);

    // an import that updates: a phone added, a language changed
    expect(await importCsv(group.id, 'email,name,phone,language\ncy@example.org,Cy Poe,+16025550102,vi\n')).toMatchObject({ created: 0, updated: 1 });
    expect(await mirrorOf(db(), cy)).toMatchObject({ phone_number: '+16025550102', language: 'vi', sms_enabled: true, voice_enabled: true, channel_mask: 14 });
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);

    // by SQL, as any other writer would: several rows in one statement, an e-mail dropped, a phone dropped
    await db().query(
      `UPDATE alerts.external_contacts SET email = CASE WHEN id = $1 THEN NULL ELSE 'di@example.org' END, language = 'ko' WHERE id = ANY($2::uuid[])`,
      [ann, [ann, di]],
    );
    await db().query(`UPDATE alerts.external_contacts SET phone = NULL WHERE id = $1`, [cy]);
    expect(await mirrorOf(db(), ann)).toMatchObject({ email: null, email_enabled: false, language: 'ko', channel_mask: 10 });
    expect(await mirrorOf(db(), cy)).toMatchObject({ phone_number: null, sms_enabled: false, voice_enabled: false, channel_mask: 4 });
    expect(await mirrorOf(db(), di)).toMatchObject({ email: 'di@example.org', email_enabled: true, channel_mask: 14 });
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);

    // the group deleted: its contacts go by the cascade, and their recipient rows with them
    const other = await newGroup('Other list');
    const kept = await addExternal(other.id, { name: 'Ed Ng', phone: '+16025550105' });
    expect((await call('DELETE', `${GROUPS}/${group.id}`, admin)).status).toBe(200);
    expect(await db().query(`SELECT user_id FROM alerts.user_preferences WHERE user_id = ANY($1::uuid[])`, [[ann, cy, di]])).toEqual([]);
    expect(await mirrorOf(db(), kept.id)).toMatchObject({ external: true, phone_number: '+16025550105' });
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);
  });

  it('refuses an external row with a home, categories or push, whoever writes it', async () => {
    const group = await newGroup('Check');
    const c = await addExternal(group.id, { name: 'Fay Wu', phone: '+16025550106' });
    for (const change of [`lat = 33.4, lng = -111.9`, `categories = '{weather}'`, `push_enabled = true`]) {
      await expect(db().query(`UPDATE alerts.user_preferences SET ${change} WHERE user_id = $1`, [c.id])).rejects.toThrow(/user_preferences_external_check/);
    }
    await expect(
      db().query(
        `INSERT INTO alerts.user_preferences (user_id, external, alert_types, categories, radius_km, lat, lng) VALUES ($1, true, '{}', '{}', 5, 33.4, -111.9)`,
        [randomUUID()],
      ),
    ).rejects.toThrow(/user_preferences_external_check/);
    // a user's row may have all of them
    await db().query(
      `INSERT INTO alerts.user_preferences (user_id, alert_types, categories, radius_km, lat, lng, push_enabled) VALUES ($1, '{weather}', '{weather}', 5, 33.4, -111.9, true)`,
      [randomUUID()],
    );
  });

  it('a contact whose id is already a user’s is refused, and the user’s row left as it was', async () => {
    const group = await newGroup('Clash');
    const someone = await user('clash@example.org', { alertTypes: ['weather'], methods: { push: true } });
    await expect(
      db().query(`INSERT INTO alerts.external_contacts (id, group_id, name, phone) VALUES ($1, $2, 'Clash', '+16025550199')`, [someone.id, group.id]),
    ).rejects.toThrow(/is a Beacon user's/);
    expect(await mirrorOf(db(), someone.id)).toMatchObject({ external: false, phone_number: null, push_enabled: true });
  });

  it('is never eligible for an alert to everyone nor for any located alert, in any category, even a critical one', async () => {
    const group = await newGroup('Eligibility');
    const ext = await addExternal(group.id, { name: 'Gus Orr', phone: '+16025550107', email: 'gus@example.org' });
    // users beside them: one with no home following everything, one at home in Tempe following everything
    const anywhere = await user('anywhere@example.org', { alertTypes: [...PREFERENCE_ALERT_TYPES] });
    const tempe = await user('tempe@example.org', {
      alertTypes: [...PREFERENCE_ALERT_TYPES],
      home: TEMPE,
      radiusMiles: 25,
    });
    const areas: Record<string, Record<string, unknown>> = {
      everyone: { lat: null, lng: null, radius_km: null, area_polygon: null, area_parts: null },
      circle: { lat: TEMPE.lat, lng: TEMPE.lng, radius_km: 20, area_polygon: null, area_parts: null },
      polygon: {
        ...storedAreaColumns(
          toAlertArea({
            area: {
              type: 'polygon',
              points: [
                [33.3, -112.1],
                [33.6, -112.1],
                [33.6, -111.8],
                [33.3, -111.8],
              ],
            },
          }),
        ),
      },
      parts: {
        ...storedAreaColumns(
          toAlertArea({
            area: {
              type: 'multi',
              parts: [
                { type: 'circle', lat: TEMPE.lat, lng: TEMPE.lng, radiusKm: 15, description: 'Tempe' },
                {
                  type: 'polygon',
                  points: [
                    [33.4, -112.2],
                    [33.5, -112.2],
                    [33.5, -112.1],
                  ],
                  description: 'West',
                },
              ],
            },
          }),
        ),
      },
    };
    const categories = await db().query<{ categories: string[] }>(`SELECT categories FROM alerts.user_preferences WHERE user_id = $1`, [anywhere.id]);
    expect(categories[0].categories.sort()).toEqual([...CATEGORIES].sort());

    for (const [shape, area] of Object.entries(areas)) {
      for (const category of CATEGORIES) {
        const columns = { title: 'T', message: 'M', type: 'weather', severity: 'critical', category, channels: '{sms,email,voice}', status: 'active', ...area };
        const names = Object.keys(columns);
        const [{ id }] = await db().query(
          `INSERT INTO alerts.alerts (${names.join(', ')})
           VALUES (${names.map((n, i) => `$${i + 1}${n === 'area_parts' ? '::jsonb' : n === 'area_polygon' ? '::polygon' : ''}`).join(', ')}) RETURNING id`,
          Object.values(columns),
        );
        const [alert] = await db().query<EligibilityAlert>(`SELECT * FROM alerts.alerts WHERE id = $1`, [id]);

        const params = new SqlParams();
        const eligible = (await db().query<{ user_id: string }>(eligibleUsersSql(alert, params), params.values)).map((r) => r.user_id);
        expect([shape, category, eligible.includes(ext.id)]).toEqual([shape, category, false]);
        // the rule does find the users it should (the statement is not empty by accident)
        expect([shape, category, eligible.includes(tempe.id), eligible.includes(anywhere.id)]).toEqual([shape, category, true, shape === 'everyone']);

        const byPredicate = new SqlParams();
        const externals = await db().query(
          `SELECT p.user_id FROM alerts.user_preferences p WHERE p.external AND ${eligiblePredicate(alert, byPredicate)}`,
          byPredicate.values,
        );
        expect([shape, category, externals]).toEqual([shape, category, []]);
      }
    }
  });

  it('a STOP from an external number stops their SMS (not their call or e-mail) and START brings it back, with no code of their own', async () => {
    const group = await newGroup('Stoppers');
    const hal = await addExternal(group.id, { name: 'Hal Ito', phone: '+16025550109', email: 'hal@example.org', language: 'es' });
    expect(await mirrorOf(db(), hal.id)).toMatchObject({ sms_stopped: false, channel_mask: 14 });

    // answered in their language (the mirror's), though no alert went to the number yet
    const stopped = await providers.webhook('webhookInbound', { from: '+16025550109', text: 'STOP', id: 'gw-ext-stop' });
    expect(stopped).toMatchObject({ status: 200, body: { reply: REPLY_WORDS.es.stop } });
    expect(await mirrorOf(db(), hal.id)).toMatchObject({ sms_stopped: true, channel_mask: 12 });

    // a change of the contact keeps the stop (the number is looked up again), and so does a new contact with the number
    await call('DELETE', `${GROUPS}/${group.id}/members/${hal.id}`, admin);
    const again = await addExternal(group.id, { name: 'Hal Ito', phone: '+16025550109', language: 'es' });
    expect(await mirrorOf(db(), again.id)).toMatchObject({ sms_stopped: true, channel_mask: 8 });
    await db().query(`UPDATE alerts.external_contacts SET name = 'Hal I.', email = 'hal@example.org' WHERE id = $1`, [again.id]);
    expect(await mirrorOf(db(), again.id)).toMatchObject({ sms_stopped: true, channel_mask: 12 });

    const started = await providers.webhook('webhookInbound', { from: '+16025550109', text: 'START', id: 'gw-ext-start' });
    expect(started).toMatchObject({ status: 200, body: { reply: REPLY_WORDS.es.start } });
    expect(await mirrorOf(db(), again.id)).toMatchObject({ sms_stopped: false, channel_mask: 14 });
  });

  it('never takes an external contact for a Beacon user: the look-up by account e-mail, an import, the preferences API', async () => {
    const group = await newGroup('Lookups');
    await addExternal(group.id, { name: 'Ivy Nox', email: 'ivy@example.org' });
    // only an external contact has the address: no account has it
    expect(await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'user', email: 'IVY@example.org' })).toMatchObject({
      status: 404,
      body: { code: 'contact_user_not_found' },
    });

    // a user's address in an import is an external contact of the group (a CSV row is one), and the user is still found by it
    const jo = await user('jo@example.org');
    expect(await importCsv(group.id, 'name,email\nJo Bell,jo@example.org\n')).toMatchObject({ created: 1 });
    const [joContact] = await db().query<{ id: string }>(`SELECT id FROM alerts.external_contacts WHERE group_id = $1 AND email_key = 'jo@example.org'`, [
      group.id,
    ]);
    expect(await mirrorOf(db(), joContact.id)).toMatchObject({ external: true, email: 'jo@example.org' });
    // the contact's row is the newer one with the address: the account's is the one found
    const added = await call<ContactGroupMember>('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'user', email: 'jo@example.org' });
    expect(added).toMatchObject({ status: 201, body: { kind: 'user', userId: jo.id } });

    // a token whose id is an external contact's (it cannot happen with random ids) reads defaults and changes nothing
    const intruder = await api.identity.token({ id: joContact.id, email: 'someone@example.org' });
    const read = await call<AlertPreferences>('GET', '/me/preferences', intruder);
    expect(read).toMatchObject({ status: 200, body: { phoneNumber: null, language: null } });
    expect((await call('PUT', '/me/preferences', intruder, { alertTypes: ['weather'], home: TEMPE })).status).toBe(409);
    expect(await mirrorOf(db(), joContact.id)).toMatchObject({ external: true, email: 'jo@example.org', categories: [], lat: null });
    expect(await db().query(MIRROR_FAULTS)).toEqual([]);
  });
});

/**
 * Provider health's "reachable now" (whom an alert to everyone reaches on each channel) on a database of its own, read
 * once (the service keeps the figures 30 seconds): one user with SMS, e-mail and voice, and two external contacts with
 * the same, whom no alert to everyone reaches.
 */
describe("provider health counts Beacon's users only", () => {
  const api = new AlertsApi();
  afterAll(() => api.close());

  it('leaves external contacts out of whom each channel reaches now', async () => {
    await api.start();
    const admin = await api.admin();
    const token = await api.identity.token({ id: randomUUID(), email: 'reachable@example.org' });
    const prefs = { alertTypes: ['weather'], methods: { push: false, sms: true, email: true, voice: true }, phoneNumber: '+16025550300' };
    expect((await api.call('PUT', '/me/preferences', token, prefs)).status).toBe(200);
    const group = await api.call<ContactGroup>('POST', GROUPS, admin, { name: 'Counted' });
    for (const contact of [
      { name: 'Kay One', phone: '+16025550301', email: 'kay@example.org' },
      { name: 'Lu Two', phone: '+16025550302', email: 'lu@example.org' },
    ])
      expect((await api.call('POST', `${GROUPS}/${group.body.id}/members`, admin, { kind: 'external', ...contact })).status).toBe(201);

    const report = await api.call<ChannelHealthReport>('GET', '/admin/channel-health', admin);
    expect(report.status).toBe(200);
    expect(Object.fromEntries(report.body.channels.map((c) => [c.channel, c.reachableNow]))).toEqual({ push: 0, sms: 1, email: 1, voice: 1 });
  });
});

/**
 * The migration on a database that has contacts before it: `up` writes their recipient rows, `down` removes them, the
 * trigger and the column, and up again finds every contact, those added meanwhile too.
 */
describe('ExternalRecipients migration', () => {
  let db: TestDatabase;
  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
  });
  afterAll(async () => {
    await db?.drop();
  });

  it('backfills existing contacts in up, and removes every trace in down', async () => {
    const [{ id: group }] = await db.query(`INSERT INTO alerts.contact_groups (name) VALUES ('Before') RETURNING id`);
    await db.query(`INSERT INTO alerts.external_contacts (group_id, name, phone, language) VALUES ($1, 'Mo', '+16025550401', 'fr')`, [group]);
    const userId = randomUUID();
    await db.query(`INSERT INTO alerts.user_preferences (user_id, alert_types, categories, radius_km) VALUES ($1, '{weather}', '{weather}', 5)`, [userId]);

    const index = alertsDatabase.migrations.findIndex((m) => new m().name === 'ExternalRecipients1764830000001');
    expect(index).toBeGreaterThan(0);
    await migrateDown(db.url, alertsDatabase, alertsDatabase.migrations.length - index);
    expect(
      await db.query(`SELECT 1 FROM information_schema.columns WHERE table_schema = 'alerts' AND table_name = 'user_preferences' AND column_name = 'external'`),
    ).toEqual([]);
    expect(await db.query(`SELECT tgname FROM pg_trigger WHERE tgrelid = 'alerts.external_contacts'::regclass AND NOT tgisinternal`)).toEqual([]);
    expect(await db.query(`SELECT user_id FROM alerts.user_preferences`)).toEqual([{ user_id: userId }]);

    // a contact written while there was no trigger
    await db.query(`INSERT INTO alerts.external_contacts (group_id, name, email) VALUES ($1, 'Ned', 'ned@example.org')`, [group]);
    expect(await migrateUp(db.url, alertsDatabase)).toContain('ExternalRecipients1764830000001');
    expect(await db.query(MIRROR_FAULTS)).toEqual([]);
    expect(await db.query(`SELECT count(*)::int AS n FROM alerts.user_preferences WHERE external`)).toEqual([{ n: 2 }]);
    expect(await db.query(`SELECT external FROM alerts.user_preferences WHERE user_id = $1`, [userId])).toEqual([{ external: false }]);
  });
});
