import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { DEFAULT_PREFERENCES, type AlertPreferences, type UserAlert } from '@beacon/contracts';
import { inLanguage } from '@/test/in-language';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { AlertPreferencesPage } from './AlertPreferencesPage';
import { QUICK_SETUP } from './preferences-form';
import { pageOf, userAlert } from './test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));
// The area map needs a real layout engine; here it is a button that picks one point.
jest.mock('./LazyAreaMap', () => ({
  LazyAreaMap: ({ onPick }: { onPick?: (lat: number, lng: number) => void }) => (
    <button type="button" onClick={() => onPick?.(33.45, -112.07)}>
      Pick on map
    </button>
  ),
}));

const USER = { id: '00000000-0000-4000-8000-000000000042', email: 'pat.driver@example.com', role: 'user' } as const;
let saved: AlertPreferences;
let puts: Record<string, unknown>[];
let mine: UserAlert[];
/** What the place search (GET /api/alerts/me/places) and the reverse lookup answer; the queries they got. */
let places: { status: number; body: unknown };
let placeAt: { status: number; body: unknown };
let placeQueries: string[];

beforeEach(() => {
  saved = structuredClone(DEFAULT_PREFERENCES);
  puts = [];
  mine = [];
  places = { status: 200, body: [] };
  placeAt = { status: 503, body: { statusCode: 503, code: 'geocoder_not_configured', message: 'No geocoder is configured' } };
  placeQueries = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input as Request;
    const url = new URL(req.url);
    const path = url.pathname;
    if (path === '/api/alerts/me/places') {
      placeQueries.push(url.searchParams.get('q') ?? '');
      return json(places.body, places.status);
    }
    if (path === '/api/alerts/me/places/reverse') return json(placeAt.body, placeAt.status);
    if (path === '/api/alerts/me/preferences' && req.method === 'PUT') {
      const body = await req.json();
      puts.push(body);
      saved = { ...saved, ...body, quietHours: { ...saved.quietHours, ...body.quietHours }, methods: { ...saved.methods, ...body.methods } };
      return json(saved);
    }
    if (path === '/api/alerts/me/preferences') return json(saved);
    if (path === '/api/alerts/me/alerts') {
      const search = url.searchParams.get('search')?.toLowerCase();
      const found = mine.filter((a) => !search || `${a.title}\n${a.message}`.toLowerCase().includes(search));
      const page = Number(url.searchParams.get('page') ?? 1);
      const size = Number(url.searchParams.get('pageSize') ?? 10);
      return json(pageOf(found.slice((page - 1) * size, page * size), { page, pageSize: size, total: found.length }));
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

function renderPage(language?: 'es') {
  const user = userEvent.setup();
  const page = (
    <>
      <AlertPreferencesPage />
      <Toaster />
    </>
  );
  renderSignedIn(language ? inLanguage(language, page) : page, { user: USER, path: '/dashboard/alerts' });
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

  it('says Voice alerts also call the phone, asks for a number to be called, and still saves without one (issue #39)', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    expect(screen.getByRole('switch', { name: 'Voice alerts' })).toHaveAccessibleDescription('Also calls your phone number for alerts sent by phone.');
    // voice is on by default and no number is saved: the number field is there, with why
    const phone = screen.getByLabelText('Phone number');
    expect(phone).toHaveAccessibleDescription('Add a phone number to be called.');

    await user.click(screen.getByRole('switch', { name: 'Email digest' }));
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({ methods: { voice: true, email: true }, phoneNumber: null });

    await user.type(screen.getByLabelText('Phone number'), '+16025551234');
    expect(screen.queryByText('Add a phone number to be called.')).toBeNull();
    await user.clear(screen.getByLabelText('Phone number'));
    await user.click(screen.getByRole('switch', { name: 'Voice alerts' }));
    // neither voice nor SMS on, no number: nothing to ask for
    expect(screen.queryByLabelText('Phone number')).toBeNull();
  });

  it('shows my recent alerts from the server, with no sample data', async () => {
    renderPage();
    expect(await screen.findByText('No alerts have reached you yet.')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Recent Alerts' })).toBeInTheDocument();
  });
});

describe('Alert Management: home location', () => {
  it('refuses a home point with only one coordinate, with a clear message, and saves once both are given', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    await user.type(screen.getByLabelText('Home latitude'), '33.4');
    expect(screen.getByLabelText('Home longitude')).toHaveValue(null);
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Enter both latitude and longitude, or leave both empty.');
    expect(screen.getByLabelText('Home latitude')).toHaveAttribute('aria-invalid', 'true');
    await user.click(screen.getByRole('button', { name: 'Quick Setup' }));
    expect(puts).toEqual([]);

    await user.type(screen.getByLabelText('Home longitude'), '-112.07');
    expect(screen.queryByText('Enter both latitude and longitude, or leave both empty.')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    // a typed point has no place name
    expect(puts[0].home).toEqual({ lat: 33.4, lng: -112.07, name: null });
  });

  it('refuses a coordinate out of range', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    await user.type(screen.getByLabelText('Home latitude'), '95');
    await user.type(screen.getByLabelText('Home longitude'), '10');
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Latitude must be a number from -90 to 90.');
    expect(puts).toEqual([]);
  });

  it('takes a point picked on the map into both fields, and clearing it saves no home', async () => {
    saved.home = { lat: 40.7, lng: -74 };
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    expect(screen.getByLabelText('Home latitude')).toHaveValue(40.7);
    await user.click(screen.getByRole('button', { name: 'Pick on map' }));
    expect(screen.getByLabelText('Home latitude')).toHaveValue(33.45);
    expect(screen.getByLabelText('Home longitude')).toHaveValue(-112.07);

    await user.clear(screen.getByLabelText('Home latitude'));
    await user.clear(screen.getByLabelText('Home longitude'));
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(puts[0].home).toBeNull();
  });
});

describe('Alert Management: home by address or place name (issue #40)', () => {
  const TEMPE = { label: 'Tempe, Maricopa County, Arizona, United States', lat: 33.4255, lng: -111.94 };

  it('finds the home by address: Enter searches instead of saving, and the chosen place is saved with its name', async () => {
    places = { status: 200, body: [TEMPE, { label: 'Tempe Town Lake, Tempe, Arizona', lat: 33.43, lng: -111.93 }] };
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    await user.type(screen.getByLabelText('Find your home by address or place name'), 'Tempe{Enter}');
    expect(await screen.findByText('2 places found: choose yours.')).toBeInTheDocument();
    expect(placeQueries).toEqual(['Tempe']);
    expect(puts).toEqual([]);

    const found = screen.getByRole('list', { name: 'Places found' });
    await user.click(within(found).getByRole('button', { name: TEMPE.label }));
    expect(screen.queryByRole('list', { name: 'Places found' })).not.toBeInTheDocument();
    expect(screen.getByText(TEMPE.label)).toBeInTheDocument();
    expect(screen.getByLabelText('Home latitude')).toHaveValue(33.4255);
    expect(screen.getByLabelText('Home longitude')).toHaveValue(-111.94);

    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(puts[0].home).toEqual({ lat: 33.4255, lng: -111.94, name: TEMPE.label });
  });

  it('a named home keeps its name through a save of other settings, and a point typed elsewhere goes without it', async () => {
    saved.home = { lat: 33.4255, lng: -111.94, name: 'Tempe, Arizona' };
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    expect(screen.getByText('Tempe, Arizona')).toBeInTheDocument();
    await user.click(screen.getByRole('switch', { name: 'Crime alerts' }));
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    expect(await screen.findByText('Preferences saved')).toBeInTheDocument();
    expect(puts[0].home).toEqual({ lat: 33.4255, lng: -111.94, name: 'Tempe, Arizona' });
    // the saved answer is back in the form before the next edit
    await waitFor(() => expect(screen.getByText('All changes saved.')).toBeInTheDocument());

    await user.clear(screen.getByLabelText('Home latitude'));
    await user.type(screen.getByLabelText('Home latitude'), '33.5');
    expect(screen.queryByText('Tempe, Arizona')).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(puts).toHaveLength(2));
    expect(puts[1].home).toEqual({ lat: 33.5, lng: -111.94, name: null });
  });

  it('says when a search finds nothing, when the text is too short, and when place search is not available', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    const search = screen.getByLabelText('Find your home by address or place name');
    await user.type(search, 'x');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByText('Type an address or place to search for.')).toBeInTheDocument();
    expect(placeQueries).toEqual([]);

    await user.type(search, 'yzzy{Enter}');
    expect(await screen.findByText('No place found for "xyzzy". Try a street and town, or just the town.')).toBeInTheDocument();
    expect(search).toHaveAccessibleDescription('No place found for "xyzzy". Try a street and town, or just the town.');

    places = { status: 503, body: { statusCode: 503, code: 'geocoder_not_configured', message: 'No geocoder is configured' } };
    await user.type(search, '{Enter}');
    expect(await screen.findByText('Place search is not available right now. Click the map or use your location instead.')).toBeInTheDocument();

    places = { status: 429, body: { statusCode: 429, code: 'rate_limited', message: 'Too many searches. Try again in a minute.' } };
    await user.type(search, '{Enter}');
    expect(await screen.findByText('Too many searches. Try again in a minute.')).toBeInTheDocument();
    expect(puts).toEqual([]);
  });

  it('"Use my location" names the point after the place the geocoder finds there', async () => {
    placeAt = { status: 200, body: { label: 'Mill Avenue, Tempe, Arizona', lat: 33.4255, lng: -111.94 } };
    const getCurrentPosition = jest.fn((ok: PositionCallback) => ok({ coords: { latitude: 33.4255, longitude: -111.94 } } as GeolocationPosition));
    Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    try {
      const user = renderPage();
      await screen.findByRole('heading', { name: 'Alert Management' });
      await user.click(screen.getByRole('button', { name: 'Use my location' }));
      expect(await screen.findByText('Mill Avenue, Tempe, Arizona')).toBeInTheDocument();
      await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
      await waitFor(() => expect(puts).toHaveLength(1));
      expect(puts[0].home).toEqual({ lat: 33.4255, lng: -111.94, name: 'Mill Avenue, Tempe, Arizona' });
    } finally {
      Reflect.deleteProperty(navigator, 'geolocation');
    }
  });
});

describe('Alert Management: Quick Setup and Recent Alerts', () => {
  it('Quick Setup asks before overwriting settings of the user, and Keep my settings changes nothing', async () => {
    saved.alertTypes = ['emergency'];
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    await user.click(screen.getByRole('button', { name: 'Quick Setup' }));
    const dialog = screen.getByRole('alertdialog', { name: 'Replace your settings with Quick Setup?' });
    expect(within(dialog).getByRole('button', { name: 'Keep my settings' })).toHaveFocus();
    await user.click(within(dialog).getByRole('button', { name: 'Keep my settings' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(puts).toEqual([]);
    expect(screen.getByRole('switch', { name: 'Crime alerts' })).not.toBeChecked();
  });

  it('Quick Setup on the default settings applies at once, without asking', async () => {
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    await user.click(screen.getByRole('button', { name: 'Quick Setup' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(await screen.findByText('Quick Setup applied')).toBeInTheDocument();
    expect(puts).toHaveLength(1);
  });

  it('Quick Setup, once confirmed, saves the preset and keeps the home location', async () => {
    saved.home = { lat: 33.45, lng: -112.07 };
    saved.alertTypes = ['emergency'];
    saved.methods = { push: false, voice: false, email: true, sms: false };
    const user = renderPage();
    await screen.findByRole('heading', { name: 'Alert Management' });
    await user.click(screen.getByRole('button', { name: 'Quick Setup' }));
    await user.click(screen.getByRole('button', { name: 'Replace my settings' }));

    expect(await screen.findByText('Quick Setup applied')).toBeInTheDocument();
    expect(puts).toHaveLength(1);
    expect(puts[0]).toMatchObject({
      alertTypes: ['emergency', 'weather', 'traffic', 'crime', 'construction'],
      frequency: 'immediate',
      radiusMiles: 25,
      quietHours: { enabled: true, start: '22:00', end: '07:00' },
      methods: { push: true, voice: true, email: false, sms: false },
      home: { lat: 33.45, lng: -112.07 },
    });
    expect(puts[0]).toMatchObject({ alertTypes: QUICK_SETUP.alertTypes, methods: QUICK_SETUP.methods });
    expect(screen.getByRole('switch', { name: 'Crime alerts' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Events alerts' })).not.toBeChecked();
    expect(screen.getByRole('switch', { name: 'Quiet hours' })).toBeChecked();
  });

  it('searches my recent alerts and loads more, five at a time', async () => {
    const start = Date.now();
    mine = Array.from({ length: 7 }, (_, i) =>
      userAlert({
        title: i === 5 ? 'Flash flood on Salt River' : `Road work ${i + 1}`,
        createdAt: new Date(start - i * 60_000).toISOString(),
        read: i === 1,
      }),
    );
    const user = renderPage();
    const list = await screen.findByRole('list', { name: 'Recent alerts' });
    const titles = () =>
      within(screen.getByRole('list', { name: 'Recent alerts' }))
        .getAllByRole('heading')
        .map((h) => h.textContent?.replace(' (unread)', ''));
    expect(titles()).toEqual(['Road work 1', 'Road work 2', 'Road work 3', 'Road work 4', 'Road work 5']);
    expect(within(list).getAllByRole('listitem')[1]).toHaveClass('read');
    expect(within(list).getAllByRole('listitem')[0]).toHaveClass('unread');

    await user.click(screen.getByRole('button', { name: 'Load More Alerts' }));
    await waitFor(() => expect(titles()).toHaveLength(7));
    expect(titles().slice(5)).toEqual(['Flash flood on Salt River', 'Road work 7']);
    expect(screen.queryByRole('button', { name: 'Load More Alerts' })).not.toBeInTheDocument();

    await user.type(screen.getByLabelText('Search recent alerts'), 'flood');
    await waitFor(() => expect(titles()).toEqual(['Flash flood on Salt River']));
    await user.clear(screen.getByLabelText('Search recent alerts'));
    await user.type(screen.getByLabelText('Search recent alerts'), 'tornado');
    expect(await screen.findByText('No alerts match your search.')).toBeInTheDocument();
  });
});

describe('the language: the app’s and the alerts’, one choice (issue #41)', () => {
  afterEach(() => jest.restoreAllMocks());

  it("proposes the app's language until one is chosen, and sends it with the first save", async () => {
    // the browser says otherwise: the language the person reads Beacon in wins
    jest.spyOn(navigator, 'language', 'get').mockReturnValue('vi-VN');
    const user = renderPage('es');
    const select = await screen.findByLabelText('Idioma');
    expect(select).toHaveValue('es');
    expect(select).toHaveAccessibleDescription(/en inglés cuando una alerta no tiene texto en él/);
    // Proposing it is no change of the user's: nothing to save yet.
    expect(screen.getByRole('button', { name: 'Guardar preferencias' })).toBeDisabled();
    await user.selectOptions(screen.getByLabelText('Frecuencia'), 'daily');
    await user.click(screen.getByRole('button', { name: 'Guardar preferencias' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0]).toMatchObject({ frequency: 'daily', language: 'es' });
    expect(await screen.findByText('Preferencias guardadas')).toBeInTheDocument();
  });

  it('lists each language by its own name, and saving another one switches the whole app to it', async () => {
    const user = renderPage();
    const select = await screen.findByLabelText('Language');
    expect(select).toHaveValue('en');
    expect(within(select).getByRole('option', { name: 'Tiếng Việt' })).toHaveAttribute('lang', 'vi');
    await user.selectOptions(select, 'vi');
    // chosen, not saved: the app stays as it is
    expect(screen.getByRole('heading', { name: 'Alert Management' })).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save Preferences' }));
    await waitFor(() => expect(puts).toHaveLength(1));
    expect(puts[0].language).toBe('vi');
    expect(await screen.findByRole('heading', { name: 'Quản lý cảnh báo' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Lưu tùy chọn' })).toBeDisabled();
    expect(screen.getByLabelText('Ngôn ngữ')).toHaveValue('vi');
  });
});

describe('Alert Management in Spanish (issue #41)', () => {
  it('shows its sections, choices and buttons in Spanish, the radius in miles', async () => {
    saved = { ...saved, language: 'es' };
    const user = renderPage('es');
    expect(await screen.findByRole('heading', { name: 'Gestión de alertas' })).toBeInTheDocument();
    expect(screen.getByRole('switch', { name: 'Alertas del clima' })).toBeChecked();
    expect(screen.getByRole('switch', { name: 'Alertas de voz' })).toBeChecked();
    expect(screen.getByLabelText('Radio de alerta: 25 millas')).toHaveAttribute('aria-valuetext', '25 millas');
    expect(within(screen.getByLabelText('Gravedad mínima')).getByRole('option', { name: 'Alta o superior' })).toBeInTheDocument();
    expect(within(screen.getByLabelText('Frecuencia')).getByRole('option', { name: 'Resumen diario' })).toBeInTheDocument();
    expect(
      screen.getByText('Fines de semana en silencio: los sábados y domingos, las alertas no críticas esperan hasta el lunes a las 07:00.'),
    ).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Configuración rápida' })).toBeInTheDocument();

    await user.selectOptions(screen.getByLabelText('Frecuencia'), 'hourly');
    expect(screen.getByText('Tiene cambios sin guardar.')).toHaveAttribute('role', 'status');
    await user.click(screen.getByRole('button', { name: 'Guardar preferencias' }));
    expect(await screen.findByText('Preferencias guardadas')).toBeInTheDocument();
    expect(puts[0]).toMatchObject({ frequency: 'hourly', language: 'es' });
  });
});
