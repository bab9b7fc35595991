import { randomUUID } from 'node:crypto';
import { AdminAlert, AlertPreferences, SMS_MAX_SEGMENTS, UserAlert } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

/** Alerts in more than one language: the create API's translations, the SMS segment limit, the user's language. */
describe('alert translations API', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
  });

  afterAll(() => api.close());

  const es = { title: 'Corte de agua', message: 'Evite la calle 5 mientras reparan la tubería.' };
  const valid = {
    type: 'Emergency',
    title: 'Water main break',
    message: 'Avoid 5th Street while crews repair a water main.',
    priority: 'medium',
    channels: ['web_push', 'sms'],
    everyone: true,
    translations: { es },
  };

  it('stores the translations and shows them to admins; trims them like the English', async () => {
    const res = await call<AdminAlert>('POST', '', admin, { ...valid, translations: { es: { title: `  ${es.title} `, message: es.message } } });
    expect(res.status).toBe(201);
    expect(res.body.translations).toEqual({ es });
    expect((await call<AdminAlert>('GET', `/${res.body.id}`, admin)).body.translations).toEqual({ es });
    const plain = await call<AdminAlert>('POST', '', admin, { ...valid, translations: undefined });
    expect(plain.body.translations).toEqual({});
  });

  it.each([
    [{ xx: es }, 'validation_failed', 'Unsupported language "xx". Translations may be in es, fr, zh, vi, ko'],
    [{ en: es }, 'validation_failed', 'Unsupported language "en"'],
    [{ es: { title: 'Hola', message: es.message } }, 'validation_failed', 'Spanish title must be at least 5 characters'],
    [{ es: { title: es.title, message: 'x'.repeat(501) } }, 'validation_failed', 'Spanish message too long'],
    [{ fr: { title: es.title } }, 'validation_failed', 'French message must be at least 10 characters'],
    ['es', 'validation_failed', 'translations must be an object'],
  ])('refuses translations %j with %s: %s', async (translations, code, message) => {
    const res = await call('POST', '', admin, { ...valid, translations });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code, message: expect.stringContaining(message) });
  });

  /** A body sent as the JSON text given: a JS object literal's "__proto__" is no own key, so JSON.stringify would drop it. */
  async function rawJson(method: string, path: string, token: string, json: string) {
    const res = await fetch(`${api.service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: json,
    });
    return { status: res.status, body: (await res.json()) as { code: string; message: string } };
  }

  it.each(['__proto__', 'constructor', 'toString'])(
    'refuses a language named %s (an Object.prototype member) on alerts, their edits and templates; nothing is written',
    async (language) => {
      const draft = (await call<AdminAlert>('POST', '', admin, { ...valid, draft: true, translations: {} })).body;
      const counts = () =>
        api.db.query<{ alerts: number; templates: number; updated: number }>(
          `SELECT (SELECT count(*) FROM alerts.alerts)::int AS alerts, (SELECT count(*) FROM alerts.alert_templates)::int AS templates,
                  (SELECT count(*) FROM alerts.alert_audit WHERE action = 'updated')::int AS updated`,
        );
      const before = await counts();
      const translations = `{${JSON.stringify(language)}: ${JSON.stringify(es)}}`;
      const withTranslations = (body: object) => `${JSON.stringify(body).slice(0, -1)}, "translations": ${translations}}`;
      for (const [method, path, body] of [
        ['POST', '', withTranslations({ ...valid, translations: undefined })],
        ['POST', `/${draft.id}/update`, withTranslations({ revision: draft.revision })],
        [
          'POST',
          '/templates',
          withTranslations({ ...valid, name: `Water main ${language}`, translations: undefined, priority: undefined, everyone: undefined }),
        ],
      ] as const) {
        const res = await rawJson(method, path, admin, body);
        expect([path, res.status]).toEqual([path, 400]);
        expect(res.body).toMatchObject({ code: 'validation_failed', message: expect.stringContaining(`Unsupported language "${language}"`) });
      }
      expect(await counts()).toEqual(before);
      expect((await call<AdminAlert>('GET', `/${draft.id}`, admin)).body).toMatchObject({ translations: {}, revision: draft.revision });
    },
  );

  it('refuses, on create and in the audience preview, an SMS over the segment limit in any language, naming it', async () => {
    const long = { ...valid, translations: { es: { title: 'Corte de agua 🚰', message: '🚰'.repeat(400) } } };
    for (const path of ['', '/audience']) {
      const res = await call('POST', path, admin, long);
      expect(res.status).toBe(400);
      expect(res.body).toMatchObject({
        code: 'sms_too_long',
        message: expect.stringMatching(new RegExp(`^The Spanish SMS would take \\d+ segments \\(UCS-2, \\d+ units\\); at most ${SMS_MAX_SEGMENTS}`)),
        details: { maxSegments: SMS_MAX_SEGMENTS, languages: [{ language: 'es', encoding: 'UCS-2' }] },
      });
    }
    // The same text without SMS goes.
    expect((await call('POST', '', admin, { ...long, channels: ['web_push'] })).status).toBe(201);
  });

  it("keeps the user's language in their preferences, validated; null until chosen", async () => {
    const token = await api.identity.token({ id: randomUUID(), email: `u-${randomUUID().slice(0, 8)}@example.test` });
    expect((await call<AlertPreferences>('GET', '/me/preferences', token)).body.language).toBeNull();
    const bad = await call('PUT', '/me/preferences', token, { language: 'xx' });
    expect(bad.status).toBe(400);
    expect(bad.body).toMatchObject({ code: 'validation_failed', message: 'language must be one of en, es, fr, zh, vi, ko' });
    expect((await call<AlertPreferences>('PUT', '/me/preferences', token, { language: 'es' })).body.language).toBe('es');
    expect((await call<AlertPreferences>('GET', '/me/preferences', token)).body.language).toBe('es');
    // Another change leaves it alone; null puts it back to English.
    expect((await call<AlertPreferences>('PUT', '/me/preferences', token, { frequency: 'daily' })).body.language).toBe('es');
    expect((await call<AlertPreferences>('PUT', '/me/preferences', token, { language: null })).body.language).toBeNull();
  });

  it('shows each user an active alert in their language, with English where it has none', async () => {
    const alert = (await call<AdminAlert>('POST', '', admin, { ...valid, channels: ['web_push'] })).body;
    const reader = async (language?: string) => {
      const token = await api.identity.token({ id: randomUUID(), email: `u-${randomUUID().slice(0, 8)}@example.test` });
      if (language) await call('PUT', '/me/preferences', token, { language });
      return token;
    };
    for (const [language, want] of [
      ['es', { ...es, language: 'es' }],
      ['fr', { title: valid.title, message: valid.message, language: 'en' }],
      [undefined, { title: valid.title, message: valid.message, language: 'en' }],
    ] as const) {
      const token = await reader(language);
      const one = await call<UserAlert>('GET', `/me/alerts/${alert.id}`, token);
      expect(one.body).toMatchObject(want);
      const active = await call<UserAlert[]>('GET', '/me/alerts/active', token);
      expect(active.body.find((a) => a.id === alert.id)).toMatchObject(want);
    }
  });
});
