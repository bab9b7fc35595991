import type { ReactElement } from 'react';
import type { ContactGroup, ContactGroupAuditEntry, ContactGroupMember, ContactImportPreview, ContactImportResult } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { requestOf } from '@/features/alerts/test-utils';

export const ADMIN = { id: '00000000-0000-4000-8000-0000000000ad', email: 'chief.ops@beacon.local', role: 'admin' } as const;
export const VIEWER = { id: '00000000-0000-4000-8000-0000000000a1', email: 'watch.desk@beacon.local', role: 'viewer' } as const;

/** Renders one contact groups screen at `path` (started at `route`), signed in as an admin or a viewer. */
export function renderAs(who: 'admin' | 'viewer', ui: ReactElement, { path = '/', route = path }: { path?: string; route?: string } = {}) {
  return renderSignedIn(ui, { user: { ...(who === 'admin' ? ADMIN : VIEWER) }, path, route });
}

export function group(o: Partial<ContactGroup> = {}): ContactGroup {
  return {
    id: 'g-1',
    name: 'School staff',
    description: 'Teachers and office staff of Harbor Elementary',
    memberCount: 0,
    externalCount: 0,
    createdAt: '2026-11-20T09:00:00.000Z',
    updatedAt: '2026-11-21T09:00:00.000Z',
    ...o,
  };
}

export const userMember = (o: Partial<Extract<ContactGroupMember, { kind: 'user' }>> = {}): ContactGroupMember => ({
  id: 'm-user-1',
  kind: 'user',
  userId: '00000000-0000-4000-8000-000000000042',
  email: 'pat.driver@example.com',
  name: 'Pat Driver',
  addedAt: '2026-11-21T09:00:00.000Z',
  ...o,
});

export const externalMember = (o: Partial<Extract<ContactGroupMember, { kind: 'external' }>> = {}): ContactGroupMember => ({
  id: 'm-ext-1',
  kind: 'external',
  contactId: 'c-1',
  name: 'Ana Ruiz',
  phone: '+15551230001',
  email: null,
  language: 'es',
  addedAt: '2026-11-21T09:05:00.000Z',
  ...o,
});

/** A request the fake server received: method, path, query, and its body (JSON parsed, or the text as sent). */
export interface Received {
  method: string;
  path: string;
  query: URLSearchParams;
  contentType: string | null;
  body: unknown;
}

/**
 * An in-memory contact groups API behind a mocked fetch: groups, members, audit, and import answers set by each
 * spec. Every request is recorded in `received`.
 */
export function fakeContactGroupsApi(initial: { groups?: ContactGroup[]; members?: Record<string, ContactGroupMember[]> } = {}) {
  const state = {
    groups: initial.groups ?? [group()],
    members: initial.members ?? ({} as Record<string, ContactGroupMember[]>),
    audit: [] as ContactGroupAuditEntry[],
    received: [] as Received[],
    /** What POST .../import/preview answers. */
    preview: null as ContactImportPreview | null,
    /** What POST .../import answers: a result, or a refusal. */
    importAnswer: { status: 200, body: { created: 0, updated: 0, unchanged: 0, rejected: 0 } as ContactImportResult | object },
    /** What POST .../members answers instead of adding, when set. */
    addRefusal: null as { status: number; body: object } | null,
  };
  let seq = 0;
  const membersOf = (id: string) => (state.members[id] ??= []);
  const counts = (g: ContactGroup): ContactGroup => ({
    ...g,
    memberCount: state.members[g.id]?.length ?? g.memberCount,
    externalCount: state.members[g.id]?.filter((m) => m.kind === 'external').length ?? g.externalCount,
  });
  const notFound = () => json({ statusCode: 404, code: 'not_found', message: 'Contact group not found' }, 404);

  global.fetch = jest.fn(async (input: RequestInfo | URL, init?: RequestInit) => {
    // RTK Query passes a Request; the CSV download a URL and its headers
    const { req, path, query } = requestOf(input instanceof Request ? input : new Request(input, init));
    const contentType = req.headers.get('content-type');
    const raw = req.method === 'GET' || req.method === 'DELETE' ? '' : await req.text();
    const body = raw && contentType?.includes('json') ? JSON.parse(raw) : raw || undefined;
    state.received.push({ method: req.method, path, query, contentType, body });
    const at = (p: RegExp) => p.exec(path);

    if (path === '/api/alerts/admin/contact-groups') {
      if (req.method === 'POST') {
        const created = group({
          id: `g-new-${++seq}`,
          name: (body as { name: string }).name,
          description: (body as { description?: string }).description ?? '',
        });
        state.groups = [...state.groups, created];
        return json(created, 201);
      }
      return json(state.groups.map(counts));
    }
    let m = at(/^\/api\/alerts\/admin\/contact-groups\/([^/]+)$/);
    if (m) {
      const g = state.groups.find((x) => x.id === m![1]);
      if (!g) return notFound();
      if (req.method === 'PATCH') {
        Object.assign(g, body as object);
        return json(counts(g));
      }
      if (req.method === 'DELETE') {
        state.groups = state.groups.filter((x) => x !== g);
        return json({ ok: true });
      }
      return json(counts(g));
    }
    m = at(/^\/api\/alerts\/admin\/contact-groups\/([^/]+)\/members$/);
    if (m) {
      const id = m[1];
      if (req.method === 'POST') {
        if (state.addRefusal) return json(state.addRefusal.body, state.addRefusal.status);
        const b = body as { kind: 'user'; email: string } | { kind: 'external'; name: string; phone?: string; email?: string; language?: 'en' };
        const added =
          b.kind === 'user'
            ? userMember({ id: `m-${++seq}`, email: b.email, name: null })
            : externalMember({ id: `m-${++seq}`, name: b.name, phone: b.phone ?? null, email: b.email ?? null, language: b.language ?? 'en' });
        membersOf(id).push(added);
        return json(added, 201);
      }
      const q = (query.get('search') ?? '').toLowerCase();
      const page = Number(query.get('page') ?? 1);
      const pageSize = Number(query.get('pageSize') ?? 50);
      const matching = membersOf(id).filter((x) => !q || [x.name, x.email, x.kind === 'external' ? x.phone : ''].some((v) => v?.toLowerCase().includes(q)));
      return json({ items: matching.slice((page - 1) * pageSize, page * pageSize), total: matching.length, page, pageSize });
    }
    m = at(/^\/api\/alerts\/admin\/contact-groups\/([^/]+)\/members\/([^/]+)$/);
    if (m && req.method === 'DELETE') {
      state.members[m[1]] = membersOf(m[1]).filter((x) => x.id !== m![2]);
      return json({ ok: true });
    }
    if (at(/^\/api\/alerts\/admin\/contact-groups\/[^/]+\/import\/preview$/))
      return state.preview ? json(state.preview) : json({ message: 'no preview set' }, 500);
    if (at(/^\/api\/alerts\/admin\/contact-groups\/[^/]+\/import$/)) return json(state.importAnswer.body, state.importAnswer.status);
    if (at(/^\/api\/alerts\/admin\/contact-groups\/[^/]+\/audit$/)) return json({ items: state.audit, total: state.audit.length, page: 1, pageSize: 50 });
    if (at(/^\/api\/alerts\/admin\/contact-groups\/[^/]+\/export$/))
      return new Response('name,phone,email,language\r\nAna Ruiz,+15551230001,,es\r\n', { status: 200, headers: { 'content-type': 'text/csv' } });
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;

  return {
    state,
    /** The requests received with this method whose path ends with `suffix`. */
    sent: (method: string, suffix: string | RegExp) =>
      state.received.filter((r) => r.method === method && (typeof suffix === 'string' ? r.path.endsWith(suffix) : suffix.test(r.path))),
  };
}
