import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { CapOrigin, CapSource } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { CapSourcesSection } from './CapSourcesSection';
import { CapOriginLine } from './CapOriginLine';
import { renderScreen, requestOf } from './test-utils';

let sources: CapSource[];
let sent: { method: string; path: string; body: unknown }[];

const source = (o: Partial<CapSource> = {}): CapSource => ({
  id: '11111111-1111-4111-8111-111111111111',
  name: 'NWS Phoenix',
  url: 'https://alerts.example.gov/cap.atom',
  intervalSeconds: 120,
  categories: ['Met'],
  severities: [],
  mode: 'draft',
  channels: ['push'],
  enabled: true,
  health: {
    state: 'failing',
    lastFetchAt: '2026-11-25T10:00:00.000Z',
    lastSuccessAt: null,
    lastError: 'the source answered 503',
    failures: 2,
    nextFetchAt: '2026-11-25T10:08:00.000Z',
    recentRefusals: [{ at: '2026-11-25T09:59:00.000Z', url: 'https://alerts.example.gov/x.xml', reason: '<b>the document has a DOCTYPE</b>' }],
  },
  ...o,
});

beforeEach(() => {
  sources = [source()];
  sent = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (req.method !== 'GET') {
      const body = req.method === 'DELETE' ? null : await req.json().catch(() => null);
      sent.push({ method: req.method, path, body });
      if (path.endsWith('/poll')) return json({ fetched: 3, created: 1, updated: 0, cancelled: 0, ignored: 0, refused: 1, leftForNextPoll: 0 });
      if (req.method === 'POST') {
        const created = source({
          ...(body as object),
          id: '22222222-2222-4222-8222-222222222222',
          health: { ...source().health, state: 'never_fetched', lastError: null, recentRefusals: [] },
        });
        sources = [...sources, created];
        return json(created, 201);
      }
      return json({ statusCode: 400, code: 'validation_failed', message: 'Feed URL must be an http(s) URL' }, 400);
    }
    if (path === '/api/alerts/admin/cap-sources') return json(sources);
    return json({ code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

describe('CAP sources (Admin Settings)', () => {
  it("shows each source's health: state, last error, next try and recent refusals (as text)", async () => {
    renderScreen(<CapSourcesSection />);
    const item = await screen.findByRole('listitem', { name: 'NWS Phoenix' });
    expect(within(item).getByText('Failing')).toBeInTheDocument();
    expect(within(item).getByText('the source answered 503')).toBeInTheDocument();
    expect(within(item).getByText('Next try')).toBeInTheDocument();
    const refusals = within(item).getByRole('list', { name: 'Refusals of NWS Phoenix' });
    expect(refusals).toHaveTextContent('<b>the document has a DOCTYPE</b>');
    expect(refusals.querySelector('b')).toBeNull();
  });

  it('adds a source with its rule and channels', async () => {
    const user = userEvent.setup();
    renderScreen(<CapSourcesSection />);
    await user.click(await screen.findByRole('button', { name: 'Add CAP source' }));
    await user.type(screen.getByLabelText('Source name'), 'County EM');
    await user.type(screen.getByLabelText('Feed URL'), 'https://em.example.gov/feed.atom');
    await user.clear(screen.getByLabelText('Polling interval (seconds)'));
    await user.type(screen.getByLabelText('Polling interval (seconds)'), '60');
    await user.click(screen.getByRole('checkbox', { name: 'Met' }));
    await user.click(screen.getByRole('checkbox', { name: 'Extreme' }));
    await user.selectOptions(screen.getByLabelText('When a message comes in'), 'send_extreme_immediate');
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    // CAP-made alerts may call people too (issue #39)
    await user.click(screen.getByRole('checkbox', { name: 'Voice call' }));
    await user.click(screen.getByRole('button', { name: 'Add source' }));
    expect(await screen.findByRole('listitem', { name: 'County EM' })).toBeInTheDocument();
    expect(sent).toEqual([
      {
        method: 'POST',
        path: '/api/alerts/admin/cap-sources',
        body: {
          name: 'County EM',
          url: 'https://em.example.gov/feed.atom',
          intervalSeconds: 60,
          categories: ['Met'],
          severities: ['Extreme'],
          mode: 'send_extreme_immediate',
          channels: ['push', 'sms', 'voice'],
          enabled: true,
        },
      },
    ]);
  });

  it("Fetch now polls the source; a refused save shows the server's words and keeps the form", async () => {
    const user = userEvent.setup();
    renderScreen(<CapSourcesSection />);
    const item = await screen.findByRole('listitem', { name: 'NWS Phoenix' });
    await user.click(within(item).getByRole('button', { name: 'Fetch now' }));
    expect(await screen.findByText('Fetched: 1 new, 0 updated, 0 ended, 1 refused')).toBeInTheDocument();
    await user.click(within(item).getByRole('button', { name: 'Edit' }));
    await user.click(screen.getByRole('button', { name: 'Save source' }));
    expect(await screen.findByText('Feed URL must be an http(s) URL')).toBeInTheDocument();
    expect(screen.getByRole('form', { name: 'Edit CAP source' })).toBeInTheDocument();
    expect(sent.map((s) => `${s.method} ${s.path}`)).toEqual([
      `POST /api/alerts/admin/cap-sources/${source().id}/poll`,
      `PUT /api/alerts/admin/cap-sources/${source().id}`,
    ]);
  });
});

describe("an alert's CAP origin", () => {
  const origin: CapOrigin = {
    sourceId: source().id,
    sourceName: 'NWS Phoenix',
    sender: 'w-nws.webmaster@noaa.gov',
    identifier: 'urn:oid:2.49.0.1.840.0.1',
    sent: '2026-11-25T10:00:00-07:00',
    url: 'https://alerts.example.gov/1.xml',
  };
  it('names the source and links to the original message; a geocode-only draft asks for an area', async () => {
    global.fetch = jest.fn(async () => json(origin)) as unknown as typeof fetch;
    renderScreen(<CapOriginLine alert={{ id: 'a1', source: 'cap', lat: null }} />);
    expect(await screen.findByRole('link', { name: 'Original message' })).toHaveAttribute('href', 'https://alerts.example.gov/1.xml');
    expect(screen.getByText('NWS Phoenix')).toBeInTheDocument();
    expect(screen.getByText(/give this draft an area before sending it/)).toBeInTheDocument();
  });
  it('does not link an address that is not http(s)', async () => {
    global.fetch = jest.fn(async () => json({ ...origin, url: 'javascript:alert(1)' })) as unknown as typeof fetch;
    renderScreen(<CapOriginLine alert={{ id: 'a1', source: 'cap', lat: 33 }} />);
    expect(await screen.findByText('NWS Phoenix')).toBeInTheDocument();
    expect(screen.queryByRole('link')).toBeNull();
  });
});
