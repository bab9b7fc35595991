import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_PREFERENCES, type AlertPreferences, type UserAlert } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { alertsApi } from './alerts.api';
import { resetFakeSocket, serverSends } from '@/test/fake-socket';
import { PERSON, pageOf, requestOf, userAlert } from './test-utils';
import { UserAlertsPage } from './UserAlertsPage';
import { WarningLayer } from '@/features/warnings';
import { inLanguage } from '@/test/in-language';
import { resetAnnouncements } from '@/features/warnings/announcements';
import { addToRecord, versionKey } from '@/features/warnings/once';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

/** The browser's Notification: records what the screen shows. */
class FakeNotification {
  static permission: NotificationPermission = 'granted';
  static requestPermission = jest.fn(async () => FakeNotification.permission);
  static shown: { title: string; options: NotificationOptions }[] = [];
  onclick: (() => void) | null = null;
  close = jest.fn();
  constructor(title: string, options: NotificationOptions) {
    FakeNotification.shown.push({ title, options });
  }
}

const speak = jest.fn();
let prefs: AlertPreferences;
let mine: UserAlert[];
let helpBodies: unknown[];

beforeEach(() => {
  resetFakeSocket();
  resetAnnouncements();
  localStorage.clear();
  FakeNotification.permission = 'granted';
  FakeNotification.shown = [];
  FakeNotification.requestPermission.mockClear();
  speak.mockClear();
  Object.assign(window, { Notification: FakeNotification, speechSynthesis: { speak, cancel: jest.fn() } });
  Object.assign(globalThis, {
    SpeechSynthesisUtterance: class {
      lang = '';
      voice: unknown = null;
      constructor(public text: string) {}
    },
  });
  prefs = structuredClone(DEFAULT_PREFERENCES);
  mine = [userAlert({ title: 'Road closed on Main St', severity: 'medium', category: 'traffic', type: 'Traffic' })];
  helpBodies = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/me/preferences') return json(prefs);
    if (path === '/api/alerts/me/alerts') return json(pageOf(mine));
    if (path === '/api/alerts/me/alerts/unread-count') return json({ count: mine.filter((a) => !a.read).length });
    const help = path.match(/^\/api\/alerts\/me\/alerts\/([^/]+)\/help$/);
    if (help && req.method === 'POST') {
      helpBodies.push(await req.json());
      return json({ id: 'help-1' }, 201);
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => {
  act(() => toast.remove());
  delete (window as { Notification?: unknown }).Notification;
});

async function renderAlerts(language?: 'es') {
  const user = userEvent.setup();
  // The alerts already listed were announced on an earlier visit: only what arrives now is news.
  for (const a of mine) addToRecord(PERSON.id, 'announced', versionKey(a));
  // The page as the app shows it: under the app-wide warning layer, which hears the live events (issue #40).
  const page = (
    <>
      <WarningLayer />
      <UserAlertsPage />
      <Toaster />
    </>
  );
  const { store } = renderSignedIn(language ? inLanguage(language, page) : page, { user: PERSON, path: '/alerts' });
  await screen.findByRole('list', { name: language ? 'Sus alertas' : 'Your alerts' });
  // The voice setting comes from my preferences: the arrival handler needs them loaded.
  await waitFor(() => expect(alertsApi.endpoints.preferences.select()(store.getState()).isSuccess).toBe(true));
  return user;
}

const titles = () =>
  within(screen.getByRole('list', { name: 'Your alerts' }))
    .getAllByRole('heading')
    .map((h) => h.textContent?.replace(' (unread)', ''));

describe('Emergency Alerts in Spanish (issue #41): live arrivals keep the language they come in', () => {
  it('lists a Spanish alert as Spanish text, notifies in it, and marks an English fallback as English', async () => {
    await renderAlerts('es');
    const flood = userAlert({ title: 'Inundación repentina', message: 'Suba a un terreno más alto.', severity: 'high', language: 'es' });
    act(() => serverSends('alert:new', { ...flood, language: 'es', held: false }));
    const title = await screen.findByRole('link', { name: 'Inundación repentina' });
    expect(title).toHaveAttribute('lang', 'es');
    expect(within(screen.getByRole('listitem', { name: /Inundación repentina/ })).getByText('Suba a un terreno más alto.')).toHaveAttribute('lang', 'es');
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    expect(FakeNotification.shown[0].options).toMatchObject({ body: 'Suba a un terreno más alto.', lang: 'es' });

    const heat = userAlert({ title: 'Heat advisory today', severity: 'medium', language: 'en' });
    act(() => serverSends('alert:new', { ...heat, language: 'en', held: false }));
    expect(await screen.findByRole('link', { name: 'Heat advisory today' })).toHaveAttribute('lang', 'en');
    expect(screen.getByRole('heading', { name: 'Alertas de emergencia' })).toBeInTheDocument();
  });
});

describe('Emergency Alerts (/alerts): live arrivals', () => {
  it('prepends a new alert, shows a browser notification that a critical alert keeps until dismissed, and reads it aloud', async () => {
    await renderAlerts();
    act(() =>
      serverSends(
        'alert:new',
        userAlert({ title: 'Wrong-way driver on I-10', message: 'Stay off the eastbound lanes.', severity: 'critical', category: 'traffic' }),
      ),
    );

    expect(await screen.findByRole('link', { name: 'Wrong-way driver on I-10' })).toBeInTheDocument();
    expect(titles()).toEqual(['Wrong-way driver on I-10', 'Road closed on Main St']);
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    expect(FakeNotification.shown[0].title).toBe('🚨 Wrong-way driver on I-10');
    expect(FakeNotification.shown[0].options).toMatchObject({ body: 'Stay off the eastbound lanes.', requireInteraction: true });
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(1));
    expect(speak.mock.calls[0][0]).toMatchObject({ text: 'Critical, Traffic. Wrong-way driver on I-10. Stay off the eastbound lanes.', lang: 'en-US' });
  });

  it("shows an alert's new version and then its all-clear as they happen, without a reload", async () => {
    await renderAlerts();
    const [first] = mine;
    const { read: _read, readAt: _readAt, ...summary } = first;
    act(() => serverSends('alert:updated', { ...summary, title: 'Road closed on Main St and 5th Ave', version: 2 }));
    const card = await screen.findByRole('listitem', { name: /Road closed on Main St and 5th Ave/ });
    expect(within(card).getByText('Updated')).toBeInTheDocument();
    act(() =>
      serverSends('alert:updated', {
        ...summary,
        title: 'Road closed on Main St and 5th Ave',
        version: 3,
        status: 'all_clear',
        allClear: { at: new Date().toISOString(), message: '<b>Open</b> again.' },
      }),
    );
    // Ended: calm, "All clear", the admin's closing words, and nothing left to do but dismiss it (issue #40).
    expect(await within(card).findByText('All clear')).toBeInTheDocument();
    // The admin's words, as text.
    expect(within(card).getByText('<b>Open</b> again.')).toBeInTheDocument();
    expect(within(card).queryByRole('button', { name: /I'm Safe/ })).not.toBeInTheDocument();
    expect(within(card).queryByText('Updated')).not.toBeInTheDocument();
    expect(within(card).queryByText('Medium')).not.toBeInTheDocument();
    expect(within(card).getByRole('button', { name: 'Dismiss: Road closed on Main St and 5th Ave' })).toBeInTheDocument();
  });

  it('lists and announces an alert whose update takes me into its area, once', async () => {
    await renderAlerts();
    const moved = userAlert({ title: 'Wrong-way driver now on SR-51', severity: 'critical', category: 'traffic' });
    const { read: _read, readAt: _readAt, ...summary } = moved;
    act(() => serverSends('alert:updated', { ...summary, version: 2 }));
    expect(await screen.findByRole('link', { name: 'Wrong-way driver now on SR-51' })).toBeInTheDocument();
    expect(titles()).toEqual(['Wrong-way driver now on SR-51', 'Road closed on Main St']);
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    // Its next version is an update of the listed alert, not a new arrival.
    act(() => serverSends('alert:updated', { ...summary, title: 'Wrong-way driver stopped on SR-51', version: 3 }));
    expect(await screen.findByRole('link', { name: 'Wrong-way driver stopped on SR-51' })).toBeInTheDocument();
    expect(titles()).toHaveLength(2);
    // ...announced as an update (issue #40: critical, so it takes the screen again), its notification taking the first
    // one's place on the device (one tag).
    expect(await screen.findByRole('alertdialog', { name: 'Critical alert Wrong-way driver stopped on SR-51' })).toBeInTheDocument();
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(2));
    expect(new Set(FakeNotification.shown.map((n) => n.options.tag))).toEqual(new Set([FakeNotification.shown[0].options.tag]));
    // An alert that ended is never added.
    act(() => serverSends('alert:updated', { ...userAlert({ title: 'Cancelled elsewhere' }), status: 'cancelled' }));
    expect(titles()).toHaveLength(2);
  });

  it('lets a non-critical notification close by itself', async () => {
    await renderAlerts();
    act(() => serverSends('alert:new', { ...userAlert({ title: 'Heat advisory today', severity: 'medium' }), held: false }));
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    expect(FakeNotification.shown[0].options.requireInteraction).toBe(false);
  });

  it('lists a held alert without a notification or the voice', async () => {
    await renderAlerts();
    act(() => serverSends('alert:new', { ...userAlert({ title: 'Overnight road works', severity: 'low' }), held: true }));

    expect(await screen.findByRole('link', { name: 'Overnight road works' })).toBeInTheDocument();
    expect(titles()).toEqual(['Overnight road works', 'Road closed on Main St']);
    // A held alert that arrived silently is followed by one that is not: only the second one notifies.
    act(() => serverSends('alert:new', { ...userAlert({ title: 'Gas leak near Elm St', severity: 'high' }), held: false }));
    await screen.findByRole('link', { name: 'Gas leak near Elm St' });
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    expect(FakeNotification.shown.map((n) => n.title)).toEqual(['🚨 Gas leak near Elm St']);
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(1));
    expect(speak.mock.calls[0][0].text).toContain('Gas leak near Elm St');
  });

  it('does not speak when voice alerts are off', async () => {
    prefs.methods.voice = false;
    await renderAlerts();
    act(() => serverSends('alert:new', userAlert({ title: 'Gas leak near Elm St' })));
    await waitFor(() => expect(FakeNotification.shown).toHaveLength(1));
    expect(speak).not.toHaveBeenCalled();
  });
});

describe('Emergency Alerts (/alerts): actions', () => {
  it('sends a help request with the typed message and says so', async () => {
    const user = await renderAlerts();
    await user.click(screen.getByRole('button', { name: 'Request help: Road closed on Main St' }));
    const dialog = screen.getByRole('dialog', { name: 'Request help' });
    await user.type(within(dialog).getByLabelText('What do you need? (optional)'), '  Stuck in my car, two kids  ');
    await user.click(within(dialog).getByRole('checkbox', { name: 'Share my current location' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Help Request' }));

    expect(await screen.findByText('Help request sent')).toBeInTheDocument();
    expect(helpBodies).toEqual([{ message: 'Stuck in my car, two kids' }]);
    expect(screen.queryByRole('dialog', { name: 'Request help' })).not.toBeInTheDocument();
  });

  it('Enable Notifications asks for permission and registers the push subscription', async () => {
    FakeNotification.permission = 'default';
    const registered: unknown[] = [];
    const subscription = {
      endpoint: 'https://push.example/abc',
      toJSON: () => ({ endpoint: 'https://push.example/abc', keys: { p256dh: 'k', auth: 'a' } }),
      options: { applicationServerKey: null },
    };
    const registration = { pushManager: { getSubscription: jest.fn(async () => null), subscribe: jest.fn(async () => subscription) } };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        register: jest.fn(async () => registration),
        ready: Promise.resolve(registration),
        addEventListener: jest.fn(),
        removeEventListener: jest.fn(),
        getRegistration: jest.fn(async () => undefined),
      },
    });
    Object.assign(window, { PushManager: class {} });
    const baseFetch = global.fetch;
    global.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const { req, path } = requestOf(input);
      if (path === '/api/alerts/push/public-key') return json({ publicKey: 'BAAA' });
      if (path === '/api/alerts/me/push-subscriptions' && req.method === 'POST') {
        registered.push(await req.json());
        return json({ id: 'sub-1', endpoint: 'https://push.example/abc' }, 201);
      }
      return baseFetch(input);
    }) as unknown as typeof fetch;
    FakeNotification.requestPermission.mockImplementation(async () => {
      FakeNotification.permission = 'granted';
      return 'granted';
    });

    try {
      const user = await renderAlerts();
      expect(registration.pushManager.subscribe).not.toHaveBeenCalled();
      await user.click(screen.getByRole('button', { name: 'Enable Notifications' }));

      expect(await screen.findByText('Notifications enabled')).toBeInTheDocument();
      expect(FakeNotification.requestPermission).toHaveBeenCalledTimes(1);
      expect(registration.pushManager.subscribe).toHaveBeenCalledWith(expect.objectContaining({ userVisibleOnly: true }));
      expect(registered).toEqual([{ endpoint: 'https://push.example/abc', keys: { p256dh: 'k', auth: 'a' } }]);
      expect(screen.queryByRole('button', { name: 'Enable Notifications' })).not.toBeInTheDocument();
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
      delete (window as { PushManager?: unknown }).PushManager;
    }
  });

  it('keeps the 911 advice when help requests are rate-limited', async () => {
    const baseFetch = global.fetch;
    global.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const { path } = requestOf(input);
      if (/\/help$/.test(path)) return json({ statusCode: 429, code: 'rate_limited', message: 'Too many requests. Please try again in 9 minutes.' }, 429);
      return baseFetch(input);
    }) as unknown as typeof fetch;
    const user = await renderAlerts();
    await user.click(screen.getByRole('button', { name: 'Request help: Road closed on Main St' }));
    const dialog = screen.getByRole('dialog', { name: 'Request help' });
    await user.click(within(dialog).getByRole('checkbox', { name: 'Share my current location' }));
    await user.click(within(dialog).getByRole('button', { name: 'Send Help Request' }));

    expect(await screen.findByText('Too many requests. Please try again in 9 minutes. If you are in immediate danger, call 911.')).toBeInTheDocument();
    expect(screen.getByRole('dialog', { name: 'Request help' })).toBeInTheDocument();
  });

  it('says which browsers work when this browser’s push service is not one Beacon accepts', async () => {
    FakeNotification.permission = 'default';
    const subscription = {
      endpoint: 'https://push.example/abc',
      toJSON: () => ({ endpoint: 'https://push.example/abc', keys: { p256dh: 'k', auth: 'a' } }),
      options: { applicationServerKey: null },
    };
    const registration = { pushManager: { getSubscription: jest.fn(async () => null), subscribe: jest.fn(async () => subscription) } };
    Object.defineProperty(navigator, 'serviceWorker', {
      configurable: true,
      value: {
        register: jest.fn(async () => registration),
        ready: Promise.resolve(registration),
        addEventListener: jest.fn(),
        removeEventListener: jest.fn(),
        getRegistration: jest.fn(async () => undefined),
      },
    });
    Object.assign(window, { PushManager: class {} });
    const baseFetch = global.fetch;
    global.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const { req, path } = requestOf(input);
      if (path === '/api/alerts/push/public-key') return json({ publicKey: 'BAAA' });
      if (path === '/api/alerts/me/push-subscriptions' && req.method === 'POST') {
        return json({ statusCode: 400, code: 'unsupported_push_service', message: 'This push endpoint is not on a push service browsers use' }, 400);
      }
      return baseFetch(input);
    }) as unknown as typeof fetch;
    FakeNotification.requestPermission.mockImplementation(async () => {
      FakeNotification.permission = 'granted';
      return 'granted';
    });

    try {
      const user = await renderAlerts();
      await user.click(screen.getByRole('button', { name: 'Enable Notifications' }));
      expect(
        await screen.findByText('This browser delivers notifications through a push service Beacon does not accept. Chrome, Edge, Firefox and Safari work.'),
      ).toBeInTheDocument();
    } finally {
      delete (navigator as { serviceWorker?: unknown }).serviceWorker;
      delete (window as { PushManager?: unknown }).PushManager;
    }
  });
});
