import { AdminAlert, AlertTemplate } from '@beacon/contracts';
import { AlertsApi } from './testing/alerts-api';

jest.setTimeout(60_000);

/**
 * Half of a surrogate pair on its own (`"\ud800"` in JSON) is not text PostgreSQL can keep in jsonb: a translation
 * holding one answered 500 on create, update and templates. It is refused with 400 `invalid_characters`, and nothing
 * is written.
 */
describe('text that is not well-formed Unicode (real PostgreSQL)', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
  });
  afterAll(() => api.close());

  const LONE = '\ud800';
  const es = { title: 'Corte de agua', message: 'Evite la calle 5 mientras reparan la tubería.' };
  const alert = {
    type: 'Emergency',
    title: 'Water main break',
    message: 'Avoid 5th Street while crews repair a water main.',
    priority: 'medium',
    channels: ['web_push'],
    everyone: true,
    translations: { es },
  };
  const broken = { es: { title: `Corte ${LONE} de agua`, message: es.message } };
  const refused = { statusCode: 400, code: 'invalid_characters', message: expect.stringMatching(/well-formed Unicode/) };
  const count = async (table: string) => Number((await api.db.query(`SELECT count(*) AS n FROM alerts.${table}`))[0].n);

  it('refuses it in a new alert, nothing written', async () => {
    const before = await count('alerts');
    const res = await call('POST', '', admin, { ...alert, translations: broken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused);
    expect(await count('alerts')).toBe(before);
  });

  it('refuses it in an update of a draft, which keeps its text', async () => {
    const draft = await call<AdminAlert>('POST', '', admin, { ...alert, draft: true });
    expect(draft.status).toBe(201);
    const res = await call('POST', `/${draft.body.id}/update`, admin, { translations: broken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused);
    expect((await call<AdminAlert>('GET', `/${draft.body.id}`, admin)).body.translations).toEqual({ es });
  });

  it('refuses it in a template, created or replaced', async () => {
    const template = { name: 'Water main', type: 'Emergency', severity: 'medium', title: alert.title, message: alert.message, channels: ['web_push'] };
    const before = await count('alert_templates');
    expect((await call('POST', '/templates', admin, { ...template, translations: broken })).body).toEqual(refused);
    expect(await count('alert_templates')).toBe(before);

    const saved = await call<AlertTemplate>('POST', '/templates', admin, { ...template, translations: { es } });
    expect(saved.status).toBe(201);
    const res = await call('PUT', `/templates/${saved.body.id}`, admin, { ...template, translations: broken });
    expect(res.status).toBe(400);
    expect(res.body).toEqual(refused);
    expect((await call<AlertTemplate>('GET', `/templates/${saved.body.id}`, admin)).body.translations).toEqual({ es });
  });

  it('keeps well-formed text outside the Basic Multilingual Plane (an emoji is a surrogate pair)', async () => {
    const res = await call<AdminAlert>('POST', '', admin, { ...alert, translations: { es: { ...es, title: 'Corte de agua 🚰' } } });
    expect(res.status).toBe(201);
    expect(res.body.translations.es?.title).toBe('Corte de agua 🚰');
  });
});
