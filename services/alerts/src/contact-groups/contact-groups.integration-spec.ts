import { randomUUID } from 'node:crypto';
import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { loadEnv } from '@beacon/common';
import {
  CONTACT_IMPORT_LIMITS,
  type ContactGroup,
  type ContactGroupAuditPage,
  type ContactGroupMember,
  type ContactGroupMembersPage,
  type ContactImportPreview,
  type ContactImportResult,
} from '@beacon/contracts';
import { startEdge } from '../../../../infra/edge';
import { EdgeEnv } from '../../../../infra/edge.env';
import { AlertsApi } from '../testing/alerts-api';

jest.setTimeout(60_000);

const GROUPS = '/admin/contact-groups';

/**
 * A file with good rows and every kind of bad row: what the import preview must show, and what confirming it writes.
 * Separators, a BOM, a semicolon-free comma file, names and languages as people write them.
 */
const MIXED_FILE = [
  '\uFEFFName,Phone,E-mail,Language,Notes',
  'Ann Lee,+1 (602) 555-0101,ann.lee@example.org,Spanish,Roads',
  'Bob Roe,0044 20 7946 0958,,fr,',
  'Cy Poe,,cy@example.org,,',
  ',+16025550104,,,no name',
  'Di Tan,602-555-0105,,,no country code',
  'Ed Ng,,ed@example,,bad e-mail',
  'Fay Wu,,,,nothing to reach her by',
  'Gus Orr,+16025550107,,Klingon,',
  `${'N'.repeat(101)},+16025550108,,,`,
  'Ann L.,+16025550101,,,same phone as Ann',
  '',
  'Hal Ito,+1.602.555.0109,hal@example.org,한국어,',
].join('\r\n');

describe('contact groups API', () => {
  const api = new AlertsApi();
  const { call } = api;
  let admin: string;
  let viewer: string;
  let publisher: string;
  let user: string;
  const adminEmail = 'groups-admin@beacon.local';

  /** POSTs a body as it is (the import preview reads the file, not JSON). */
  async function postText<T>(path: string, token: string | null, body: string | ReadableStream, contentType = 'text/csv') {
    const res = await fetch(`${api.service.url}${path}`, {
      method: 'POST',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), 'content-type': contentType },
      body,
      ...(typeof body === 'string' ? {} : { duplex: 'half' }),
    } as RequestInit);
    const text = await res.text();
    return { status: res.status, body: (text ? JSON.parse(text) : null) as T };
  }

  async function getText(path: string, token: string) {
    const res = await fetch(`${api.service.url}${path}`, { headers: { authorization: `Bearer ${token}` } });
    return { status: res.status, headers: res.headers, body: await res.text() };
  }

  const preview = (groupId: string, csv: string) => postText<ContactImportPreview>(`${GROUPS}/${groupId}/import/preview`, admin, csv);
  const confirm = (groupId: string, token: string) => call<ContactImportResult>('POST', `${GROUPS}/${groupId}/import`, admin, { token });
  const members = async (groupId: string, query = '') =>
    (await call<ContactGroupMembersPage>('GET', `${GROUPS}/${groupId}/members?pageSize=200${query}`, admin)).body;
  const audit = async (groupId: string) => (await call<ContactGroupAuditPage>('GET', `${GROUPS}/${groupId}/audit`, admin)).body.items;

  async function newGroup(name: string) {
    const res = await call<ContactGroup>('POST', GROUPS, admin, { name, description: `The ${name} list` });
    expect(res.status).toBe(201);
    return res.body;
  }

  beforeAll(async () => {
    await api.start();
    admin = await api.admin(adminEmail);
    viewer = await api.identity.token({ role: 'viewer', email: 'viewer@beacon.local' });
    publisher = await api.identity.token({ role: 'publisher', email: 'publisher@beacon.local' });
    user = await api.identity.token({ id: randomUUID(), email: 'demo@beacon.local' });
  });

  afterAll(() => api.close());

  it('creates, lists, renames and deletes groups; names are unique regardless of case', async () => {
    const created = await newGroup('School staff');
    expect(created).toMatchObject({ name: 'School staff', description: 'The School staff list', memberCount: 0, externalCount: 0 });

    const taken = await call('POST', GROUPS, admin, { name: '  SCHOOL STAFF ' });
    expect(taken).toMatchObject({ status: 409, body: { code: 'contact_group_name_taken' } });

    expect((await call('POST', GROUPS, admin, { name: '  ' })).body).toMatchObject({ code: 'validation_failed', message: 'Group name is required' });
    expect((await call('POST', GROUPS, admin, { name: 'x'.repeat(101) })).body).toMatchObject({
      code: 'validation_failed',
      message: 'Group name must be at most 100 characters',
    });
    expect((await call('POST', GROUPS, admin, { name: 'Ok', description: 'd'.repeat(501) })).status).toBe(400);
    expect((await call('POST', GROUPS, admin, { name: 'x'.repeat(100), description: 'd'.repeat(500) })).status).toBe(201);

    const other = await newGroup('Road crews');
    expect((await call('PATCH', `${GROUPS}/${other.id}`, admin, { name: 'school Staff' })).body).toMatchObject({ code: 'contact_group_name_taken' });
    const renamed = await call<ContactGroup>('PATCH', `${GROUPS}/${other.id}`, admin, { name: 'Road crews (north)' });
    expect(renamed.body).toMatchObject({ id: other.id, name: 'Road crews (north)', description: 'The Road crews list' });

    const list = await call<ContactGroup[]>('GET', GROUPS, viewer);
    expect(list.body.map((g) => g.name)).toEqual(expect.arrayContaining(['Road crews (north)', 'School staff']));
    expect((await call('GET', `${GROUPS}/${other.id}`, viewer)).body).toEqual(renamed.body);

    expect((await call('DELETE', `${GROUPS}/${other.id}`, admin)).body).toEqual({ ok: true });
    expect((await call('GET', `${GROUPS}/${other.id}`, admin)).body).toMatchObject({ code: 'contact_group_not_found' });
    expect((await call('GET', `${GROUPS}/not-a-uuid`, admin)).status).toBe(404);
    expect((await call('DELETE', `${GROUPS}/${other.id}`, admin)).status).toBe(404);

    // the deletion is kept with who made it, though the group is gone
    const [deleted] = await api.db.query(
      `SELECT action, actor_email, details FROM alerts.contact_group_audit WHERE group_id = $1 AND action = 'group_deleted'`,
      [other.id],
    );
    expect(deleted).toMatchObject({ actor_email: adminEmail, details: { name: 'Road crews (north)', members: { users: 0, externals: 0 } } });
  });

  it('lets staff read and only administrators change groups', async () => {
    const group = await newGroup('On-call nurses');
    const reads = [GROUPS, `${GROUPS}/${group.id}`, `${GROUPS}/${group.id}/members`, `${GROUPS}/${group.id}/audit`];
    for (const path of reads) {
      expect([path, (await call('GET', path, viewer)).status]).toEqual([path, 200]);
      expect([path, (await call('GET', path, user)).status]).toEqual([path, 403]);
      expect([path, (await call('GET', path, null)).status]).toEqual([path, 401]);
    }
    expect((await getText(`${GROUPS}/${group.id}/export`, viewer)).status).toBe(200);
    expect((await getText(`${GROUPS}/${group.id}/export`, user)).status).toBe(403);

    for (const token of [viewer, publisher, user]) {
      expect((await call('POST', GROUPS, token, { name: 'Not allowed' })).status).toBe(403);
      expect((await call('PATCH', `${GROUPS}/${group.id}`, token, { name: 'Not allowed' })).status).toBe(403);
      expect((await call('DELETE', `${GROUPS}/${group.id}`, token)).status).toBe(403);
      expect((await call('POST', `${GROUPS}/${group.id}/members`, token, { kind: 'external', name: 'X', phone: '+16025550100' })).status).toBe(403);
      expect((await postText(`${GROUPS}/${group.id}/import/preview`, token, 'name,phone\nX,+16025550100\n')).status).toBe(403);
      expect((await call('POST', `${GROUPS}/${group.id}/import`, token, { token: 'x' })).status).toBe(403);
    }
    expect((await members(group.id)).total).toBe(0);
  });

  it('imports only the good rows of a file, after confirmation, with each bad row and its reason; again it changes nothing', async () => {
    const group = await newGroup('Flood wardens');

    const first = await preview(group.id, MIXED_FILE);
    expect(first.status).toBe(200);
    expect(first.body.create).toEqual([
      { name: 'Ann Lee', phone: '+16025550101', email: 'ann.lee@example.org', language: 'es' },
      { name: 'Bob Roe', phone: '+442079460958', language: 'fr' },
      { name: 'Cy Poe', email: 'cy@example.org', language: 'en' },
      { name: 'Hal Ito', phone: '+16025550109', email: 'hal@example.org', language: 'ko' },
    ]);
    expect(first.body.update).toEqual([]);
    expect(first.body.unchanged).toBe(0);
    expect(first.body.rejected.map((r) => [r.line, r.code])).toEqual([
      [5, 'missing_name'],
      [6, 'invalid_phone'],
      [7, 'invalid_email'],
      [8, 'missing_contact'],
      [9, 'invalid_language'],
      [10, 'name_too_long'],
      [11, 'duplicate_in_file'],
    ]);
    expect(first.body.rejected[1]).toEqual({
      line: 6,
      values: { name: 'Di Tan', phone: '602-555-0105', email: '', language: '' },
      code: 'invalid_phone',
      message: '"602-555-0105" is not a phone number with its country code: write it in E.164 form, e.g. +16025551234',
    });
    for (const row of first.body.rejected) expect(row.message.length).toBeGreaterThan(10);

    // a preview writes nothing
    expect((await members(group.id)).total).toBe(0);

    const applied = await confirm(group.id, first.body.token);
    expect(applied).toMatchObject({ status: 200, body: { created: 4, updated: 0, unchanged: 0, rejected: 7 } });
    const after = await members(group.id);
    expect(after.items.map((m) => m.kind === 'external' && [m.name, m.phone, m.email, m.language])).toEqual([
      ['Ann Lee', '+16025550101', 'ann.lee@example.org', 'es'],
      ['Bob Roe', '+442079460958', null, 'fr'],
      ['Cy Poe', null, 'cy@example.org', 'en'],
      ['Hal Ito', '+16025550109', 'hal@example.org', 'ko'],
    ]);
    expect((await call<ContactGroup>('GET', `${GROUPS}/${group.id}`, admin)).body).toMatchObject({ memberCount: 4, externalCount: 4 });

    // the same file again: nothing to create or update, the same rows rejected, and confirming it changes nothing
    const again = await preview(group.id, MIXED_FILE);
    expect([again.body.create, again.body.update, again.body.unchanged, again.body.rejected.length]).toEqual([[], [], 4, 7]);
    expect((await confirm(group.id, again.body.token)).body).toEqual({ created: 0, updated: 0, unchanged: 4, rejected: 7 });
    expect(await members(group.id)).toEqual(after);

    // a changed file updates the member it names, by phone or e-mail
    const changed = await preview(group.id, 'email,name,language\nCY@example.org,Cyrus Poe,French\n');
    expect(changed.body).toMatchObject({ create: [], update: [{ name: 'Cyrus Poe', email: 'cy@example.org', language: 'fr' }], unchanged: 0, rejected: [] });
    expect((await confirm(group.id, changed.body.token)).body).toEqual({ created: 0, updated: 1, unchanged: 0, rejected: 0 });
    expect((await members(group.id, '&search=cyrus')).items).toEqual([expect.objectContaining({ name: 'Cyrus Poe', language: 'fr' })]);

    const imports = (await audit(group.id)).filter((e) => e.action === 'import_applied');
    expect(imports.map((e) => [e.details, e.actorEmail])).toEqual([
      [{ created: 0, updated: 1, unchanged: 0, rejected: 0 }, adminEmail],
      [{ created: 0, updated: 0, unchanged: 4, rejected: 7 }, adminEmail],
      [{ created: 4, updated: 0, unchanged: 0, rejected: 7 }, adminEmail],
    ]);
  });

  it('refuses a token whose group changed since its preview (409), writing nothing, and a token used, unknown or of another group', async () => {
    const group = await newGroup('Bus drivers');
    const csv = 'name,phone\nAnn Lee,+16025550101\nBob Roe,+16025550102\n';
    const stale = await preview(group.id, csv);
    const added = await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'external', name: 'Zed Ray', email: 'zed@example.org' });
    expect(added.status).toBe(201);

    expect(await confirm(group.id, stale.body.token)).toMatchObject({ status: 409, body: { code: 'import_preview_stale' } });
    expect((await members(group.id)).items.map((m) => m.kind === 'external' && m.name)).toEqual(['Zed Ray']);

    const fresh = await preview(group.id, csv);
    const other = await newGroup('Bus drivers (spare)');
    expect(await confirm(other.id, fresh.body.token)).toMatchObject({ status: 409, body: { code: 'import_preview_expired' } });
    expect((await confirm(group.id, fresh.body.token)).body).toEqual({ created: 2, updated: 0, unchanged: 0, rejected: 0 });
    expect(await confirm(group.id, fresh.body.token)).toMatchObject({ status: 409, body: { code: 'import_preview_expired' } });
    expect(await confirm(group.id, 'not-a-token')).toMatchObject({ status: 409, body: { code: 'import_preview_expired' } });
    expect((await call('POST', `${GROUPS}/${group.id}/import`, admin, {})).status).toBe(400);
    expect((await members(group.id)).total).toBe(3);
  });

  it('exports a formula-safe CSV that imports back unchanged', async () => {
    const group = await newGroup('Formula people');
    const file = [
      'name,phone,email,language',
      '=HYPERLINK("http://evil.example"),+16025550101,,es',
      '"Lee, Ann ""AL""",,@ann@example.org,',
      '-Minus,+16025550103,minus@example.org,zh',
    ].join('\n');
    // '@ann@example.org' is no address: the row is rejected, the others imported
    const first = await preview(group.id, file);
    expect(first.body.rejected.map((r) => r.code)).toEqual(['invalid_email']);
    await confirm(group.id, first.body.token);

    const exported = await getText(`${GROUPS}/${group.id}/export`, admin);
    expect(exported.status).toBe(200);
    expect(exported.headers.get('content-type')).toMatch(/^text\/csv/);
    expect(exported.headers.get('content-disposition')).toBe('attachment; filename="contact-group-formula-people.csv"');
    const [header, ...lines] = exported.body.split('\r\n');
    expect(header).toBe('"name","phone","email","language"');
    expect(lines.sort()).toEqual(['', `"'-Minus","'+16025550103","minus@example.org","zh"`, `"'=HYPERLINK(""http://evil.example"")","'+16025550101",,"es"`]);

    const back = await preview(group.id, exported.body);
    expect([back.body.create, back.body.update, back.body.unchanged, back.body.rejected]).toEqual([[], [], 2, []]);
  });

  it('adds Beacon users by their account e-mail and external contacts, searches, pages and removes them, each change audited', async () => {
    const group = await newGroup('Hospital on-call');
    const nurse = { id: randomUUID(), email: 'Nurse.Joy@Example.org' };
    const nurseToken = await api.identity.token({ ...nurse });

    // not known to the alerts service until they set up alerts
    expect(await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'user', email: 'nurse.joy@example.org' })).toMatchObject({
      status: 404,
      body: { code: 'contact_user_not_found' },
    });
    expect((await call('PUT', '/me/preferences', nurseToken, { alertTypes: ['weather'] })).status).toBe(200);
    const added = await call<ContactGroupMember>('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'user', email: ' nurse.joy@EXAMPLE.org ' });
    expect(added).toMatchObject({ status: 201, body: { kind: 'user', userId: nurse.id, email: nurse.email, name: null } });
    expect((await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'user', email: nurse.email })).body).toMatchObject({
      code: 'contact_member_exists',
    });
    expect((await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'user', email: 'not an address' })).body).toMatchObject({
      code: 'invalid_contact',
    });

    const ext = await call<ContactGroupMember>('POST', `${GROUPS}/${group.id}/members`, admin, {
      kind: 'external',
      name: 'Dr. Amal Haddad',
      phone: '+1 602 555 0142',
      language: 'Français',
    });
    expect(ext).toMatchObject({ status: 201, body: { kind: 'external', name: 'Dr. Amal Haddad', phone: '+16025550142', email: null, language: 'fr' } });
    expect(ext.body.kind === 'external' && ext.body.contactId).toBe(ext.body.id);
    expect((await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'external', name: 'Someone', phone: '+16025550142' })).body).toMatchObject({
      code: 'contact_member_exists',
      message: 'Dr. Amal Haddad is already in this group with this phone number',
    });
    for (const [body, problem] of [
      [{ kind: 'external', name: '', phone: '+16025550143' }, 'missing_name'],
      [{ kind: 'external', name: 'X' }, 'missing_contact'],
      [{ kind: 'external', name: 'X', phone: '555-0143' }, 'invalid_phone'],
      [{ kind: 'external', name: 'X', email: 'x@' }, 'invalid_email'],
      [{ kind: 'external', name: 'X', email: 'x@example.org', language: 'Elvish' }, 'invalid_language'],
    ] as const) {
      expect((await call('POST', `${GROUPS}/${group.id}/members`, admin, body)).body).toMatchObject({ code: 'invalid_contact', details: { problem } });
    }
    expect((await call('POST', `${GROUPS}/${group.id}/members`, admin, { kind: 'robot', name: 'X' })).status).toBe(400);

    const page = await members(group.id);
    expect(page).toMatchObject({ total: 2, page: 1, pageSize: 200 });
    expect(page.items.map((m) => m.kind)).toEqual(['external', 'user']);
    expect((await members(group.id, '&search=0142')).items.map((m) => m.id)).toEqual([ext.body.id]);
    expect((await members(group.id, '&search=%2B1%20602%20555')).items.map((m) => m.id)).toEqual([ext.body.id]);
    expect((await members(group.id, '&search=JOY')).items.map((m) => m.id)).toEqual([added.body.id]);
    expect((await members(group.id, '&search=%25')).total).toBe(0);
    const second = await call<ContactGroupMembersPage>('GET', `${GROUPS}/${group.id}/members?page=2&pageSize=1`, viewer);
    expect(second.body).toMatchObject({ total: 2, page: 2, pageSize: 1, items: [{ id: added.body.id }] });

    expect((await call('DELETE', `${GROUPS}/${group.id}/members/${added.body.id}`, admin)).body).toEqual({ ok: true });
    expect((await call('DELETE', `${GROUPS}/${group.id}/members/${added.body.id}`, admin)).body).toMatchObject({ code: 'contact_member_not_found' });
    expect((await call('DELETE', `${GROUPS}/${group.id}/members/nope`, admin)).status).toBe(404);
    expect((await members(group.id)).items.map((m) => m.id)).toEqual([ext.body.id]);

    await call('PATCH', `${GROUPS}/${group.id}`, admin, { description: 'Night shift' });
    const trail = await audit(group.id);
    expect(trail.map((e) => e.action)).toEqual(['group_updated', 'member_removed', 'member_added', 'member_added', 'group_created']);
    expect(trail.every((e) => e.actorEmail === adminEmail && e.actorId && !Number.isNaN(Date.parse(e.at)))).toBe(true);
    expect(trail[0].details).toEqual({
      before: { name: 'Hospital on-call', description: 'The Hospital on-call list' },
      after: { name: 'Hospital on-call', description: 'Night shift' },
    });
    expect(trail[1].details).toEqual({ memberId: added.body.id, kind: 'user', userId: nurse.id, email: nurse.email });
    expect(trail[2].details).toMatchObject({ kind: 'external', name: 'Dr. Amal Haddad', phone: '+16025550142' });
  });

  it('refuses files it cannot read whole: wrong type, too large, too many rows, no header, not UTF-8', async () => {
    const group = await newGroup('Limits');
    const path = `${GROUPS}/${group.id}/import/preview`;
    expect((await postText(path, admin, 'name,phone\nA,+16025550101\n', 'application/octet-stream')).body).toMatchObject({
      code: 'unsupported_media_type',
    });
    expect((await postText(path, admin, 'name,phone\nA,+16025550101\n', 'text/plain; charset=utf-8')).status).toBe(200);

    const big = `name,phone\n${'A,+16025550101\n'.repeat(Math.ceil(CONTACT_IMPORT_LIMITS.maxBytes / 15) + 1)}`;
    expect(await postText(path, admin, big)).toMatchObject({ status: 413, body: { code: 'import_too_large' } });
    // sent without a length (chunked): counted as it comes
    const chunked = new ReadableStream({
      start(controller) {
        for (let i = 0; i < 3; i++) controller.enqueue(new TextEncoder().encode(big.slice(i * 1_000_000, (i + 1) * 1_000_000)));
        controller.close();
      },
    });
    expect(await postText(path, admin, chunked)).toMatchObject({ status: 413, body: { code: 'import_too_large' } });

    const rows = Array.from({ length: CONTACT_IMPORT_LIMITS.maxRows + 1 }, (_, i) => `P${i},+1602${String(1_000_000 + i)}`).join('\n');
    expect((await postText(path, admin, `name,phone\n${rows}`)).body).toMatchObject({ code: 'import_too_many_rows' });
    expect((await postText(path, admin, 'Ann,+16025550101\n')).body).toMatchObject({ code: 'import_header_invalid' });
    expect((await postText(path, admin, '')).body).toMatchObject({ code: 'import_header_invalid' });
    expect((await postText(path, admin, 'name,email\n"Ann,a@example.org\n')).body).toMatchObject({ code: 'import_csv_invalid' });
    expect((await postText(path, admin, 'name,email\nA\u0000nn,a@example.org\n')).body).toMatchObject({ code: 'invalid_characters' });
    const latin1 = new Uint8Array([...Buffer.from('name,email\nJos'), 0xe9, ...Buffer.from(',jose@example.org\n')]);
    const res = await fetch(`${api.service.url}${path}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' },
      body: latin1,
    });
    expect([res.status, ((await res.json()) as { code: string }).code]).toEqual([400, 'import_csv_invalid']);

    expect((await postText(`${GROUPS}/${randomUUID()}/import/preview`, admin, 'name,phone\nA,+16025550101\n')).body).toMatchObject({
      code: 'contact_group_not_found',
    });
    expect((await members(group.id)).total).toBe(0);
  });

  it("passes files larger than a JSON body through the edge, up to the import's own limit", async () => {
    const group = await newGroup('Through the edge');
    const edge: Server = await startEdge(loadEnv(EdgeEnv, { PORT: '0', HOST: '127.0.0.1', ALERTS_URL: api.service.origin }));
    try {
      const base = `http://127.0.0.1:${(edge.address() as AddressInfo).port}/api/alerts${GROUPS}/${group.id}/import/preview`;
      const send = async (csv: string) => {
        const res = await fetch(base, { method: 'POST', headers: { authorization: `Bearer ${admin}`, 'content-type': 'text/csv' }, body: csv });
        return { status: res.status, body: (await res.json()) as ContactImportPreview & { code?: string } };
      };
      const rows = Array.from(
        { length: CONTACT_IMPORT_LIMITS.maxRows },
        (_, i) => `Person number ${i} of the county road crews,+1602${1_000_000 + i},p${i}@example.org,es`,
      );
      const file = `name,phone,email,language\n${rows.join('\n')}\n`;
      expect(file.length).toBeGreaterThan(5 * 100 * 1024);
      const ok = await send(file);
      expect([ok.status, ok.body.create?.length]).toEqual([200, CONTACT_IMPORT_LIMITS.maxRows]);
      expect(await send(`${file}${'#'.repeat(CONTACT_IMPORT_LIMITS.maxBytes)}`)).toMatchObject({ status: 413, body: { code: 'import_too_large' } });
    } finally {
      await new Promise((r) => edge.close(r));
    }
  });
});
