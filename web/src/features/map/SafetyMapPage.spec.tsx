import { act, fireEvent, render, screen, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '@/app/store';
import type { Camera } from '@/features/traffic/traffic.api';
import { jsonResponse } from '@/test/json-response';
import type { TrafficEvent, VerifiedIncident } from './map.api';
import type { SafetyMapViewProps } from './SafetyMapView';
import { SafetyMapPage } from './SafetyMapPage';

// Leaflet (ESM, canvas-less jsdom) is exercised by the browser journeys; here the view lists what it was given.
jest.mock('./SafetyMapView', () => ({
  __esModule: true,
  default: (props: SafetyMapViewProps) => (
    <div data-testid="map-view">
      {props.showZones && <span data-testid="zones">zones</span>}
      {props.showCameras &&
        props.cameras.map((c) => (
          <button key={c.cameraId} type="button" data-testid="camera-marker" onClick={() => props.onViewCamera(c)}>
            {c.roadway} {c.description}
          </button>
        ))}
      {props.events.map((e) => (
        <span key={e.id} data-testid="traffic-event-marker">
          {e.type}
        </span>
      ))}
      {props.showIncidents &&
        props.incidents.map((i) => (
          <span key={i.id} data-testid="incident-marker">
            {i.type}
          </span>
        ))}
    </div>
  ),
}));

// the live feed: the page's handlers are kept here and called as if the gateway had emitted
const socketHandlers = new Map<string, (payload: unknown) => void>();
jest.mock('@/app/socket', () => ({
  useSocketEvent: (event: string, handler: (payload: unknown) => void) => {
    socketHandlers.set(event, handler);
  },
  getSocket: jest.fn(),
}));

const cam = (i: number, roadway: string, description: string, direction = 'Northbound'): Camera => ({
  cameraId: `c${i}`,
  roadway,
  description,
  direction,
  lat: 33.4 + i / 100,
  lng: -112,
  imageUrl: `/api/traffic/camera-images/${i}.svg`,
  lastUpdated: '2024-03-05T15:07:00',
});
const ev = (id: string, category: TrafficEvent['category'], type: string): TrafficEvent => ({
  id,
  type,
  category,
  severity: 'high',
  lat: 33.4,
  lng: -112,
  description: type,
  roadway: 'I-10',
  direction: null,
  fullClosure: false,
  startDate: null,
  endDate: null,
});

const CAMERAS = [
  cam(1, 'I-10', 'I-10 EB at 7th St', 'Eastbound'),
  cam(2, 'I-17', 'I-17 NB at Camelback Rd'),
  cam(3, 'Loop 101', 'Loop 101 SB at Shea Blvd', 'Southbound'),
];
const EVENTS = [ev('e1', 'incident', 'Crash'), ev('e2', 'roadwork', 'Lane Restriction'), ev('e3', 'weather', 'Blowing Dust')];
const INCIDENTS: VerifiedIncident[] = [
  {
    id: 'v1',
    type: 'Wrong-way driver',
    description: 'Seen on I-17',
    locationName: 'I-17 at Bell Rd',
    lat: 33.64,
    lng: -112.11,
    createdAt: '2024-03-05T15:00:00Z',
  },
];

function installApi({ incidentsFail = false, incidents = () => INCIDENTS } = {}) {
  const requests: Request[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    requests.push(req);
    const url = new URL(req.url);
    if (url.pathname === '/api/traffic/cameras/located') return jsonResponse({ items: CAMERAS });
    if (url.pathname === '/api/traffic/events/active') return jsonResponse({ items: EVENTS });
    if (url.pathname === '/api/incidents/incidents/verified' && url.searchParams.get('hours') === '24') {
      return incidentsFail ? jsonResponse({ statusCode: 502, code: 'service_unavailable', message: 'down' }, 502) : jsonResponse({ items: incidents() });
    }
    return jsonResponse({}, 404);
  }) as unknown as typeof fetch;
  return requests;
}

async function renderMap() {
  render(
    <Provider store={makeStore()}>
      <SafetyMapPage />
    </Provider>,
  );
  await screen.findByTestId('map-view');
  await screen.findAllByTestId('camera-marker');
}

const names = (testId: string) => screen.queryAllByTestId(testId).map((el) => el.textContent);

describe('SafetyMapPage', () => {
  let error: jest.SpyInstance;
  beforeEach(() => {
    error = jest.spyOn(console, 'error').mockImplementation(() => undefined);
  });
  afterEach(() => {
    error.mockRestore();
    jest.useRealTimers();
  });

  it('loads cameras, active events and verified incidents without a token, and shows stats and the last update', async () => {
    const requests = installApi();
    await renderMap();
    expect(names('camera-marker')).toHaveLength(3);
    expect(names('traffic-event-marker')).toEqual(['Crash', 'Blowing Dust']); // roadwork starts hidden
    expect(await screen.findByTestId('incident-marker')).toHaveTextContent('Wrong-way driver');
    expect(screen.getByTestId('zones')).toBeInTheDocument();
    const stats = screen.getByRole('group', { name: 'Map statistics' });
    expect(within(stats).getByTestId('stat-cameras')).toHaveTextContent('3');
    expect(within(stats).getByTestId('stat-incidents')).toHaveTextContent('4');
    expect(within(stats).getByText('LIVE')).toBeInTheDocument();
    expect(screen.getByText(/^Last updated: \d{1,2}:\d{2}:\d{2} [AP]M$/)).toBeInTheDocument();
    expect(requests.every((r) => !r.headers.has('authorization'))).toBe(true);
    expect(screen.getByRole('checkbox', { name: 'Traffic Cameras 3' })).toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Crashes & Incidents 1' })).toBeInTheDocument();
  });

  it('filters cameras case-insensitively by roadway, description and direction', async () => {
    installApi();
    await renderMap();
    const search = screen.getByRole('searchbox', { name: 'Search locations, cameras...' });
    expect(search).toHaveAttribute('placeholder', 'Search locations, cameras...');
    fireEvent.change(search, { target: { value: 'CAMELBACK' } });
    expect(names('camera-marker')).toEqual(['I-17 I-17 NB at Camelback Rd']);
    fireEvent.change(search, { target: { value: 'southbound' } });
    expect(names('camera-marker')).toEqual(['Loop 101 Loop 101 SB at Shea Blvd']);
    fireEvent.change(search, { target: { value: 'i-10' } });
    expect(names('camera-marker')).toEqual(['I-10 I-10 EB at 7th St']);
    expect(screen.getByTestId('stat-cameras')).toHaveTextContent('1');
  });

  it('says so when a search finds no camera, and Clear search brings them all back', async () => {
    installApi();
    await renderMap();
    const search = screen.getByRole('searchbox', { name: 'Search locations, cameras...' });
    const feedback = screen.getByRole('status', { name: '' });
    expect(feedback).toBeEmptyDOMElement();
    fireEvent.change(search, { target: { value: '  Zzyzx Rd ' } });
    expect(names('camera-marker')).toEqual([]);
    expect(feedback).toHaveTextContent('No cameras match \u201cZzyzx Rd\u201d. Search by road (I-17), direction (northbound) or cross street (Camelback).');
    fireEvent.click(within(feedback).getByRole('button', { name: 'Clear search' }));
    expect(search).toHaveValue('');
    expect(feedback).toBeEmptyDOMElement();
    expect(names('camera-marker')).toHaveLength(3);
    // a search that finds something says nothing more: the map shows it
    fireEvent.change(search, { target: { value: 'camelback' } });
    expect(feedback).toBeEmptyDOMElement();
  });

  it('toggles layers and clears them all', async () => {
    installApi();
    await renderMap();
    fireEvent.click(screen.getByRole('checkbox', { name: /Roadwork/ }));
    expect(names('traffic-event-marker')).toEqual(['Crash', 'Lane Restriction', 'Blowing Dust']);
    fireEvent.click(screen.getByRole('checkbox', { name: /Traffic Cameras/ }));
    expect(names('camera-marker')).toEqual([]);
    fireEvent.click(screen.getByRole('button', { name: 'Clear All' }));
    expect(names('traffic-event-marker')).toEqual([]);
    expect(screen.queryByTestId('zones')).not.toBeInTheDocument();
    expect(screen.queryByTestId('incident-marker')).not.toBeInTheDocument();
  });

  it('opens the camera modal from a marker', async () => {
    installApi();
    await renderMap();
    fireEvent.click(screen.getByRole('button', { name: /Camelback/ }));
    const dialog = screen.getByRole('dialog', { name: 'I-17 Northbound' });
    expect(within(dialog).getByRole('link', { name: 'View Full Size' })).toHaveAttribute('href', '/api/traffic/camera-images/2.svg');
    fireEvent.click(within(dialog).getByRole('button', { name: 'Close' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('renders no verified incidents when that call fails, and only logs it', async () => {
    installApi({ incidentsFail: true });
    await renderMap();
    await act(async () => {});
    expect(screen.queryByTestId('incident-marker')).not.toBeInTheDocument();
    expect(screen.getByRole('checkbox', { name: 'Verified Reports (24h) 0' })).toBeInTheDocument();
    expect(names('camera-marker')).toHaveLength(3);
    expect(error).toHaveBeenCalledWith('Safety map: verified incidents failed to load', expect.anything());
  });

  it('shows a report as soon as the gateway says it was verified', async () => {
    let verified = INCIDENTS;
    installApi({ incidents: () => verified });
    await renderMap();
    expect(await screen.findAllByTestId('incident-marker')).toHaveLength(1);
    const fresh: VerifiedIncident = {
      id: 'v2',
      type: 'Debris',
      description: 'Tyre on the road',
      locationName: null,
      lat: 33.5,
      lng: -112,
      createdAt: new Date().toISOString(),
    };
    verified = [...INCIDENTS, fresh];
    await act(async () => {
      socketHandlers.get('incident:verified')?.({ id: 'v2', type: 'Debris', lat: 33.5, lng: -112, createdAt: fresh.createdAt });
    });
    expect(await screen.findByText('Debris')).toBeInTheDocument();
    expect(names('incident-marker')).toEqual(['Wrong-way driver', 'Debris']);
  });

  it('reloads cameras, events and verified reports by itself every 120 s', async () => {
    jest.useFakeTimers();
    const requests = installApi();
    await renderMap();
    await act(async () => {});
    const before = requests.length;
    expect(before).toBe(3);
    // the wait for the first render moved the clock a little: stay well inside the first interval
    await act(async () => {
      jest.advanceTimersByTime(110_000);
    });
    expect(requests).toHaveLength(before);
    await act(async () => {
      jest.advanceTimersByTime(10_000);
    });
    expect(
      requests
        .slice(before)
        .map((r) => new URL(r.url).pathname)
        .sort(),
    ).toEqual(['/api/incidents/incidents/verified', '/api/traffic/cameras/located', '/api/traffic/events/active']);
    await act(async () => {
      jest.advanceTimersByTime(120_000);
    });
    expect(requests).toHaveLength(before + 6);
    expect(names('camera-marker')).toHaveLength(3);
  });

  it('reloads everything on Refresh', async () => {
    const requests = installApi();
    await renderMap();
    await act(async () => {});
    const before = requests.length;
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    await act(async () => {});
    expect(
      requests
        .slice(before)
        .map((r) => new URL(r.url).pathname)
        .sort(),
    ).toEqual(['/api/incidents/incidents/verified', '/api/traffic/cameras/located', '/api/traffic/events/active']);
  });
});
