import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { Toaster } from 'react-hot-toast';
import { DEFAULT_PREFERENCES, type AlertPreferences } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { AlertPreferencesPage } from './AlertPreferencesPage';

// No gateway in jsdom: the live connection is an idle emitter.
jest.mock('@/app/socket', () => {
  const { EventEmitter } = jest.requireActual('node:events');
  const socket = Object.assign(new EventEmitter(), { connected: false, emit: () => true });
  return { getSocket: () => socket, useSocketEvent: () => undefined };
});
// The area map needs a real layout engine; its own behaviour is covered elsewhere.
jest.mock('./LazyAreaMap', () => ({ LazyAreaMap: () => null }));

const USER = { id: '00000000-0000-4000-8000-000000000042', email: 'pat.driver@example.com', role: 'user' } as const;
let saved: AlertPreferences;
let puts: Record<string, unknown>[];

beforeEach(() => {
  saved = structuredClone(DEFAULT_PREFERENCES);
  puts = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const path = new URL(req.url).pathname;
    if (path === '/api/alerts/me/preferences' && req.method === 'PUT') {
      const body = await req.json();
      puts.push(body);
      saved = { ...saved, ...body, quietHours: { ...saved.quietHours, ...body.quietHours }, methods: { ...saved.methods, ...body.methods } };
      return json(saved);
    }
    if (path === '/api/alerts/me/preferences') return json(saved);
    if (path === '/api/alerts/me/alerts') return json({ items: [], total: 0, page: 1, pageSize: 10, totalPages: 0 });
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

function renderPage() {
  const user = userEvent.setup();
  renderSignedIn(<><AlertPreferencesPage /><Toaster /></>, { user: USER, path: '/dashboard/alerts' });
  return user;
}

describe('Alert Management (/dashboard/alerts): the preferences of part 1, saved on the server', () => {
  it("shows the spec's defaults: immediate, quiet hours off with no times shown, weekend off, push and voice on", async () => {
    renderPage();
    expect(await screen.findByRole('heading', { name: 'Alert Management' })).toBeInTheDocument();
    expect(screen.getByLabelText('Frequency')).toHaveValue('immediate');
    expect(screen.getByText('Critical alerts always arrive immediately.')).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Quiet hours' })).not.toBeChecked();
    expect(screen.queryByLabelText('Quiet from')).not.toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Weekend settings' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Weekend settings' })).toHaveAccessibleDescription(
      'Quiet weekends: on Saturdays and Sundays, alerts below critical wait until Monday 07:00.',
    );
    expect(screen.getByRole('switch', { name: 'Push notifications' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Voice alerts' })).toBeChecked();
    for (const t of ['Emergency', 'Weather', 'Traffic', 'Construction']) expect(screen.getByRole('switch', { name: `${t} alerts` })).toBeChecked();
    for (const t of ['Crime', 'Events']) expect(screen.getByRole('switch', { name: `${t} alerts` })).not.toBeChecked();
    expect(screen.getByRole('button', { name: 'Save Preferences' })).toBeDisabled();
  });

  it('says what a digest frequency, quiet hours and quiet weekends do, and saves them', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });

    await user.selectOptions(screen.getByLabelText('Frequency'), 'hourly');
    expect(screen.getByLabelText('Frequency')).toHaveAccessibleDescription(
      'Critical alerts always arrive immediately. The others come together in one message per channel.',
    );
    await user.click(screen.getByRole('switch', { name: 'Quiet hours' }));
    expect(screen.getByLabelText('Quiet from')).toHaveValue('22:00');
    expect(screen.getByLabelText('Quiet until')).toHaveValue('07:00');
    expect(screen.getByText('Held until quiet hours end, then sent together; critical alerts still come through.')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Quiet until'));
    await user.type(screen.getByLabelText('Quiet until'), '06:30');
    expect(screen.getByRole('switch', { name: 'Weekend settings' })).toHaveAccessibleDescription(
      'Quiet weekends: on Saturdays and Sundays, alerts below critical wait until Monday 06:30.',
    );
    await user.click(screen.getByRole('switch', { name: 'Weekend settings' }));
    expect(screen.getByText('You have unsaved changes.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ frequency: 'hourly', weekendEnabled: true, quietHours: { enabled: true, start: '22:00', end: '06:30' } });
    await waitFor(() => expect(screen.getByText('All changes saved.')).toBeInTheDocument());
  });

  it('shows my recent alerts from the server, with no sample data', async () => {
    renderPage();
    expect(await screen.findByText('No alerts have reached you yet.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recent Alerts' })).toBeInTheDocument();
  });
});
