import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { jsonResponse as json } from '@/test/json-response';
import { CreateAlertPage } from './CreateAlertPage';
import { adminAlert, renderScreen, requestOf } from './test-utils';

// Leaflet does not run in jsdom: the map is replaced by buttons that "click" given points, and a line that shows
// what it draws and where it is centred.
const CLICKS: Record<string, [number, number]> = {
  A: [33.5, -112.1],
  B: [33.4, -112.2],
  C: [33.4, -112.0],
  D: [33.5, -112.0],
};
jest.mock('@/features/alerts/AreaMap', () => ({
  __esModule: true,
  default: ({
    onPick,
    polygon,
    focus,
  }: {
    onPick?: (lat: number, lng: number) => void;
    polygon?: [number, number][] | null;
    focus?: { lat: number; lng: number } | null;
  }) => (
    <div>
      {Object.entries(CLICKS).map(([name, [lat, lng]]) => (
        <button key={name} type="button" onClick={() => onPick?.(lat, lng)}>
          map click {name}
        </button>
      ))}
      <p>{polygon ? `drawn: ${polygon.map((p) => p.join(' ')).join(' | ')}` : 'no polygon'}</p>
      <p>{focus ? `centred on ${focus.lat},${focus.lng}` : 'not centred'}</p>
    </div>
  ),
}));

let posts: Record<string, unknown>[];
let previews: Record<string, unknown>[];
let geocodeAnswer: () => Response;
let geocodeQueries: string[];
beforeEach(() => {
  posts = [];
  previews = [];
  geocodeQueries = [];
  geocodeAnswer = () => json([]);
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/geocode') {
      geocodeQueries.push(new URL(req.url).searchParams.get('q') ?? '');
      return geocodeAnswer();
    }
    if (path === '/api/alerts/audience') previews.push(await req.json());
    if (path === '/api/alerts/audience') return json({ concerned: 1, recipients: 1, held: 0, channels: {}, unreachable: { noChannel: 0, noDevice: 0 } });
    if (path === '/api/alerts' && req.method === 'POST') {
      posts.push(await req.json());
      return json(adminAlert({ title: 'Chemical spill' }), 201);
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

async function toLocationStep() {
  const user = userEvent.setup();
  renderScreen(<CreateAlertPage />, { path: '/admin/create-alert' });
  await user.type(screen.getByLabelText('Alert Title'), 'Chemical spill');
  await user.type(screen.getByLabelText('Message'), 'Stay indoors and close the windows.');
  await user.click(screen.getByRole('button', { name: 'Next' }));
  await user.click(screen.getByRole('button', { name: 'Next' }));
  expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Step 3 of 4');
  return user;
}

const liveStatus = () => screen.getAllByRole('status').find((s) => /point|polygon|edges/i.test(s.textContent ?? ''))!;

describe('drawing a polygon area in the wizard', () => {
  it('offers Circle and Polygon; a polygon needs three points, drawn live, with Undo and Clear, before Next', async () => {
    const user = await toLocationStep();
    expect(screen.getByRole('radio', { name: 'Circle' })).toBeChecked();
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    expect(liveStatus()).toHaveTextContent('No points yet: click the map');
    expect(screen.getByRole('button', { name: 'Undo last point' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Step 3 of 4');
    expect(screen.getByRole('alert')).toHaveTextContent('Choose where this alert applies, or choose to send it to everyone');

    await user.click(screen.getByRole('button', { name: 'map click A' }));
    await user.click(screen.getByRole('button', { name: 'map click B' }));
    expect(liveStatus()).toHaveTextContent('A polygon needs at least 3 points');
    expect(screen.getByText('drawn: 33.5 -112.1 | 33.4 -112.2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'map click D' }));
    expect(liveStatus()).toHaveTextContent('Polygon with 3 points.');
    await user.click(screen.getByRole('button', { name: 'Undo last point' }));
    expect(screen.getByText('drawn: 33.5 -112.1 | 33.4 -112.2')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'map click C' }));
    expect(within(screen.getByRole('list', { name: 'Polygon points' })).getAllByRole('listitem')).toHaveLength(3);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Step 4 of 4');
    expect(screen.getByText('Polygon with 3 points')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /^Send to / }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(previews[0]).toEqual(posts[0]);
    expect(posts[0]).toMatchObject({ area: { type: 'polygon', points: [CLICKS.A, CLICKS.B, CLICKS.C] } });
    expect(posts[0]).not.toHaveProperty('lat');
    expect(posts[0]).not.toHaveProperty('radiusKm');
  });

  it('says when edges cross and keeps the step; Clear points starts over', async () => {
    const user = await toLocationStep();
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    for (const p of ['A', 'C', 'D', 'B']) await user.click(screen.getByRole('button', { name: `map click ${p}` }));
    expect(liveStatus()).toHaveTextContent('edges cross each other');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Step 3 of 4');
    await user.click(screen.getByRole('button', { name: 'Clear points' }));
    expect(liveStatus()).toHaveTextContent('No points yet');
  });

  it('adds and removes points from the keyboard, without the map', async () => {
    const user = await toLocationStep();
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    const field = screen.getByLabelText('Add a point by coordinates');
    await user.type(field, 'somewhere{Enter}');
    expect(screen.getByText(/Type a point as "latitude, longitude"/)).toBeInTheDocument();
    await user.clear(field);
    await user.type(field, '33.5, -112.1{Enter}');
    await user.type(field, '33.4,-112.2');
    await user.click(screen.getByRole('button', { name: 'Add point' }));
    expect(
      within(screen.getByRole('list', { name: 'Polygon points' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['33.5, -112.1 Remove', '33.4, -112.2 Remove']);
    await user.click(screen.getByRole('button', { name: 'Remove point 1' }));
    expect(screen.getByText('drawn: 33.4 -112.2')).toBeInTheDocument();
  });
});

describe('the address search', () => {
  it('centres the map on typed coordinates without asking the server', async () => {
    const user = await toLocationStep();
    await user.type(screen.getByLabelText('Search address or coordinates'), '33.43, -111.94');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(screen.getByText('centred on 33.43,-111.94')).toBeInTheDocument();
    expect(geocodeQueries).toEqual([]);
  });

  it('offers the places the geocoder found and centres on the one chosen', async () => {
    geocodeAnswer = () => json([{ label: 'Tempe Town Lake, Tempe, Arizona', lat: 33.43, lng: -111.94 }]);
    const user = await toLocationStep();
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    await user.type(screen.getByLabelText('Search address or coordinates'), 'Tempe Town Lake{Enter}');
    await user.click(await screen.findByRole('button', { name: 'Tempe Town Lake, Tempe, Arizona' }));
    expect(geocodeQueries).toEqual(['Tempe Town Lake']);
    expect(screen.getByText('centred on 33.43,-111.94')).toBeInTheDocument();
    expect(screen.queryByText(/drawn: 33/)).not.toBeInTheDocument(); // centring adds no corner
  });

  it('shows the server’s message when no geocoder is configured', async () => {
    geocodeAnswer = () =>
      json(
        {
          statusCode: 503,
          code: 'geocoder_not_configured',
          message: 'Address search is not set up on this server: type the coordinates as "latitude, longitude" instead.',
        },
        503,
      );
    const user = await toLocationStep();
    await user.type(screen.getByLabelText('Search address or coordinates'), 'Tempe Town Lake');
    await user.click(screen.getByRole('button', { name: 'Search' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Address search is not set up on this server');
    expect(screen.getByText('not centred')).toBeInTheDocument();
  });
});
