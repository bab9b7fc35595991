import type { ReactElement } from 'react';
import { cleanup, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { DEFAULT_PREFERENCES } from '@beacon/contracts';
import { Provider } from 'react-redux';
import { MemoryRouter } from 'react-router-dom';
import { makeStore } from '@/app/store';
import { signedIn } from '@/features/auth/auth.slice';
import { auth } from '@/features/auth/auth-client';
import { inLanguage } from '@/test/in-language';
import { jsonResponse as json } from '@/test/json-response';
import { ActivityPage } from './ActivityPage';
import { DashboardHomePage } from './DashboardHomePage';

const hoursAgo = (h: number) => new Date(Date.now() - h * 3600_000).toISOString();

type Answer = (path: string, search: URLSearchParams) => Response;

function renderHome(answer: Answer, page: ReactElement = <DashboardHomePage />) {
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const url = new URL((input as Request).url);
    return answer(url.pathname, url.searchParams);
  }) as unknown as typeof fetch;
  const store = makeStore();
  store.dispatch(signedIn({ id: 'u1', email: 'pat.driver@example.com', role: 'user' }));
  render(
    <Provider store={store}>
      <MemoryRouter>{page}</MemoryRouter>
    </Provider>,
  );
}

/** The user's data on every endpoint the dashboard reads; `down` makes a source answer 503. */
const userData =
  (down: { community?: boolean } = {}): Answer =>
  (path, search) => {
    if (path === '/api/incidents/community/points/me')
      return json({ points: 120, level: 2, levelName: 'Regular', nextLevelAt: 201, progress: 46, hasRecord: true });
    if (path === '/api/incidents/incidents/mine') {
      return json({
        total: 2,
        items: [
          {
            id: 'r1',
            type: 'wrong-way-driver',
            description: 'x',
            locationName: 'I-17 at Dunlap',
            lat: 0,
            lng: 0,
            photoUrl: null,
            status: 'verified',
            reportedBy: 'u1',
            mine: true,
            autoApproved: false,
            moderatedAt: null,
            moderationNote: null,
            createdAt: hoursAgo(2),
            updatedAt: hoursAgo(2),
          },
          {
            id: 'r2',
            type: 'other',
            description: 'y',
            locationName: null,
            lat: 0,
            lng: 0,
            photoUrl: null,
            status: 'pending',
            reportedBy: 'u1',
            mine: true,
            autoApproved: false,
            moderatedAt: null,
            moderationNote: null,
            createdAt: hoursAgo(30),
            updatedAt: hoursAgo(30),
          },
        ],
      });
    }
    if (path === '/api/alerts/me/alerts/active')
      return json([{ id: 'a1', title: 'Flooding on Main St', read: false, severity: 'high', createdAt: hoursAgo(1) }]);
    if (path === '/api/alerts/me/alerts') {
      if (search.get('unread') === 'true') return json({ items: [], total: 1, page: 1, pageSize: 1, totalPages: 1 });
      const items = [
        { id: 'a1', title: 'Flooding on Main St', message: 'm', severity: 'high', read: false, locationName: 'Main St', createdAt: hoursAgo(1) },
        { id: 'a2', title: 'Road closed', message: 'm', severity: 'low', read: true, locationName: null, createdAt: hoursAgo(5) },
      ];
      return json({
        items: search.get('pageSize') === '1' ? items.slice(0, 1) : items,
        total: 2,
        page: 1,
        pageSize: Number(search.get('pageSize')),
        totalPages: 1,
      });
    }
    if (path === '/api/incidents/community/me/activity') {
      if (down.community) return json({ statusCode: 503, code: 'service_unavailable', message: 'down' }, 503);
      return json({
        total: 2,
        items: [
          { kind: 'comment', id: 'c1', postId: 'p7', postTitle: 'Pothole on Central Ave', excerpt: 'Still there this morning', createdAt: hoursAgo(3) },
          { kind: 'post', id: 'p1', postId: 'p1', title: 'Wrong way on I-10', category: 'wrong-way-driver', createdAt: hoursAgo(40) },
        ],
      });
    }
    return json({}, 404);
  };

const statValue = (name: string) => within(screen.getByText(name).closest('.stat-card') as HTMLElement);
const titlesIn = (list: HTMLElement) =>
  within(list)
    .getAllByRole('listitem')
    .map((li) => li.querySelector('.activity-title')?.textContent);
const recentTitles = () => titlesIn(screen.getByRole('region', { name: 'Recent Activity' }));

describe('DashboardHomePage', () => {
  it('shows the user, today and the quick actions, with zeros when the services fail', async () => {
    renderHome(() => json({ statusCode: 503, code: 'service_unavailable', message: 'down' }, 503));
    expect(await screen.findByRole('heading', { name: 'Welcome, pat.driver!' })).toBeInTheDocument();
    expect(screen.getByText('All systems operational')).toBeInTheDocument();
    expect(await screen.findByText('Your activity is not available right now.')).toBeInTheDocument();
    expect(statValue('Active Alerts').getByText('0')).toBeInTheDocument();
    expect(statValue('Reports Submitted').getByText('0')).toBeInTheDocument();
    expect(await within(screen.getByRole('region', { name: 'Your Progress' })).findByText('New Member')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Call 911/ })).toHaveAttribute('href', 'tel:911');
    expect(screen.getByRole('link', { name: /Help & FAQ/ })).toHaveAttribute('href', '/faq');
    expect(screen.getByRole('link', { name: /Community/ })).toHaveAttribute('href', '/dashboard/community');
    expect(screen.getByRole('link', { name: /Report Incident/ })).toHaveAttribute('href', '/dashboard/report-incident');
    expect(screen.getByRole('link', { name: 'View all activity' })).toHaveAttribute('href', '/dashboard/activity');
  });

  it('fills stats, progress, badges and recent activity from the real endpoints', async () => {
    renderHome(userData());
    await waitFor(() => expect(statValue('Reports Submitted').getByText('2')).toBeInTheDocument());
    expect(statValue('Reports Submitted').getByText('1 verified')).toBeInTheDocument();
    expect(statValue('Active Alerts').getByText('1')).toBeInTheDocument();
    expect(statValue('Alerts Received').getByText('2')).toBeInTheDocument();
    expect(statValue('Community Points').getByText('120')).toBeInTheDocument();
    expect(screen.getByText('81 points to next level (46%)')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: 'Progress to the next level' })).toHaveAttribute('aria-valuenow', '46');
    const badges = within(screen.getByRole('region', { name: 'Recent Achievements' })).getAllByRole('listitem');
    expect(badges.map((b) => [b.textContent?.includes('Earned'), b.querySelector('.achievement-name')?.textContent])).toEqual([
      [true, 'First Report'],
      [true, 'Verified Reporter'],
      [true, 'Alert Responder'],
      [true, 'Community Regular'],
    ]);
    // the community comment (3 hours ago) sits between the report and the older alert; the 40-hour-old post is past the first 5
    await waitFor(() =>
      expect(recentTitles()).toEqual([
        'Flooding on Main St',
        'You reported: Wrong-way Driver',
        'You commented on: Pothole on Central Ave',
        'Road closed',
        'You reported: Other',
      ]),
    );
    expect(screen.getByRole('link', { name: /You commented on: Pothole on Central Ave/ })).toHaveAttribute('href', '/dashboard/community');
    expect(screen.queryByText(/not available right now/)).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Flooding on Main St/ })).toHaveAttribute('href', '/alerts/a1');
  });

  it('keeps alerts and reports when community activity fails, and says so', async () => {
    renderHome(userData({ community: true }));
    expect(await screen.findByText('Community activity is not available right now.')).toBeInTheDocument();
    await waitFor(() => expect(recentTitles()).toEqual(['Flooding on Main St', 'You reported: Wrong-way Driver', 'Road closed', 'You reported: Other']));
  });
});

/** The person's profile as the session holds it: what they answered at their first run. */
function sessionWith(meta: Record<string, unknown>) {
  jest.spyOn(auth, 'getSession').mockResolvedValue({ data: { session: { user: { user_metadata: meta } } }, error: null } as never);
  return jest.spyOn(auth, 'updateUser').mockResolvedValue({ data: { user: null }, error: null } as never);
}

describe('DashboardHomePage: the person, their place and their unread alerts (issue #40)', () => {
  const prefs = (home: unknown) => ({ ...DEFAULT_PREFERENCES, home });
  const withAnswers =
    (extra: Record<string, (search: URLSearchParams) => Response>): Answer =>
    (path, search) =>
      extra[path]?.(search) ?? userData()(path, search);
  afterEach(() => jest.restoreAllMocks());

  it('says "Welcome" on a first visit, with a way to set a home instead of a made-up city', async () => {
    sessionWith({});
    renderHome(withAnswers({ '/api/alerts/me/preferences': () => json(prefs(null)) }));
    expect(await screen.findByRole('heading', { name: 'Welcome, pat.driver!' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Set your home' })).toHaveAttribute('href', '/dashboard/alerts#home-location');
    expect(screen.queryByText(/Phoenix/)).not.toBeInTheDocument();
  });

  it('says "Welcome back" to a person who finished their first run before, and shows their home by name', async () => {
    sessionWith({
      location_prompt_answered_at: '2026-01-01T00:00:00Z',
      notifications_prompt_answered_at: '2026-01-01T00:00:00Z',
      first_run_done_at: '2026-01-01T00:00:00Z',
    });
    renderHome(withAnswers({ '/api/alerts/me/preferences': () => json(prefs({ lat: 33.4255, lng: -111.94, name: 'Tempe, Arizona' })) }));
    expect(await screen.findByText('Tempe, Arizona')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Welcome back, pat.driver!' })).toBeInTheDocument();
    expect(screen.queryByRole('link', { name: 'Set your home' })).not.toBeInTheDocument();
  });

  it('names a home saved without a name through the geocoder, and shows its coordinates when it knows none', async () => {
    sessionWith({ first_run_done_at: '2026-01-01T00:00:00Z' });
    let reverse: Response = json({ label: 'Flagstaff, Arizona', lat: 35.1983, lng: -111.6513 });
    const reverseAsked: string[] = [];
    const answer = withAnswers({
      '/api/alerts/me/preferences': () => json(prefs({ lat: 35.1983, lng: -111.6513, name: null })),
      '/api/alerts/me/places/reverse': (search) => {
        reverseAsked.push(`${search.get('lat')},${search.get('lng')}`);
        return reverse;
      },
    });
    renderHome(answer);
    expect(await screen.findByText('Flagstaff, Arizona')).toBeInTheDocument();
    expect(reverseAsked).toEqual(['35.1983,-111.6513']);

    cleanup();
    reverse = json({ statusCode: 503, code: 'geocoder_not_configured', message: 'No geocoder is configured' }, 503);
    renderHome(answer);
    expect(await screen.findByText('35.1983, -111.6513')).toBeInTheDocument();
  });

  it('speaks Spanish to a Spanish reader: greeting, today, figures, badges, activity and the failing source', async () => {
    sessionWith({ first_run_done_at: '2026-01-01T00:00:00Z' });
    renderHome(
      withAnswers({
        '/api/alerts/me/alerts/unread-count': () => json({ count: 1 }),
        '/api/alerts/me/preferences': () => json(prefs(null)),
        '/api/incidents/community/me/activity': () => json({ statusCode: 503, code: 'service_unavailable', message: 'down' }, 503),
      }),
      inLanguage('es', <DashboardHomePage />),
    );
    expect(await screen.findByRole('heading', { name: '¡Hola de nuevo, pat.driver!' })).toBeInTheDocument();
    expect(await screen.findByRole('link', { name: 'Indique su domicilio' })).toBeInTheDocument();
    // today in Spanish words: the weekday and month are lowercase Spanish names, never English ones
    const today = new Intl.DateTimeFormat('es', { weekday: 'long', month: 'long', day: 'numeric', year: 'numeric' }).format(new Date());
    expect(screen.getByText(today)).toBeInTheDocument();
    await waitFor(() => expect(statValue('Reportes enviados').getByText('2')).toBeInTheDocument());
    expect(statValue('Reportes enviados').getByText('1 verificado')).toBeInTheDocument();
    expect(statValue('Alertas activas').getByText('1 sin leer')).toBeInTheDocument();
    expect(screen.getByText(/^81 puntos para el siguiente nivel \(46\s%\)$/)).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Logros recientes' })).toBeInTheDocument();
    expect(screen.getByRole('link', { name: /Llamar al 911/ })).toHaveAttribute('href', 'tel:911');
    expect(await screen.findByText('La actividad de la comunidad no está disponible en este momento.')).toBeInTheDocument();
    await waitFor(() =>
      expect(titlesIn(screen.getByRole('region', { name: 'Actividad reciente' }))).toEqual([
        'Flooding on Main St',
        'Reportó: Conductor en sentido contrario',
        'Road closed',
        'Reportó: Otro',
      ]),
    );
    expect(screen.getByText(/Verificado · I-17 at Dunlap$/)).toBeInTheDocument();
  });

  it("counts unread alerts from the service's unread count, which leaves ended alerts out", async () => {
    sessionWith({ first_run_done_at: '2026-01-01T00:00:00Z' });
    renderHome(
      withAnswers({
        '/api/alerts/me/alerts/unread-count': () => json({ count: 0 }),
        '/api/alerts/me/preferences': () => json(prefs({ lat: 33.4, lng: -112, name: 'Phoenix' })),
      }),
    );
    // the active list still holds an unread alert (ended since), the unread count has none
    await waitFor(() => expect(statValue('Active Alerts').getByText('1')).toBeInTheDocument());
    expect(await statValue('Active Alerts').findByText('All caught up')).toBeInTheDocument();
    expect(statValue('Alerts Received').getByText('0 unread')).toBeInTheDocument();

    cleanup();
    renderHome(withAnswers({ '/api/alerts/me/alerts/unread-count': () => json({ count: 3 }) }));
    await waitFor(() => expect(statValue('Active Alerts').getByText('3 unread')).toBeInTheDocument());
    expect(statValue('Alerts Received').getByText('3 unread')).toBeInTheDocument();
  });
});

describe('ActivityPage', () => {
  const titles = () => titlesIn(screen.getByRole('list'));

  it('merges community activity in time order and filters by type', async () => {
    renderHome(userData(), <ActivityPage />);
    await waitFor(() =>
      expect(titles()).toEqual([
        'Flooding on Main St',
        'You reported: Wrong-way Driver',
        'You commented on: Pothole on Central Ave',
        'Road closed',
        'You reported: Other',
        'You posted: Wrong way on I-10',
      ]),
    );
    fireEvent.click(screen.getByRole('button', { name: 'Community' }));
    expect(screen.getByRole('button', { name: 'Community' })).toHaveAttribute('aria-pressed', 'true');
    expect(titles()).toEqual(['You commented on: Pothole on Central Ave', 'You posted: Wrong way on I-10']);
    fireEvent.click(screen.getByRole('button', { name: 'Reports' }));
    expect(titles()).toEqual(['You reported: Wrong-way Driver', 'You reported: Other']);
  });

  it('still lists alerts and reports when community activity fails', async () => {
    renderHome(userData({ community: true }), <ActivityPage />);
    expect(await screen.findByText('Community activity is not available right now.')).toBeInTheDocument();
    await waitFor(() => expect(titles()).toEqual(['Flooding on Main St', 'You reported: Wrong-way Driver', 'Road closed', 'You reported: Other']));
    fireEvent.click(screen.getByRole('button', { name: 'Community' }));
    expect(screen.getByText('No activity yet.')).toBeInTheDocument();
  });
});
