import { waitFor } from '@testing-library/react';
import { DEFAULT_PREFERENCES, type Page, type UserAlert } from '@beacon/contracts';
import { makeStore } from '@/app/store';
import { signedIn } from '@/features/auth/auth.slice';
import { alertsApi, applyNewUserAlert } from '@/features/alerts/alerts.api';
import { alertSummary, pageOf, PERSON, userAlert } from '@/features/alerts/test-utils';
import { jsonResponse as json } from '@/test/json-response';
import { connectivity, resetConnectivity } from './connectivity';
import { forgetKeptAnswers, keptRequestKey, MAX_KEPT, keepAnswer, keptAnswer } from './kept-responses';
import { keepLiveChanges } from './keep-live-changes';

/** The network: up (answering with `answer`) or down (every fetch fails as a browser's does offline). */
let online: boolean;
let answer: (path: string) => Response;
const LIST = { severity: '', search: '', unread: false } as const;

beforeEach(() => {
  localStorage.clear();
  forgetKeptAnswers();
  resetConnectivity();
  online = true;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    if (!online) throw new TypeError('Failed to fetch');
    return answer(new URL((input as Request).url).pathname);
  }) as unknown as typeof fetch;
});

function signedInStore(id: string = PERSON.id) {
  const store = makeStore();
  store.dispatch(signedIn({ ...PERSON, id }));
  return store;
}

describe('offline copies of the person’s answers (issue #40)', () => {
  it('answers a list and the preferences from the kept copy when Beacon cannot be reached, across a reload', async () => {
    const flood = userAlert({ title: 'Flash flood warning' });
    answer = (path) => (path === '/api/alerts/me/preferences' ? json(DEFAULT_PREFERENCES) : json(pageOf([flood])));
    const before = makeStore();
    before.dispatch(signedIn(PERSON));
    await before.dispatch(alertsApi.endpoints.myAlerts.initiate(LIST));
    await before.dispatch(alertsApi.endpoints.preferences.initiate());
    expect(connectivity().offlineSince).toBeNull();
    const fetchedAt = connectivity().lastUpdatedAt;
    expect(fetchedAt).not.toBeNull();

    // offline, and a new store: the page reloaded
    online = false;
    resetConnectivity();
    const after = signedInStore();
    const list = await after.dispatch(alertsApi.endpoints.myAlerts.initiate(LIST));
    expect(list.isError).toBe(false);
    expect(list.data?.pages[0].items.map((a) => a.title)).toEqual(['Flash flood warning']);
    const prefs = await after.dispatch(alertsApi.endpoints.preferences.initiate());
    expect(prefs.data?.methods).toEqual(DEFAULT_PREFERENCES.methods);
    expect(connectivity().offlineSince).not.toBeNull();
    // the time shown is when the service last answered, not now
    expect(connectivity().lastUpdatedAt).toBe(fetchedAt);
  });

  it('keeps a Refresh offline from wiping the list: the refetch answers with what was on screen, live alerts included', async () => {
    const first = userAlert({ title: 'Road closed on Main St' });
    answer = () => json(pageOf([first]));
    const store = signedInStore();
    const stop = keepLiveChanges(store);
    await store.dispatch(alertsApi.endpoints.myAlerts.initiate(LIST));
    // an alert heard on the socket after the fetch
    applyNewUserAlert(store.dispatch, store.getState(), { ...alertSummary({ title: 'Wrong-way driver on I-17', severity: 'critical' }), language: 'en' });
    // the store tells its subscribers in batches
    await waitFor(() => expect((keptAnswer(PERSON.id, 'api/alerts/me/alerts?page=1')?.data as Page<UserAlert>).items).toHaveLength(2));

    online = false;
    const refreshed = await store.dispatch(alertsApi.endpoints.myAlerts.initiate(LIST, { forceRefetch: true }));
    stop();
    expect(refreshed.isError).toBe(false);
    expect(refreshed.data?.pages[0].items.map((a) => a.title)).toEqual(['Wrong-way driver on I-17', 'Road closed on Main St']);
  });

  it('still fails offline for what was never kept: a search, another person’s list, a request never made', async () => {
    answer = () => json(pageOf([userAlert()]));
    const store = signedInStore();
    await store.dispatch(alertsApi.endpoints.myAlerts.initiate(LIST));
    await store.dispatch(alertsApi.endpoints.myAlerts.initiate({ ...LIST, search: 'flood' }));

    online = false;
    const searched = await store.dispatch(alertsApi.endpoints.myAlerts.initiate({ ...LIST, search: 'flood' }, { forceRefetch: true }));
    expect(searched.isError).toBe(true);
    expect(searched.error).toMatchObject({ code: 'network_error' });
    const someoneElse = await signedInStore('00000000-0000-4000-8000-000000000099').dispatch(alertsApi.endpoints.myAlerts.initiate(LIST));
    expect(someoneElse.isError).toBe(true);
    const unread = await store.dispatch(alertsApi.endpoints.unreadCount.initiate());
    expect(unread.isError).toBe(true);
  });

  it('an error answer is not "offline": it stays an error and the indicator stays off', async () => {
    answer = () => json({ statusCode: 503, code: 'service_unavailable', message: 'down' }, 503);
    const res = await signedInStore().dispatch(alertsApi.endpoints.myAlerts.initiate(LIST));
    expect(res.error).toMatchObject({ statusCode: 503 });
    expect(connectivity().offlineSince).toBeNull();
  });

  it('keeps the answers about the person’s own alerts and settings, and never another call or a search', () => {
    expect(keptRequestKey({ url: 'api/alerts/me/alerts', params: { page: 1, unread: true } })).toBe('api/alerts/me/alerts?page=1&unread=true');
    expect(keptRequestKey('api/alerts/me/alerts?pageSize=1&page=1')).toBe('api/alerts/me/alerts?page=1&pageSize=1');
    expect(keptRequestKey('api/alerts/me/alerts/unread-count')).toBe('api/alerts/me/alerts/unread-count');
    expect(keptRequestKey('api/alerts/me/preferences')).toBe('api/alerts/me/preferences');
    expect(keptRequestKey({ url: 'api/alerts/me/preferences', method: 'PUT' })).toBeNull();
    expect(keptRequestKey({ url: 'api/alerts/me/alerts', params: { search: 'flood', page: 1 } })).toBeNull();
    expect(keptRequestKey('api/incidents/community/posts')).toBeNull();
    expect(keptRequestKey('api/alerts/admin/settings')).toBeNull();
  });

  it('keeps at most MAX_KEPT answers, dropping the oldest', () => {
    for (let i = 0; i <= MAX_KEPT; i++) keepAnswer(PERSON.id, `api/alerts/me/alerts?page=${i}`, { i }, 1000 + i);
    expect(keptAnswer(PERSON.id, 'api/alerts/me/alerts?page=0')).toBeNull();
    expect(keptAnswer(PERSON.id, `api/alerts/me/alerts?page=${MAX_KEPT}`)?.data).toEqual({ i: MAX_KEPT });
  });
});
