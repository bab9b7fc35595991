import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_PREFERENCES, type AlertPreferences } from '@beacon/contracts';
import { captureInstallPrompt } from '@/app/install-prompt';
import { auth } from '@/features/auth/auth-client';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { useFirstRunPrompt } from './LocationOnboarding';
import { PERSON } from './test-utils';

/** The first run as the dashboard shows it: the card at the top, and whether the person is back. */
function FirstRunCard() {
  const run = useFirstRunPrompt();
  return (
    <>
      {run.settled && run.card}
      <output aria-label="returning">{String(run.returning)}</output>
    </>
  );
}

let saved: AlertPreferences;
/** What the person's profile says they answered, and what the screen wrote there. */
let answered: Record<string, unknown>;
let written: string[];

function browserWith({ permission, push = true }: { permission?: NotificationPermission; push?: boolean }) {
  const requestPermission = jest.fn(async () => 'denied' as NotificationPermission);
  if (permission) Object.defineProperty(window, 'Notification', { value: { permission, requestPermission }, configurable: true });
  if (push) {
    Object.defineProperty(window, 'PushManager', { value: function PushManager() {}, configurable: true });
    Object.defineProperty(navigator, 'serviceWorker', { value: { addEventListener() {}, removeEventListener() {} }, configurable: true });
  }
  return { requestPermission };
}

beforeAll(() => captureInstallPrompt());

beforeEach(() => {
  saved = structuredClone(DEFAULT_PREFERENCES);
  answered = {};
  written = [];
  jest.spyOn(auth, 'getSession').mockImplementation(async () => ({ data: { session: { user: { user_metadata: { ...answered } } } }, error: null }) as never);
  jest.spyOn(auth, 'updateUser').mockImplementation(async (attrs) => {
    written.push(...Object.keys(attrs.data ?? {}));
    return { data: { user: null }, error: null } as never;
  });
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    if (new URL(req.url).pathname === '/api/alerts/me/preferences') return json(saved);
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => {
  act(() => toast.remove());
  jest.restoreAllMocks();
  for (const name of ['Notification', 'PushManager']) Reflect.deleteProperty(window, name);
  Reflect.deleteProperty(navigator, 'serviceWorker');
  Reflect.deleteProperty(navigator, 'userAgent');
});

function renderFirstRun() {
  const user = userEvent.setup();
  renderSignedIn(
    <>
      <FirstRunCard />
      <Toaster />
    </>,
    { user: PERSON, path: '/dashboard' },
  );
  return user;
}

const returning = () => screen.getByRole('status', { name: 'returning' });

describe('the first run (issue #40): where, then notifications', () => {
  it('asks for notifications after the location step, and remembers both refusals and the first run', async () => {
    browserWith({ permission: 'default' });
    const user = renderFirstRun();
    const where = await screen.findByRole('region', { name: 'Where should Beacon watch for you?' });
    expect(returning()).toHaveTextContent('false');
    await user.click(within(where).getByRole('button', { name: 'Not now' }));

    const notify = await screen.findByRole('region', { name: 'Get warnings even when Beacon is closed' });
    expect(notify).toHaveTextContent('Beacon can show a notification the moment an alert for your area is sent, even when this page is closed.');
    // from the location answer on, the banner says why the feed is short
    expect(screen.getByRole('region', { name: 'Set your home location' })).toBeInTheDocument();
    await user.click(within(notify).getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('region', { name: 'Get warnings even when Beacon is closed' })).not.toBeInTheDocument();
    // no home yet: the banner says why the feed is short
    expect(screen.getByRole('region', { name: 'Set your home location' })).toBeInTheDocument();
    await waitFor(() => expect(written).toEqual(['location_prompt_answered_at', 'notifications_prompt_answered_at', 'first_run_done_at']));
    // finishing the first run does not make this visit a return
    expect(returning()).toHaveTextContent('false');
  });

  it('asks the browser on "Turn on notifications"; a refusal there is said and remembered', async () => {
    answered = { location_prompt_answered_at: '2026-01-01T00:00:00Z' };
    const { requestPermission } = browserWith({ permission: 'default' });
    const user = renderFirstRun();
    const notify = await screen.findByRole('region', { name: 'Get warnings even when Beacon is closed' });
    await user.click(within(notify).getByRole('button', { name: 'Turn on notifications' }));
    expect(requestPermission).toHaveBeenCalledTimes(1);
    expect(await screen.findByText(/Notifications are blocked/)).toBeInTheDocument();
    await waitFor(() => expect(screen.queryByRole('region', { name: 'Get warnings even when Beacon is closed' })).not.toBeInTheDocument());
    expect(written).toContain('notifications_prompt_answered_at');
  });

  it('asks nothing of a person who answered before, or whose browser already allowed notifications', async () => {
    answered = { location_prompt_answered_at: '2026-01-01T00:00:00Z', first_run_done_at: '2026-01-01T00:00:00Z' };
    saved.home = { lat: 33.45, lng: -112.07, name: 'Phoenix, Arizona' };
    browserWith({ permission: 'granted' });
    renderFirstRun();
    await waitFor(() => expect(returning()).toHaveTextContent('true'));
    await waitFor(() => expect(global.fetch).toHaveBeenCalled());
    expect(screen.queryByRole('region')).not.toBeInTheDocument();
    expect(written).toEqual([]);
  });

  it('on an iPhone browser tab, says to add Beacon to the Home Screen first, where notifications work', async () => {
    answered = { location_prompt_answered_at: '2026-01-01T00:00:00Z' };
    Object.defineProperty(navigator, 'userAgent', {
      value: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 Safari/604.1',
      configurable: true,
    });
    const user = renderFirstRun();
    const notify = await screen.findByRole('region', { name: 'Get warnings even when Beacon is closed' });
    expect(notify).toHaveTextContent('tap Share, then Add to Home Screen, and open Beacon from there');
    expect(within(notify).queryByRole('button', { name: 'Turn on notifications' })).not.toBeInTheDocument();
    await user.click(within(notify).getByRole('button', { name: 'Got it' }));
    await waitFor(() => expect(written).toContain('notifications_prompt_answered_at'));
  });

  it("offers the browser's install prompt, caught when the app started", async () => {
    answered = { location_prompt_answered_at: '2026-01-01T00:00:00Z' };
    browserWith({ permission: 'default' });
    const offer = Object.assign(new Event('beforeinstallprompt', { cancelable: true }), {
      prompt: jest.fn(async () => undefined),
      userChoice: Promise.resolve({ outcome: 'accepted' as const }),
    });
    act(() => {
      window.dispatchEvent(offer);
    });
    expect(offer.defaultPrevented).toBe(true);
    const user = renderFirstRun();
    const notify = await screen.findByRole('region', { name: 'Get warnings even when Beacon is closed' });
    await user.click(within(notify).getByRole('button', { name: 'Install Beacon' }));
    expect(offer.prompt).toHaveBeenCalledTimes(1);
    // an offer is shown once
    await waitFor(() => expect(within(notify).queryByRole('button', { name: 'Install Beacon' })).not.toBeInTheDocument());
  });
});
