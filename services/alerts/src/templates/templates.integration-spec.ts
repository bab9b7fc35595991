import { randomUUID } from 'node:crypto';
import { AlertTemplate, SMS_MAX_SEGMENTS } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

describe('alert templates API', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;
  let user: string;

  beforeAll(async () => {
    await api.start();
    admin = await api.admin();
    user = await api.identity.token({ id: randomUUID(), email: 'demo@beacon.local' });
  });

  afterAll(() => api.close());

  const flood = {
    name: 'Flash flood',
    type: 'Weather',
    severity: 'high',
    title: 'Flash flood warning',
    message: 'Flash flooding is expected in low-lying areas. Move to higher ground.',
    translations: { es: { title: 'Aviso de inundación repentina', message: 'Se esperan inundaciones repentinas. Suba a terreno alto.' } },
    channels: ['web_push', 'sms'],
    radiusKm: 15,
  };

  it('ships the wrong-way driver template, in English and Spanish', async () => {
    const res = await call<AlertTemplate[]>('GET', '/templates', admin);
    expect(res.status).toBe(200);
    const wrongWay = res.body.find((t) => t.name === 'Wrong-way driver');
    expect(wrongWay).toMatchObject({
      type: 'Traffic',
      category: 'traffic',
      severity: 'critical',
      title: 'Wrong-way driver reported',
      channels: ['push', 'sms'],
      radiusKm: 10,
      translations: { es: { title: 'Conductor en sentido contrario' } },
    });
  });

  it('is for admins only', async () => {
    expect((await call('GET', '/templates', user)).status).toBe(403);
    expect((await call('POST', '/templates', user, flood)).status).toBe(403);
    expect((await call('GET', '/templates', null)).status).toBe(401);
  });

  it('creates, reads, replaces and deletes a template', async () => {
    const created = await call<AlertTemplate>('POST', '/templates', admin, flood);
    expect(created.status).toBe(201);
    expect(created.body).toMatchObject({
      name: 'Flash flood',
      type: 'Weather',
      category: 'weather',
      severity: 'high',
      title: flood.title,
      message: flood.message,
      translations: flood.translations,
      channels: ['push', 'sms'],
      radiusKm: 15,
    });
    const id = created.body.id;
    expect((await call<AlertTemplate>('GET', `/templates/${id}`, admin)).body).toEqual(created.body);

    const replaced = await call<AlertTemplate>('PUT', `/templates/${id}`, admin, {
      ...flood,
      name: 'Flash flood (river)',
      translations: {},
      radiusKm: undefined,
    });
    expect(replaced.status).toBe(200);
    expect(replaced.body).toMatchObject({ id, name: 'Flash flood (river)', translations: {}, radiusKm: null });
    expect((await call<AlertTemplate[]>('GET', '/templates', admin)).body.map((t) => t.name)).toContain('Flash flood (river)');

    expect((await call('DELETE', `/templates/${id}`, admin)).body).toEqual({ ok: true });
    expect((await call('GET', `/templates/${id}`, admin)).body).toMatchObject({ code: 'template_not_found' });
    expect((await call('DELETE', `/templates/${id}`, admin)).status).toBe(404);
    expect((await call('PUT', `/templates/${id}`, admin, flood)).status).toBe(404);
    expect((await call('GET', '/templates/not-a-uuid', admin)).status).toBe(404);
  });

  it('refuses a name already taken, whatever its case, with 409 template_name_taken', async () => {
    const first = await call<AlertTemplate>('POST', '/templates', admin, { ...flood, name: 'Boil water notice', category: 'health', type: undefined });
    expect(first.status).toBe(201);
    expect(first.body.type).toBe('Emergency');
    const again = await call('POST', '/templates', admin, { ...flood, name: 'BOIL WATER NOTICE' });
    expect(again.status).toBe(409);
    expect(again.body).toMatchObject({ code: 'template_name_taken', message: expect.stringContaining('BOIL WATER NOTICE') });
    const other = await call<AlertTemplate>('POST', '/templates', admin, { ...flood, name: 'Heat advisory' });
    expect((await call('PUT', `/templates/${other.body.id}`, admin, { ...flood, name: 'boil water notice' })).status).toBe(409);
  });

  it.each([
    [{ name: '' }, 'Template name is required'],
    [{ name: 'x'.repeat(101) }, 'Template name must be at most 100 characters'],
    [{ title: 'Hi' }, 'Title must be at least 5 characters'],
    [{ translations: { es: { title: 'Hola', message: 'Mensaje largo suficiente' } } }, 'Spanish title must be at least 5 characters'],
    [{ translations: { xx: { title: 'Hello there', message: 'Long enough message' } } }, 'Unsupported language "xx"'],
    [{ channels: [] }, 'Select at least one channel'],
    [{ severity: 'extreme' }, 'Severity must be one of critical, high, medium, low'],
    [{ radiusKm: 0 }, 'Radius must be a number from 1 to 1000 km'],
  ])('validates %j like an alert', async (change, message) => {
    const res = await call('POST', '/templates', admin, { ...flood, name: `T ${randomUUID()}`, ...change });
    expect(res.status).toBe(400);
    expect((res.body as { message: string }).message).toContain(message);
  });

  it('refuses a template whose SMS would be too long in one of its languages', async () => {
    const res = await call('POST', '/templates', admin, {
      ...flood,
      name: 'Emoji storm',
      translations: { es: { title: 'Tormenta 🌩️', message: '🌩️'.repeat(250) } },
    });
    expect(res.status).toBe(400);
    expect(res.body).toMatchObject({ code: 'sms_too_long', details: { maxSegments: SMS_MAX_SEGMENTS, languages: [{ language: 'es', encoding: 'UCS-2' }] } });
    // Without SMS, the length is the e-mail's and push's business only.
    expect(
      (
        await call('POST', '/templates', admin, {
          ...flood,
          name: 'Emoji storm',
          channels: ['push'],
          translations: { es: { title: 'Tormenta', message: '🌩️'.repeat(250) } },
        })
      ).status,
    ).toBe(201);
  });
});
