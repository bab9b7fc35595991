import { act, render, screen, waitFor } from '@testing-library/react';
import { Provider } from 'react-redux';
import type { AuthChangeEvent, Session } from '@supabase/auth-js';
import { makeStore } from '@/app/store';
import { auth } from '@/features/auth/auth-client';
import { signedIn } from '@/features/auth/auth.slice';
import { alertsApi } from '@/features/alerts/alerts.api';
import { pageOf, PERSON, userAlert } from '@/features/alerts/test-utils';
import { jsonResponse as json } from '@/test/json-response';
import { resetFakeSocket, setConnected } from '@/test/fake-socket';
import { clockTime } from './clock-time';
import { resetConnectivity } from './connectivity';
import { forgetKeptAnswers, keepAnswer, keptAnswer } from './kept-responses';
import { OfflineKeeper } from './OfflineKeeper';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

let listRequests: number;
let online: boolean;
let authEvent: (event: AuthChangeEvent, session: Session | null) => void;
const toWorker: unknown[] = [];

beforeEach(() => {
  localStorage.clear();
  forgetKeptAnswers();
  resetConnectivity();
  resetFakeSocket();
  listRequests = 0;
  online = true;
  toWorker.length = 0;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    if (!online) throw new TypeError('Failed to fetch');
    if (new URL((input as Request).url).pathname === '/api/alerts/me/alerts') listRequests += 1;
    return json(pageOf([userAlert({ title: 'Flash flood warning' })]));
  }) as unknown as typeof fetch;
  jest.spyOn(auth, 'onAuthStateChange').mockImplementation((callback) => {
    authEvent = callback as typeof authEvent;
    return { data: { subscription: { id: 'spec', callback, unsubscribe() {} } } } as never;
  });
  Object.defineProperty(navigator, 'serviceWorker', {
    value: { ready: Promise.resolve({ active: { postMessage: (m: unknown) => toWorker.push(m) } }) },
    configurable: true,
  });
});

afterEach(() => {
  jest.restoreAllMocks();
  Reflect.deleteProperty(navigator, 'serviceWorker');
});

function renderShell(user: typeof PERSON | null = PERSON) {
  const store = makeStore();
  if (user) store.dispatch(signedIn(user));
  render(
    <Provider store={store}>
      <OfflineKeeper />
    </Provider>,
  );
  return store;
}

const indicator = () => screen.getByRole('status');

describe('the offline indicator in the shell (issue #40)', () => {
  it('says nothing online; offline, says since when and how old what the screen shows is', async () => {
    const fetchedAt = new Date('2026-03-05T13:58:00').getTime();
    keepAnswer(PERSON.id, 'api/alerts/me/alerts?page=1', pageOf([]), fetchedAt);
    renderShell();
    expect(indicator()).toBeEmptyDOMElement();

    const wentOffline = Date.now();
    act(() => {
      window.dispatchEvent(new Event('offline'));
    });
    expect(indicator()).toHaveTextContent('You are offline. Beacon shows what it last knew and catches up when you are back online.');
    expect(indicator()).toHaveTextContent(`Offline since ${clockTime(wentOffline)}, last updated ${clockTime(fetchedAt)}.`);

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(indicator()).toBeEmptyDOMElement();
  });

  it('comes on when a request cannot reach Beacon, though the browser thinks it is online', async () => {
    const store = renderShell();
    online = false;
    await act(() => store.dispatch(alertsApi.endpoints.myAlerts.initiate({})));
    expect(indicator()).toHaveTextContent('You are offline.');
  });
});

describe('catching up and forgetting (issue #40)', () => {
  it('reads the alert lists again when the browser is back online and when the socket reconnects', async () => {
    const store = renderShell();
    store.dispatch(alertsApi.endpoints.myAlerts.initiate({}));
    await waitFor(() => expect(listRequests).toBe(1));

    act(() => {
      window.dispatchEvent(new Event('offline'));
      window.dispatchEvent(new Event('online'));
    });
    await waitFor(() => expect(listRequests).toBe(2));

    // the first connection came after the list was read: what was sent between the two is read again
    act(() => setConnected(true));
    await waitFor(() => expect(listRequests).toBe(3));
    act(() => setConnected(false));
    act(() => setConnected(true));
    await waitFor(() => expect(listRequests).toBe(4));
  });

  it('reads nothing again when the socket connects before any list was read', async () => {
    const store = renderShell();
    act(() => setConnected(true));
    store.dispatch(alertsApi.endpoints.myAlerts.initiate({}));
    await waitFor(() => expect(listRequests).toBe(1));
    await act(async () => {
      await new Promise((r) => setTimeout(r, 50));
    });
    expect(listRequests).toBe(1);
  });

  it('asks the service worker to keep the app for a signed-in person, and signing out forgets it all', async () => {
    keepAnswer(PERSON.id, 'api/alerts/me/preferences', { kept: true });
    renderShell();
    await waitFor(() => expect(toWorker).toEqual([expect.objectContaining({ type: 'beacon:keep-shell', assets: expect.any(Array) })]));
    act(() => authEvent('SIGNED_OUT', null));
    expect(keptAnswer(PERSON.id, 'api/alerts/me/preferences')).toBeNull();
    await waitFor(() => expect(toWorker).toContainEqual({ type: 'beacon:forget-shell' }));
  });

  it('keeps nothing for a visitor who is not signed in', async () => {
    renderShell(null);
    await act(async () => {
      await Promise.resolve();
    });
    expect(toWorker).toEqual([]);
  });
});
