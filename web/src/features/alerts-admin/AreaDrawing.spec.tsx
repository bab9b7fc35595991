import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertAreaPart } from '@beacon/contracts';
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
const partText = (p: AlertAreaPart) =>
  `${p.type === 'polygon' ? `polygon ${p.points.map((c) => c.join(' ')).join(' | ')}` : `circle ${p.radiusKm} km at ${p.lat},${p.lng}`}${p.description ? ` (${p.description})` : ''}`;
jest.mock('@/features/alerts/AreaMap', () => ({
  __esModule: true,
  default: ({
    onPick,
    polygon,
    focus,
    parts,
    label,
  }: {
    onPick?: (lat: number, lng: number) => void;
    polygon?: [number, number][] | null;
    focus?: { lat: number; lng: number } | null;
    parts?: AlertAreaPart[] | null;
    label: string;
  }) => (
    <div>
      {Object.entries(CLICKS).map(([name, [lat, lng]]) => (
        <button key={name} type="button" onClick={() => onPick?.(lat, lng)}>
          map click {name}
        </button>
      ))}
      <p>{polygon ? `drawn: ${polygon.map((p) => p.join(' ')).join(' | ')}` : 'no polygon'}</p>
      <p>{focus ? `centred on ${focus.lat},${focus.lng}` : 'not centred'}</p>
      {parts?.length ? <p>{`${label}, also drawn: ${parts.map(partText).join('; ')}`}</p> : null}
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

describe('an area of several parts (issue #42)', () => {
  const parts = () => screen.getByRole('list', { name: 'Parts of the area' });
  const items = () =>
    within(parts())
      .getAllByRole('listitem')
      .map((li) => li.querySelector('span')?.textContent);
  const said = () => screen.getAllByRole('status').find((s) => s.classList.contains('visually-hidden'))!;

  async function drawPolygon(user: ReturnType<typeof userEvent.setup>, corners: string[]) {
    for (const c of corners) await user.click(screen.getByRole('button', { name: `map click ${c}` }));
  }

  it('draws two polygons and a circle; removes, edits and names parts; sends them as one multi area', async () => {
    const user = await toLocationStep();
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    await drawPolygon(user, ['A', 'B', 'C']);
    // One part: no Edit or Remove, but it can be named.
    expect(screen.queryByRole('button', { name: 'Remove part 1' })).not.toBeInTheDocument();
    await user.type(screen.getByLabelText('Name of part 1 (optional)'), 'Kings County');

    await user.click(screen.getByRole('button', { name: 'Add a polygon' }));
    expect(screen.getByText('Alert Area: editing part 2 of 2')).toHaveFocus();
    expect(said()).toHaveTextContent('Part 2 added, a polygon: click the map to add its corners.');
    // The new part starts empty; the first stays drawn beside it.
    expect(screen.getByText('drawn:')).toBeInTheDocument();
    expect(screen.getByText(/also drawn: polygon 33.5 -112.1 \| 33.4 -112.2 \| 33.4 -112 \(Kings County\)$/)).toBeInTheDocument();
    await drawPolygon(user, ['A', 'C', 'D']);

    await user.click(screen.getByRole('button', { name: 'Add a circle' }));
    expect(screen.getByText('Alert Area: editing part 3 of 3')).toHaveFocus();
    await user.click(screen.getByRole('button', { name: 'map click D' }));
    await user.type(screen.getByLabelText('Name of part 3 (optional)'), 'Tempe');

    // A fourth part, left half drawn: it says what it lacks beside it, and keeps the step.
    await user.click(screen.getByRole('button', { name: 'Add a polygon' }));
    await drawPolygon(user, ['A', 'B']);
    await user.click(screen.getByRole('button', { name: 'Edit part 2' }));
    expect(screen.getByText('Alert Area: editing part 2 of 4')).toHaveFocus();
    expect(said()).toHaveTextContent('Editing part 2.');
    expect(screen.getByText('drawn: 33.5 -112.1 | 33.4 -112 | 33.5 -112')).toBeInTheDocument();
    expect(within(parts()).getByText('A polygon needs at least 3 points')).toBeInTheDocument();
    expect(items()).toEqual([
      'Kings County · Polygon with 3 corners',
      'Part 2 · Polygon with 3 corners · editing on the map',
      'Tempe · Circle, 50 km around 33.5, -112',
      'Part 4 · Polygon with 2 corners',
    ]);
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Area part 4: A polygon needs at least 3 points');

    // Removed from the keyboard; the focus goes back to the list, and the change is said.
    screen.getByRole('button', { name: 'Remove part 4' }).focus();
    await user.keyboard('{Enter}');
    expect(screen.getByText('Parts of the area')).toHaveFocus();
    expect(said()).toHaveTextContent('Removed part 4: the area has 3 parts.');
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();

    // Part 2 edited: its last corner moved.
    await user.click(screen.getByRole('button', { name: 'Undo last point' }));
    await user.click(screen.getByRole('button', { name: 'map click B' }));
    expect(items()).toEqual([
      'Kings County · Polygon with 3 corners',
      'Part 2 · Polygon with 3 corners · editing on the map',
      'Tempe · Circle, 50 km around 33.5, -112',
    ]);

    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByRole('heading', { level: 2 })).toHaveTextContent('Step 4 of 4');
    const review = within(screen.getByRole('list', { name: 'Area parts' }));
    expect(review.getAllByRole('listitem').map((li) => li.textContent)).toEqual([
      'Kings County: Polygon with 3 corners',
      'Part 2: Polygon with 3 corners',
      'Tempe: Circle, 50 km around 33.5, -112',
    ]);
    await user.click(await screen.findByRole('button', { name: /^Send to / }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(previews[0]).toEqual(posts[0]);
    expect(posts[0].area).toEqual({
      type: 'multi',
      parts: [
        { type: 'polygon', points: [CLICKS.A, CLICKS.B, CLICKS.C], description: 'Kings County' },
        { type: 'polygon', points: [CLICKS.A, CLICKS.C, CLICKS.B] },
        { type: 'circle', lat: 33.5, lng: -112.0, radiusKm: 50, description: 'Tempe' },
      ],
    });
    expect(posts[0]).not.toHaveProperty('lat');
    expect(posts[0]).not.toHaveProperty('radiusKm');
  });

  it('sends one named part as that part, with its name', async () => {
    const user = await toLocationStep();
    await user.click(screen.getByRole('button', { name: 'map click A' }));
    await user.type(screen.getByLabelText('Name of part 1 (optional)'), 'Downtown');
    await user.click(screen.getByRole('button', { name: 'Next' }));
    expect(screen.getByText('Downtown: 50 km around 33.5, -112.1')).toBeInTheDocument();
    await user.click(await screen.findByRole('button', { name: /^Send to / }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].area).toEqual({ type: 'circle', lat: 33.5, lng: -112.1, radiusKm: 50, description: 'Downtown' });
  });

  it('back to one part after removals, sends it plain as before', async () => {
    const user = await toLocationStep();
    await user.click(screen.getByRole('button', { name: 'map click A' }));
    await user.click(screen.getByRole('button', { name: 'Add a polygon' }));
    await drawPolygon(user, ['A', 'B', 'C']);
    await user.click(screen.getByRole('button', { name: 'Remove part 2' }));
    // The circle is edited again, as a single area: nothing to edit or remove.
    expect(screen.getByLabelText('Latitude')).toHaveValue(33.5);
    expect(screen.queryByRole('button', { name: /^(Edit|Remove) part/ })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Next' }));
    await user.click(await screen.findByRole('button', { name: /^Send to / }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0]).toMatchObject({ lat: 33.5, lng: -112.1, radiusKm: 50 });
    expect(posts[0]).not.toHaveProperty('area');
  });
});
