import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { DEFAULT_PREFERENCES, type AlertChange, type AlertPreferences, type UserAlert } from '@beacon/contracts';
import { api } from '@/app/api';
import { jsonResponse as json } from '@/test/json-response';
import { inLanguage } from '@/test/in-language';
import { renderSignedIn } from '@/test/render-screen';
import { resetFakeSocket, serverSends } from '@/test/fake-socket';
import { PERSON, pageOf, requestOf, userAlert } from '@/features/alerts/test-utils';
import { resetAnnouncements } from './announcements';
import { addToRecord, hasRecord, recordKey, versionKey } from './once';
import { stopSpeaking } from './speech';
import { UnreadBadge } from './UnreadBadge';
import { WarningLayer } from './WarningLayer';
import { CATCH_UP_MAX } from './useWarnings';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

/** What the browser was asked to say: the text, its language tag and the voice chosen. */
const speak = jest.fn();
const voices = [
  { lang: 'en-US', name: 'Samantha', default: true },
  { lang: 'es-US', name: 'Paulina', default: false },
];
let prefs: AlertPreferences;
let mine: UserAlert[];
let unread: number;
let unreadReads: number;

beforeEach(() => {
  resetFakeSocket();
  resetAnnouncements();
  localStorage.clear();
  speak.mockReset();
  Object.assign(window, { speechSynthesis: { speak, cancel: jest.fn(), getVoices: () => voices } });
  Object.assign(globalThis, {
    SpeechSynthesisUtterance: class {
      lang = '';
      voice: unknown = null;
      constructor(public text: string) {}
    },
  });
  stopSpeaking();
  prefs = structuredClone(DEFAULT_PREFERENCES);
  mine = [];
  unread = 0;
  unreadReads = 0;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { path } = requestOf(input);
    if (path === '/api/alerts/me/preferences') return json(prefs);
    if (path === '/api/alerts/me/alerts') return json(pageOf(mine));
    if (path === '/api/alerts/me/alerts/unread-count') {
      unreadReads += 1;
      return json({ count: unread });
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

/** Any page of the app (here the community page) under the layer, with the sidebar's My Alerts link and its count. */
async function renderPage(user: typeof PERSON | { id: string; email: string; role: 'admin' } = PERSON, language?: 'es') {
  const keyboard = userEvent.setup();
  const page = (
    <>
      <WarningLayer />
      <main>
        <h1>Community</h1>
        <button type="button">New Post</button>
        <a href="/alerts">
          My Alerts
          <UnreadBadge />
        </a>
      </main>
    </>
  );
  const utils = renderSignedIn(language ? inLanguage(language, page) : page, { user, path: '/dashboard/community' });
  // the layer has read the person's preferences (voice on or off) and list before anything arrives
  await waitFor(() => expect(unreadReads).toBeGreaterThan(0));
  await waitFor(() => expect((global.fetch as jest.Mock).mock.calls.some(([r]) => requestOf(r).path === '/api/alerts/me/preferences')).toBe(true));
  await act(async () => undefined);
  return { keyboard, ...utils };
}

const spokenCalls = () =>
  speak.mock.calls.map(([u]) => ({ text: u.text as string, lang: u.lang as string, voice: (u.voice as { name?: string } | null)?.name }));
const summaryOf = ({ read: _r, readAt: _ra, ...s }: UserAlert) => s;
const change = (o: Partial<AlertChange>): AlertChange => ({ version: 2, kind: 'update', at: new Date().toISOString(), fields: [], severityFrom: null, ...o });

describe('the warning layer: an alert on any page', () => {
  it('shows a new alert as a banner at the top of the page, reads it aloud once in its language, and counts it', async () => {
    await renderPage();
    const flood = userAlert({ title: 'Inundación repentina', message: 'Suba a un terreno más alto.', language: 'es', severity: 'high' });
    unread = 1;
    act(() => serverSends('alert:new', { ...summaryOf(flood), language: 'es', held: false }));

    const banner = await screen.findByRole('alert', { name: 'New alert · High Inundación repentina' });
    expect(within(banner).getByRole('link', { name: 'View alert: Inundación repentina' })).toHaveAttribute('href', `/alerts/${flood.id}`);
    await waitFor(() => expect(spokenCalls()).toEqual([{ text: expect.stringContaining('Inundación repentina'), lang: 'es-US', voice: 'Paulina' }]));
    expect(await screen.findByRole('link', { name: 'My Alerts (1 unread)' })).toBeInTheDocument();

    // the same version told again (a second room, a reconnect) is not news
    act(() => serverSends('alert:new', { ...summaryOf(flood), language: 'es', held: false }));
    await act(async () => undefined);
    expect(speak).toHaveBeenCalledTimes(1);
    expect(screen.getAllByRole('alert')).toHaveLength(1);
  });

  it('is dismissed from the keyboard', async () => {
    const { keyboard } = await renderPage();
    act(() => serverSends('alert:new', { ...summaryOf(userAlert({ title: 'Heat advisory' })), held: false }));
    const dismiss = await screen.findByRole('button', { name: 'Dismiss: Heat advisory' });
    dismiss.focus();
    await keyboard.keyboard('{Enter}');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
  });

  it('shows a version another tab of this browser already claimed, without saying it a second time', async () => {
    await renderPage();
    const gas = userAlert({ title: 'Gas leak near Elm St' });
    // the other tab, told at the same instant, claimed it first (once.spec.ts: only one tab can)
    addToRecord(PERSON.id, 'announced', versionKey(gas));
    act(() => serverSends('alert:new', { ...summaryOf(gas), held: false }));
    expect(await screen.findByRole('alert', { name: /Gas leak near Elm St/ })).toBeInTheDocument();
    await act(async () => undefined);
    expect(speak).not.toHaveBeenCalled();
  });

  it('lists a held alert quietly: a calm status banner, no voice', async () => {
    await renderPage();
    act(() => serverSends('alert:new', { ...summaryOf(userAlert({ title: 'Overnight road works', severity: 'medium' })), held: true }));
    const banner = await screen.findByRole('status', { name: /Overnight road works/ });
    expect(banner).toHaveTextContent('Arrived quietly');
    await act(async () => undefined);
    expect(speak).not.toHaveBeenCalled();
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('keeps updates quiet for a person whose digest holds them, but never a critical one', async () => {
    prefs.frequency = 'daily';
    // two alerts of mine, listed and announced on an earlier visit
    const works = userAlert({ title: 'Road works on 7th St', severity: 'medium' });
    const wrongWay = userAlert({ title: 'Wrong-way driver on I-10', severity: 'high' });
    mine = [works, wrongWay];
    for (const a of mine) addToRecord(PERSON.id, 'announced', versionKey(a));
    await renderPage();

    act(() => serverSends('alert:updated', { ...summaryOf(works), version: 2, lastChange: change({ fields: ['message'] }), language: 'en' }));
    expect(await screen.findByRole('status', { name: /Road works on 7th St/ })).toHaveTextContent('Updated just now: new instructions');

    const raised = { ...summaryOf(wrongWay), severity: 'critical' as const, version: 2, lastChange: change({ fields: ['severity'], severityFrom: 'high' }) };
    act(() => serverSends('alert:updated', { ...raised, language: 'en' }));
    await screen.findByRole('alertdialog');
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(1));
    expect(spokenCalls()[0].text).toMatch(/^Update: Critical, /);

    // its all-clear is never urgent: held like any
    act(() => serverSends('alert:updated', { ...raised, version: 3, status: 'all_clear', allClear: { at: new Date().toISOString(), message: null } }));
    expect(await screen.findByRole('status', { name: /^All clear Wrong-way driver on I-10$/ })).toBeInTheDocument();
    await act(async () => undefined);
    expect(speak).toHaveBeenCalledTimes(1);
  });

  it('does not speak when voice alerts are off', async () => {
    prefs.methods.voice = false;
    await renderPage();
    act(() => serverSends('alert:new', { ...summaryOf(userAlert({ title: 'Gas leak near Elm St' })), held: false }));
    await screen.findByRole('alert', { name: /Gas leak near Elm St/ });
    await act(async () => undefined);
    expect(speak).not.toHaveBeenCalled();
  });
});

describe('the critical takeover', () => {
  it('takes focus and keeps it until acknowledged, then closes and gives focus back', async () => {
    const { keyboard } = await renderPage();
    const before = screen.getByRole('button', { name: 'New Post' });
    before.focus();
    const wrongWay = userAlert({ title: 'Wrong-way driver on I-10', message: 'Stay off the eastbound lanes.', severity: 'critical', category: 'traffic' });
    act(() => serverSends('alert:new', { ...summaryOf(wrongWay), held: false }));

    const dialog = await screen.findByRole('alertdialog', { name: 'Critical alert Wrong-way driver on I-10' });
    expect(dialog).toHaveAttribute('aria-modal', 'true');
    expect(dialog).toHaveFocus();
    expect(dialog).toHaveTextContent('Stay off the eastbound lanes.');
    expect(within(dialog).getByRole('link', { name: 'Call 911' })).toHaveAttribute('href', 'tel:911');

    // Tab and Shift+Tab go round inside it; Escape does not close it
    for (let i = 0; i < 6; i++) {
      await keyboard.tab();
      expect(dialog.contains(document.activeElement)).toBe(true);
    }
    await keyboard.tab({ shift: true });
    expect(dialog.contains(document.activeElement)).toBe(true);
    await keyboard.keyboard('{Escape}');
    expect(screen.getByRole('alertdialog')).toBeInTheDocument();

    await keyboard.click(within(dialog).getByRole('button', { name: 'I understand' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(before).toHaveFocus();
    expect(screen.queryByRole('alert', { name: /Wrong-way driver on I-10/ })).not.toBeInTheDocument();
    expect(hasRecord(PERSON.id, 'acknowledged', versionKey(wrongWay))).toBe(true);
  });

  it('closes when the person acknowledges it in another tab', async () => {
    await renderPage();
    const spill = userAlert({ title: 'Chlorine leak at the plant', severity: 'critical' });
    act(() => serverSends('alert:new', { ...summaryOf(spill), held: false }));
    await screen.findByRole('alertdialog');
    // the other tab writes the record; this one hears of it through the storage event
    addToRecord(PERSON.id, 'acknowledged', versionKey(spill));
    act(() => {
      window.dispatchEvent(new StorageEvent('storage', { key: recordKey(PERSON.id, 'acknowledged') }));
    });
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
  });

  it('says what an update changed: "Updated just now: severity raised to Critical"', async () => {
    const leak = userAlert({ title: 'Gas leak downtown', severity: 'high' });
    mine = [leak];
    addToRecord(PERSON.id, 'announced', versionKey(leak));
    await renderPage();
    const raised = {
      ...summaryOf(leak),
      severity: 'critical' as const,
      version: 2,
      lastChange: change({ fields: ['severity', 'area'], severityFrom: 'high' }),
    };
    act(() => serverSends('alert:updated', { ...raised, language: 'en' }));
    const dialog = await screen.findByRole('alertdialog');
    expect(dialog).toHaveTextContent('Updated just now: severity raised to Critical and area changed');
  });
});

describe('ends and catch-up', () => {
  it('turns an all-clear into a calm banner with its closing words, and the unread count drops', async () => {
    const fire = userAlert({ title: 'Brush fire near Cave Creek', severity: 'high' });
    mine = [fire];
    unread = 1;
    addToRecord(PERSON.id, 'announced', versionKey(fire));
    await renderPage();
    expect(await screen.findByRole('link', { name: 'My Alerts (1 unread)' })).toBeInTheDocument();

    unread = 0;
    act(() =>
      serverSends('alert:updated', {
        ...summaryOf(fire),
        version: 2,
        status: 'all_clear',
        allClear: { at: new Date().toISOString(), message: 'The fire is out.' },
        lastChange: change({ kind: 'all_clear' }),
      }),
    );
    const calm = await screen.findByRole('status', { name: 'All clear Brush fire near Cave Creek' });
    expect(calm).toHaveClass('warning-calm');
    expect(calm).toHaveTextContent('The fire is out.');
    expect(await screen.findByRole('link', { name: 'My Alerts' })).toBeInTheDocument();
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(1));
    expect(spokenCalls()[0].text).toBe('All clear: Brush fire near Cave Creek. The fire is out.');
  });

  it('takes what the list held at first as known, and announces once what a later read brings, the most severe first', async () => {
    const known = userAlert({ title: 'Boil water notice', severity: 'high' });
    mine = [known];
    const { store } = await renderPage();
    // the first read is the baseline: in the list and the count, not news
    await act(async () => undefined);
    expect(speak).not.toHaveBeenCalled();
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // a reconnect reads the list again: what came meanwhile is announced, at most CATCH_UP_MAX of it aloud
    const missed = Array.from({ length: CATCH_UP_MAX + 1 }, (_, i) => userAlert({ title: `Storm cell #${i}`, severity: 'medium' }));
    const done = userAlert({ title: 'Read already', read: true });
    const over = userAlert({ title: 'Over already', status: 'all_clear' });
    const wrongWay = userAlert({ title: 'Wrong-way driver on SR-51', severity: 'critical' });
    mine = [...missed, done, over, wrongWay, known];
    await act(async () => {
      store.dispatch(api.util.invalidateTags(['MyAlerts']));
    });
    expect(await screen.findByRole('alertdialog', { name: /Wrong-way driver on SR-51/ })).toBeInTheDocument();
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(CATCH_UP_MAX));
    expect(spokenCalls()[0].text).toContain('Wrong-way driver on SR-51');
    expect(
      spokenCalls()
        .map((c) => c.text)
        .join(),
    ).not.toMatch(/Read already|Over already|Boil water notice/);

    // read again: nothing is news twice
    const reads = unreadReads;
    await act(async () => {
      store.dispatch(api.util.invalidateTags(['MyAlerts']));
    });
    await waitFor(() => expect(unreadReads).toBeGreaterThan(reads));
    expect(speak).toHaveBeenCalledTimes(CATCH_UP_MAX);
  });

  it('brings back a critical takeover never acknowledged after a reload, silently', async () => {
    const wrongWay = userAlert({ title: 'Wrong-way driver on SR-51', severity: 'critical' });
    mine = [wrongWay];
    addToRecord(PERSON.id, 'announced', versionKey(wrongWay));
    await renderPage();
    expect(await screen.findByRole('alertdialog', { name: /Wrong-way driver on SR-51/ })).toBeInTheDocument();
    await act(async () => undefined);
    expect(speak).not.toHaveBeenCalled();
  });

  it('in the admin console, shows a critical alert in the page’s flow and never takes the screen or the focus', async () => {
    const keyboard = userEvent.setup();
    renderSignedIn(
      <>
        <WarningLayer inline />
        <button type="button">Cancel alert</button>
      </>,
      { user: { id: '00000000-0000-4000-8000-000000000007', email: 'ops@example.com', role: 'admin' }, path: '/admin/alerts' },
    );
    await waitFor(() => expect(unreadReads).toBeGreaterThan(0));
    const cancel = screen.getByRole('button', { name: 'Cancel alert' });
    cancel.focus();
    const spill = userAlert({ title: 'Chlorine leak at the plant', severity: 'critical' });
    mine = [spill];
    act(() => serverSends('alert:new', { ...summaryOf(spill), held: false }));
    const banner = await screen.findByRole('alert', { name: 'New alert · Critical Chlorine leak at the plant' });
    expect(banner.closest('section')).toHaveClass('inline');
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(cancel).toHaveFocus();
    await keyboard.click(cancel);
  });

  it('finds a staff member’s own alerts by reading their list again', async () => {
    const staff = { id: '00000000-0000-4000-8000-000000000007', email: 'ops@example.com', role: 'admin' as const };
    await renderPage(staff);
    const heat = userAlert({ title: 'Excessive heat warning' });
    mine = [heat];
    // the admins' room hears of every alert: the event cannot say it is theirs, their list does
    act(() => serverSends('alert:new', { ...summaryOf(heat), held: false }));
    expect(await screen.findByRole('alert', { name: /Excessive heat warning/ })).toBeInTheDocument();
    await waitFor(() => expect(speak).toHaveBeenCalledTimes(1));
  });
});

describe('the warning layer in Spanish (issue #41)', () => {
  it('says Beacon’s words in the reader’s language around the alert’s own text, marked with the language that text is in', async () => {
    await renderPage(PERSON, 'es');
    const flood = userAlert({ title: 'Inundación repentina', message: 'Suba a un terreno más alto.', language: 'es', severity: 'high' });
    unread = 1;
    act(() => serverSends('alert:new', { ...summaryOf(flood), language: 'es', held: false }));
    const banner = await screen.findByRole('alert', { name: 'Nueva alerta · Alta Inundación repentina' });
    expect(within(banner).getByText('Inundación repentina')).toHaveAttribute('lang', 'es');
    expect(within(banner).getByText('Suba a un terreno más alto.')).toHaveAttribute('lang', 'es');
    expect(within(banner).getByRole('link', { name: 'Ver la alerta: Inundación repentina' })).toHaveTextContent('Ver la alerta');
    expect(await screen.findByRole('link', { name: 'My Alerts (1 sin leer)' })).toBeInTheDocument();

    // an alert without Spanish text arrives in English: its text is marked English, Beacon's words stay Spanish
    const heat = userAlert({ title: 'Heat advisory', message: 'Drink water and stay inside.', language: 'en', severity: 'medium' });
    act(() => serverSends('alert:new', { ...summaryOf(heat), language: 'en', held: false }));
    const english = await screen.findByRole('alert', { name: 'Nueva alerta · Media Heat advisory' });
    expect(within(english).getByText('Heat advisory')).toHaveAttribute('lang', 'en');
    expect(within(english).getByText('Drink water and stay inside.')).toHaveAttribute('lang', 'en');
    expect(within(english).getByRole('button', { name: 'Descartar: Heat advisory' })).toBeInTheDocument();
  });

  it('ends calmly in Spanish: the all-clear’s default words are the alert’s language, the heading the reader’s', async () => {
    const fire = userAlert({ title: 'Brush fire near Cave Creek', severity: 'high', language: 'en' });
    mine = [fire];
    addToRecord(PERSON.id, 'announced', versionKey(fire));
    await renderPage(PERSON, 'es');
    act(() =>
      serverSends('alert:updated', {
        ...summaryOf(fire),
        language: 'en',
        version: 2,
        status: 'all_clear',
        allClear: { at: new Date().toISOString(), message: null },
        lastChange: change({ kind: 'all_clear' }),
      }),
    );
    const calm = await screen.findByRole('status', { name: 'Fin de la alerta Brush fire near Cave Creek' });
    expect(within(calm).getByText('The danger has passed. This alert has ended.')).toHaveAttribute('lang', 'en');
  });

  it('takes the screen for a critical alert with Spanish buttons', async () => {
    await renderPage(PERSON, 'es');
    const gas = userAlert({ title: 'Fuga de gas en Elm St', message: 'Salga del edificio ahora.', language: 'es', severity: 'critical' });
    act(() => serverSends('alert:new', { ...summaryOf(gas), language: 'es', held: false }));
    const dialog = await screen.findByRole('alertdialog', { name: 'Alerta crítica Fuga de gas en Elm St' });
    expect(within(dialog).getByText('Salga del edificio ahora.')).toHaveAttribute('lang', 'es');
    expect(within(dialog).getByRole('link', { name: 'Llamar al 911' })).toHaveAttribute('href', 'tel:911');
    expect(within(dialog).getByRole('button', { name: 'Entendido' })).toBeInTheDocument();
  });
});
