import { randomUUID } from 'node:crypto';
import { parse } from 'csv-parse/sync';
import type { AdminAlert, Role } from '@beacon/contracts';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(120_000);

/**
 * The history export keeps the second pair of eyes (issue #38): who asked for approval, who approved or rejected and
 * why, a break-glass send and its reason, and a scheduled alert's time, each in a column of its own.
 */
describe('the history export and the approval record', () => {
  const api = new AlertsApi();
  const people = {} as Record<'author' | 'approver' | 'admin', { id: string; email: string; token: string }>;
  const tag = randomUUID().slice(0, 8);

  beforeAll(async () => {
    await api.start();
    const roles: Record<keyof typeof people, Role> = { author: 'publisher', approver: 'approver', admin: 'admin' };
    for (const [name, role] of Object.entries(roles) as [keyof typeof people, Role][]) {
      const id = randomUUID();
      const email = `${name}-${tag}@beacon.local`;
      people[name] = { id, email, token: await api.identity.token({ id, email, role }) };
    }
    expect((await api.call('PUT', '/admin/settings/approval', people.admin.token, { mode: 'all' })).status).toBe(200);
  });

  afterAll(() => api.close());

  const held = async (title: string, extra: Record<string, unknown> = {}) => {
    const res = await api.call<AdminAlert>('POST', '', people.author.token, {
      title: `${title} ${tag}`,
      message: 'Stay away from the river banks until further notice.',
      category: 'weather',
      severity: 'high',
      channels: ['push'],
      lat: 33.4255,
      lng: -111.94,
      radiusKm: 10,
      ...extra,
    });
    expect(res.status).toBe(202);
    return res.body;
  };

  it('names who asked, who decided and why, the break-glass reason, and the time a send is scheduled for', async () => {
    const approved = await held('Approved warning');
    const rejected = await held('Rejected warning');
    const broken = await held('Break-glass warning');
    await held('Waiting warning');
    const sendAt = new Date(Date.now() + 3600_000).toISOString();
    const later = await held('Scheduled warning', { sendAt });

    expect((await api.call('POST', `/${approved.id}/approve`, people.approver.token, { note: 'Gauge readings confirmed' })).status).toBe(200);
    expect((await api.call('POST', `/${rejected.id}/reject`, people.approver.token, { reason: 'Wrong county for this one' })).status).toBe(200);
    expect((await api.call('POST', `/${broken.id}/break-glass`, people.author.token, { reason: 'No approver answers and it is happening' })).status).toBe(200);
    expect((await api.call('POST', `/${later.id}/approve`, people.approver.token, {})).status).toBe(200);

    const res = await fetch(`${api.service.url}/export.csv?search=${tag}`, { headers: { authorization: `Bearer ${people.author.token}` } });
    expect(res.status).toBe(200);
    const [header, ...rows] = parse(await res.text(), { bom: true }) as string[][];
    expect(header).toEqual(expect.arrayContaining(['Created by', 'Send at', 'Sent at', 'Approval', 'Sent without approval']));
    const row = (title: string) => {
      const found = rows.find((r) => r[header.indexOf('Title')] === `${title} ${tag}`);
      expect(found).toBeDefined();
      return (column: string) => found![header.indexOf(column)];
    };

    const asked = `asked by ${people.author.email} at `;
    const a = row('Approved warning');
    expect(a('Created by')).toBe(people.author.email);
    expect(a('Approval')).toMatch(new RegExp(`^approved by ${people.approver.email} at \\S+: Gauge readings confirmed; ${asked}\\S+ \\(all\\)$`));
    expect(a('Sent without approval')).toBe('');
    expect(a('Sent at')).not.toBe('');

    const r = row('Rejected warning');
    expect(r('Approval')).toMatch(new RegExp(`^rejected by ${people.approver.email} at \\S+: Wrong county for this one; ${asked}`));
    expect(r('Sent at')).toBe('');

    const b = row('Break-glass warning');
    expect(b('Sent without approval')).toMatch(new RegExp(`^by ${people.author.email} at \\S+: No approver answers and it is happening$`));
    expect(b('Approval')).toMatch(new RegExp(`^never approved: sent without approval, ${asked}`));

    expect(row('Waiting warning')('Approval')).toMatch(new RegExp(`^awaiting approval, ${asked}\\S+ \\(all\\)$`));
    expect(row('Waiting warning')('Status')).toBe('Awaiting approval');

    const s = row('Scheduled warning');
    expect(s('Send at')).toBe(sendAt);
    expect(s('Status')).toBe('Scheduled');
    expect(s('Sent at')).toBe('');
  });
});
