import type { AlertSummary, Page, UserAlert } from '@beacon/contracts';

export const PERSON = { id: '00000000-0000-4000-8000-000000000042', email: 'pat.driver@example.com', role: 'user' } as const;

let seq = 0;
const nextId = () => `00000000-0000-4000-a000-${String(++seq).padStart(12, '0')}`;

export function alertSummary(o: Partial<AlertSummary> = {}): AlertSummary {
  return {
    id: nextId(),
    title: 'Flash flood warning',
    message: 'Move to higher ground now.',
    severity: 'high',
    priority: 'high',
    category: 'weather',
    type: 'Weather',
    status: 'active',
    locationName: null,
    lat: null,
    lng: null,
    radiusKm: null,
    area: null,
    channels: ['push'],
    createdAt: new Date().toISOString(),
    expiresAt: null,
    version: 1,
    allClear: null,
    ...o,
  };
}

export const userAlert = (o: Partial<UserAlert> = {}): UserAlert => ({ ...alertSummary(o), language: 'en', read: false, readAt: null, ...o });

export function pageOf<T>(items: T[], { page = 1, pageSize = 10, total = items.length } = {}): Page<T> {
  return { items, total, page, pageSize, totalPages: Math.max(1, Math.ceil(total / pageSize)) };
}

/** The path and method of a mocked fetch's request. */
export function requestOf(input: RequestInfo | URL): { req: Request; path: string; query: URLSearchParams } {
  const req = input as Request;
  const url = new URL(req.url);
  return { req, path: url.pathname, query: url.searchParams };
}
