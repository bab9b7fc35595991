import { expect, type APIRequestContext } from '@playwright/test';
import { createUser, tokenFor } from './users';

/**
 * A person at `home` who wants emergency alerts of every severity within 5 miles, with `preferences` on top (their
 * language, channels, phone number). Their token is for reading what reached them.
 */
export async function personAt(request: APIRequestContext, tag: string, home: { lat: number; lng: number }, preferences: Record<string, unknown> = {}) {
  const user = await createUser(request, tag);
  const token = await tokenFor(request, user);
  const saved = await request.put('/api/alerts/me/preferences', {
    headers: { Authorization: `Bearer ${token}` },
    data: { alertTypes: ['emergency'], severityThreshold: 'low', home, radiusMiles: 5, methods: { push: false, sms: false, email: true }, ...preferences },
  });
  expect(saved.status(), await saved.text()).toBe(200);
  return { ...user, token };
}

/**
 * An admin's sending call as the console makes it: the audience preview first, then the call with its token (the
 * confirmation). Resolves with the sending call's answer; `sentAt` is when that call left.
 */
export async function confirmedSend(request: APIRequestContext, adminToken: string, path: string, body: Record<string, unknown>) {
  const auth = { Authorization: `Bearer ${adminToken}` };
  const preview = await request.post(`${path}/audience`, { headers: auth, data: body });
  expect(preview.ok(), await preview.text()).toBe(true);
  const { token } = await preview.json();
  const sentAt = Date.now();
  const sent = request.post(path, { headers: { ...auth, 'Audience-Token': token }, data: body }).then(async (res) => {
    expect(res.ok(), await res.text()).toBe(true);
    return res.json();
  });
  return { sentAt, sent };
}
