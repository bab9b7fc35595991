import type { AdminAlert, Role } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

/**
 * Who may do what in the alerts console (issue #38): a viewer reads everything and changes nothing, a publisher writes
 * and sends, an approver too, an administrator also changes the settings. A plain user reaches none of it.
 */
describe('alerts console roles', () => {
  const api = new AlertsApi();
  const { call } = api;
  const tokens = {} as Record<Role, string>;

  beforeAll(async () => {
    await api.start();
    for (const role of ['user', 'viewer', 'publisher', 'approver', 'admin'] as const)
      tokens[role] = await api.identity.token({ role, email: `${role}@beacon.local` });
  });
  afterAll(() => api.close());

  const TEMPE = { lat: 33.4255, lng: -111.94, radiusKm: 5 };
  const alert = {
    type: 'Emergency',
    title: 'Gas leak on Mill Avenue',
    message: 'Stay away from Mill Avenue between 3rd and 5th.',
    channels: ['sms'],
    ...TEMPE,
  };
  const draft = (token: string) => call<AdminAlert>('POST', '', token, { ...alert, draft: true });

  it('lets a viewer read the whole console: alerts, one alert and its reports, CSV, help requests, CAP sources, templates', async () => {
    const { body: made } = await draft(tokens.publisher);
    const reads = [
      '',
      '/stats',
      '/recent',
      '/export.csv',
      `/${made.id}`,
      `/${made.id}/deliveries`,
      `/${made.id}/deliveries.csv`,
      `/${made.id}/operations`,
      `/${made.id}/versions`,
      `/${made.id}/audit`,
      '/admin/help-requests',
      '/admin/settings/approval',
      '/admin/cap-sources',
      '/templates',
    ];
    // the status alone: the CSV routes answer no JSON
    const statusOf = async (path: string) => (await fetch(`${api.service.url}${path}`, { headers: { authorization: `Bearer ${tokens.viewer}` } })).status;
    const statuses = await Promise.all(reads.map(async (path) => [path, await statusOf(path)]));
    expect(statuses).toEqual(reads.map((path) => [path, 200]));
    // and the same reads stay closed to the public
    expect((await call('GET', '', tokens.user)).body).toMatchObject({ statusCode: 403, code: 'forbidden' });
  });

  it('refuses a viewer every write (403 forbidden), and changes nothing', async () => {
    const { body: made } = await draft(tokens.publisher);
    const writes: [string, string, unknown][] = [
      ['POST', '', alert],
      ['POST', '', { ...alert, draft: true }],
      ['POST', '/audience', alert],
      ['POST', `/${made.id}/send`, {}],
      ['POST', `/${made.id}/cancel`, {}],
      ['POST', '/templates', { name: 'Gas leak', title: alert.title, message: alert.message }],
      ['GET', '/geocode?q=Mill%20Avenue', undefined],
      ['GET', '/admin/settings', undefined],
      ['PUT', '/admin/settings', {}],
      ['POST', '/admin/cap-sources', {}],
    ];
    for (const [method, path, body] of writes) {
      expect([method, path, (await call(method, path, tokens.viewer, body)).body]).toEqual([
        method,
        path,
        expect.objectContaining({ statusCode: 403, code: 'forbidden' }),
      ]);
    }
    expect((await call<AdminAlert>('GET', `/${made.id}`, tokens.viewer)).body.status).toBe('draft');
  });

  it('lets a publisher (and an approver) write, send and cancel, but not change the settings', async () => {
    for (const role of ['publisher', 'approver'] as const) {
      const sent = await call<AdminAlert>('POST', '', tokens[role], alert);
      expect([role, sent.status, sent.body.status]).toEqual([role, 201, 'active']);
      const saved = await draft(tokens[role]);
      expect(saved.body.status).toBe('draft');
      expect((await call<AdminAlert>('POST', `/${saved.body.id}/cancel`, tokens[role], {})).body.status).toBe('cancelled');
      expect((await call('GET', '/admin/settings', tokens[role])).body).toMatchObject({ statusCode: 403, code: 'forbidden' });
      expect((await call('PUT', '/admin/settings', tokens[role], {})).status).toBe(403);
      expect((await call('POST', '/admin/settings/test-alert', tokens[role], {})).status).toBe(403);
      expect((await call('DELETE', `/admin/cap-sources/${saved.body.id}`, tokens[role])).status).toBe(403);
    }
  });

  it("keeps approving and rejecting to approvers and admins: past the role, only the alert's state answers", async () => {
    const { body: made } = await draft(tokens.publisher);
    const reason = { reason: 'The area is the wrong side of the river.' };
    for (const role of ['user', 'viewer', 'publisher'] as const) {
      expect((await call('POST', `/${made.id}/approve`, tokens[role], {})).body).toMatchObject({ statusCode: 403, code: 'forbidden' });
      expect((await call('POST', `/${made.id}/reject`, tokens[role], reason)).body).toMatchObject({ statusCode: 403, code: 'forbidden' });
    }
    for (const role of ['approver', 'admin'] as const) {
      // a draft waits for no approval
      expect((await call('POST', `/${made.id}/approve`, tokens[role], {})).body).toMatchObject({ statusCode: 409, code: 'invalid_alert_status' });
      expect((await call('POST', `/${made.id}/reject`, tokens[role], reason)).body).toMatchObject({ statusCode: 409, code: 'invalid_alert_status' });
    }
    expect((await call('PUT', '/admin/settings/approval', tokens.approver, { mode: 'all' })).status).toBe(403);
  });

  it('lets an administrator change the settings', async () => {
    expect((await call('GET', '/admin/settings', tokens.admin)).status).toBe(200);
    expect((await call('PUT', '/admin/settings', tokens.admin, {})).status).toBe(200);
  });
});
