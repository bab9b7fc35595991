import { act, screen, within } from '@testing-library/react';
import type { AlertProgress, AlertReach, ReachCell } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { resetFakeSocket, serverSends, setConnected } from '@/test/fake-socket';
import { REACH_REFRESH_MS, ReachMap } from './ReachMap';
import { cellColour, cellText } from './reach-colours';
import { adminAlert, renderScreen, requestOf } from './test-utils';
import type { ReachMapViewProps } from './ReachMapView';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));
// Leaflet does not run in jsdom: the map says what it was asked to draw.
jest.mock('./ReachMapView', () => ({
  __esModule: true,
  default: ({ label, area, cells, helpRequests }: ReachMapViewProps) => (
    <div role="region" aria-label={label}>
      <p>area: {area?.type ?? 'none'}</p>
      <ul aria-label="Cells drawn">
        {cells.map((c) => (
          <li key={c.id}>{`${c.sizeDeg} deg at ${c.south},${c.west}: ${cellText(c)}`}</li>
        ))}
      </ul>
      <ul aria-label="Help points drawn">
        {helpRequests
          .filter((h) => h.lat !== null)
          .map((h) => (
            <li key={h.id}>{`${h.status} at ${h.lat},${h.lng}`}</li>
          ))}
      </ul>
    </div>
  ),
}));

const cell = (o: Partial<ReachCell> & Pick<ReachCell, 'counts'>): ReachCell => {
  const people = Object.values(o.counts).reduce((n, v) => n + v, 0);
  return { id: `0.01:${o.south}:${o.west}`, south: 33.42, west: -111.94, north: 33.43, east: -111.93, sizeDeg: 0.01, people, ...o };
};

const alert = adminAlert({ title: 'Water main break', area: { type: 'circle', lat: 33.4255, lng: -111.94, radiusKm: 10 }, status: 'active' });

/** Each read of the map answers the next of these (the last one again once they run out). */
let answers: AlertReach[];
let reads: number;

const reachOf = (o: Partial<AlertReach> = {}): AlertReach => ({
  alertId: alert.id,
  minCellPeople: 5,
  cells: [
    cell({ counts: { reached: 5, pending: 2, failed: 1, needs_help: 0 } }),
    cell({ id: '0.2:33.4:-112', sizeDeg: 0.2, south: 33.4, west: -112, counts: { reached: 1, pending: 0, failed: 3, needs_help: 1 } }),
  ],
  totals: { reached: 8, pending: 3, failed: 5, needs_help: 1 },
  confirmed: 2,
  elsewhere: { reached: 1, pending: 0, failed: 1, needs_help: 0 },
  unlocated: { reached: 1, pending: 1, failed: 0, needs_help: 0 },
  helpRequests: [
    { id: 'h1', status: 'open', createdAt: '2026-03-04T05:30:00.000Z', message: 'Water in the basement', lat: 33.4311, lng: -111.9322 },
    { id: 'h2', status: 'resolved', createdAt: '2026-03-04T05:00:00.000Z', message: '', lat: null, lng: null },
  ],
  helpRequestsTotal: 2,
  at: '2026-03-04T06:00:00.000Z',
  ...o,
});

beforeEach(() => {
  resetFakeSocket();
  setConnected(true);
  reads = 0;
  answers = [reachOf()];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { path } = requestOf(input);
    if (path === `/api/alerts/${alert.id}/reach`) return json(answers[Math.min(reads++, answers.length - 1)]);
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => jest.useRealTimers());

const progress = (alertId: string): AlertProgress => ({
  alertId,
  recipients: 20,
  channels: {},
  done: false,
  responses: { safe: 0, needHelp: 1, helpOpen: 1 },
  at: new Date().toISOString(),
});

const rowOf = (state: string) =>
  within(screen.getByRole('table', { name: 'Recipients by state' }))
    .getByRole('rowheader', { name: state })
    .closest('tr')!;

describe('the reach map on the alert page', () => {
  it('draws the area, the cells and the help requests with a shared place, with a legend and the counts in a table', async () => {
    renderScreen(<ReachMap alert={alert} />);
    const map = await screen.findByRole('region', { name: 'Map of whom the alert Water main break reached' });
    expect(within(map).getByText('area: circle')).toBeInTheDocument();
    expect(
      within(within(map).getByRole('list', { name: 'Cells drawn' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['0.01 deg at 33.42,-111.94: 8 people: 5 Reached, 1 Failed, 2 Not yet', '0.2 deg at 33.4,-112: 5 people: 1 Needs help, 1 Reached, 3 Failed']);
    expect(within(map).getByRole('list', { name: 'Help points drawn' })).toHaveTextContent('open at 33.4311,-111.9322');

    expect(
      within(screen.getByRole('list', { name: 'Map legend' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Reached', 'Not yet', 'Failed', 'Needs help', 'Help request (where shared)']);
    // All recipients, on the map, too few to place, no home on file
    const cellsOf = (state: string) =>
      within(rowOf(state))
        .getAllByRole('cell')
        .map((td) => td.textContent);
    expect(cellsOf('Reached')).toEqual(['8', '6', '1', '1']);
    expect(cellsOf('Not yet')).toEqual(['3', '2', '0', '1']);
    expect(cellsOf('Failed')).toEqual(['5', '4', '1', '0']);
    expect(cellsOf('Needs help')).toEqual(['1', '1', '0', '0']);
    expect(cellsOf('Total')).toEqual(['17', '13', '2', '2']);
    // a provider's acceptance is said as such, never as delivered
    expect(screen.getByText(/^Of the 8 reached/)).toHaveTextContent(
      'Of the 8 reached, 2 confirmed by a receipt (delivered or read); 6 sent to the provider, no receipt yet.',
    );

    const help = within(screen.getByRole('list', { name: 'Help requests (2)' })).getAllByRole('listitem');
    expect(help[0]).toHaveTextContent(/^Open .* · at 33.4311, -111.9322Water in the basement$/);
    expect(help[1]).toHaveTextContent(/^Resolved .* · no location shared$/);
  });

  it('reads the map again on the alert’s progress events, at most every 2 s, the last event of a burst included', async () => {
    jest.useFakeTimers({ now: new Date(2026, 2, 4, 6, 0) });
    renderScreen(<ReachMap alert={alert} />);
    await screen.findByRole('region', { name: /^Map of whom/ });
    expect(reads).toBe(1);
    answers = [reachOf(), reachOf({ cells: [cell({ counts: { reached: 9, pending: 0, failed: 1, needs_help: 0 } })] })];

    // another alert's progress is none of this map's business
    act(() => serverSends('alert:progress', progress('another-alert')));
    await act(async () => jest.advanceTimersByTimeAsync(REACH_REFRESH_MS * 2));
    expect(reads).toBe(1);

    // a burst: one read now, one after it for the rest of the burst
    act(() => serverSends('alert:progress', progress(alert.id)));
    act(() => serverSends('alert:progress', progress(alert.id)));
    act(() => serverSends('alert:progress', progress(alert.id)));
    await act(async () => jest.advanceTimersByTimeAsync(0));
    expect(reads).toBe(2);
    expect(await screen.findByText('0.01 deg at 33.42,-111.94: 10 people: 9 Reached, 1 Failed')).toBeInTheDocument();
    act(() => serverSends('alert:progress', progress(alert.id)));
    await act(async () => jest.advanceTimersByTimeAsync(REACH_REFRESH_MS / 2));
    expect(reads).toBe(2);
    await act(async () => jest.advanceTimersByTimeAsync(REACH_REFRESH_MS / 2));
    expect(reads).toBe(3);
  });

  it('shows nothing for an alert that has not gone out, and reads nothing', async () => {
    renderScreen(<ReachMap alert={adminAlert({ status: 'draft', sentAt: null })} />);
    await act(async () => {});
    expect(screen.queryByRole('heading', { name: 'Reach map' })).not.toBeInTheDocument();
    expect(reads).toBe(0);
  });

  it('mixes a cell’s colour from its people’s states', () => {
    expect(cellColour({ reached: 4, pending: 0, failed: 0, needs_help: 0 })).toBe('#1d4ed8');
    expect(cellColour({ reached: 0, pending: 0, failed: 2, needs_help: 0 })).toBe('#c2410c');
    // half and half: between blue and orange
    expect(cellColour({ reached: 1, pending: 0, failed: 1, needs_help: 0 })).toBe('#704872');
  });
});
