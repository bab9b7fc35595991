import { fireEvent, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast from 'react-hot-toast';
import { COMMUNITY_MESSAGES, GEOLOCATION_MESSAGES, type CommunityPost } from '@beacon/contracts';
import { inLanguage } from '@/test/in-language';
import { json, mockApi, renderScreen, type Call } from '../incidents/test-utils';
import { CommunityPage } from './CommunityPage';

jest.mock('react-hot-toast', () => {
  const fn = Object.assign(jest.fn(), { success: jest.fn(), error: jest.fn() });
  return { __esModule: true, default: fn, toast: fn };
});
// no gateway in jsdom: live events are exercised by the service's integration test
jest.mock('@/app/socket', () => ({ useSocketEvent: jest.fn(), getSocket: jest.fn() }));
jest.mock('../incidents/LocationMap', () => ({
  __esModule: true,
  default: ({ onPick, label }: { onPick: (p: { lat: number; lng: number }) => void; label: string }) => (
    <button type="button" onClick={() => onPick({ lat: 33.5, lng: -112.1 })}>
      {label}
    </button>
  ),
}));

beforeEach(() => jest.clearAllMocks());

const RATE_LIMITED = { statusCode: 429, code: 'rate_limited', message: 'Too many requests. Please try again in 3 minutes.' };

const post = (n: number, over: Partial<CommunityPost> = {}): CommunityPost => ({
  id: `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`,
  title: `Post number ${n}`,
  category: 'traffic-tip',
  description: `Description of post ${n} with enough words to be useful.`,
  imageUrl: null,
  lat: 33.4,
  lng: -112,
  locationName: null,
  userId: 'someone',
  userEmail: '',
  likesCount: 0,
  commentsCount: 0,
  likedByMe: false,
  mine: false,
  status: 'active',
  createdAt: new Date(Date.now() - n * 60_000).toISOString(),
  updatedAt: new Date().toISOString(),
  ...over,
});

function api(overrides: (call: Call) => Response | undefined = () => undefined) {
  return (call: Call): Response => {
    const custom = overrides(call);
    if (custom) return custom;
    if (call.path.endsWith('/community/stats')) return json({ members: 1247, postsThisWeek: 89, commentsToday: 156 });
    if (call.path.endsWith('/points/me')) return json({ points: 0, level: 1, levelName: 'New Member', nextLevelAt: 51, progress: 0, hasRecord: false });
    if (call.path.endsWith('/posts/trending')) return json({ items: [post(1, { title: 'Hot tip', likesCount: 7 })] });
    if (call.path.endsWith('/community/posts')) {
      const offset = Number(call.search.get('offset'));
      const items = Array.from({ length: offset === 0 ? 10 : 2 }, (_, i) => post(offset + i + 1));
      return json({ items, total: 12 });
    }
    return json({ items: [] });
  };
}

function setup(overrides?: (call: Call) => Response | undefined) {
  const user = userEvent.setup();
  const calls = mockApi(api(overrides));
  renderScreen(<CommunityPage />, { path: '/dashboard/community' });
  return { user, calls };
}

describe('Community Forum', () => {
  it('shows the header counts, sidebar, and 10 posts with Load More Posts', async () => {
    const { user, calls } = setup();
    expect(screen.getByRole('heading', { level: 1, name: 'Community Forum' })).toBeInTheDocument();
    expect(await screen.findByText('1,247 members · 89 posts this week')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: '+ New Post' })).toBeInTheDocument();
    expect(await screen.findAllByRole('article')).toHaveLength(10);
    expect(screen.getByText('Showing 10 of 12 posts')).toBeInTheDocument();
    const sidebar = screen.getByRole('complementary', { name: 'Community sidebar' });
    expect(await within(sidebar).findByText('New Member')).toBeInTheDocument();
    expect(within(sidebar).getByText(/Welcome to the community/)).toBeInTheDocument();
    expect(await within(sidebar).findByText('Hot tip')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Load More Posts' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(screen.queryByRole('button', { name: 'Load More Posts' })).not.toBeInTheDocument();
    expect(calls.filter((c) => c.path.endsWith('/community/posts')).map((c) => c.search.get('offset'))).toEqual(['0', '10']);
  });

  it('cuts long text at 200 characters and renders markup as text', async () => {
    const long = `<img src=x onerror=alert(1)> ${'word '.repeat(60)}`;
    setup((call) => (call.path.endsWith('/community/posts') ? json({ items: [post(1, { description: long })], total: 1 }) : undefined));
    const article = await screen.findByRole('article');
    const text = within(article).getByText((_, el) => el?.classList.contains('post-text') ?? false);
    expect(text.textContent).toHaveLength(201);
    expect(text.textContent!.startsWith('<img src=x onerror=alert(1)>')).toBe(true);
    expect(article.querySelector('img')).toBeNull();
  });

  it('sends the filters: category, search, sort', async () => {
    const { user, calls } = setup();
    await screen.findAllByRole('article');
    await user.selectOptions(screen.getByLabelText('Category'), 'neighborhood-watch');
    await user.selectOptions(screen.getByLabelText('Sort by'), 'likes');
    await user.type(screen.getByLabelText('Search posts'), 'pothole');
    await waitFor(() => {
      const last = calls.filter((c) => c.path.endsWith('/community/posts')).at(-1)!;
      expect(Object.fromEntries(last.search)).toMatchObject({ category: 'neighborhood-watch', sort: 'likes', search: 'pothole', offset: '0' });
    });
  });

  describe('radius filter', () => {
    const at = { latitude: 33.512345, longitude: -112.043219 };
    let getCurrentPosition: jest.Mock;
    beforeEach(() => {
      getCurrentPosition = jest.fn();
      Object.defineProperty(navigator, 'geolocation', { value: { getCurrentPosition }, configurable: true });
    });
    afterEach(() => {
      delete (navigator as { geolocation?: unknown }).geolocation;
    });
    const lastList = (calls: Call[]) => Object.fromEntries(calls.filter((c) => c.path.endsWith('/community/posts') && c.method === 'GET').at(-1)!.search);

    it('below 50 km asks for the location once and sends radiusKm, lat and lng; at 50 km sends none', async () => {
      getCurrentPosition.mockImplementation((ok: PositionCallback) => ok({ coords: at } as GeolocationPosition));
      const { calls } = setup();
      await screen.findAllByRole('article');
      const slider = screen.getByLabelText('Radius');
      expect(slider).toHaveAttribute('min', '1');
      expect(slider).toHaveAttribute('max', '50');
      expect(slider).toHaveAttribute('aria-valuetext', 'Any distance');
      expect(lastList(calls)).not.toHaveProperty('radiusKm');

      fireEvent.change(slider, { target: { value: '10' } });
      await waitFor(() => expect(lastList(calls)).toMatchObject({ radiusKm: '10', lat: '33.512345', lng: '-112.043219', offset: '0' }));
      expect(getCurrentPosition).toHaveBeenCalledTimes(1);
      expect(slider).toHaveAttribute('aria-valuetext', 'Within 10 km');

      fireEvent.change(slider, { target: { value: '25' } });
      await waitFor(() => expect(lastList(calls)).toMatchObject({ radiusKm: '25', lat: '33.512345', lng: '-112.043219' }));
      expect(getCurrentPosition).toHaveBeenCalledTimes(1);

      fireEvent.change(slider, { target: { value: '50' } });
      await waitFor(() => expect(slider).toHaveAttribute('aria-valuetext', 'Any distance'));
      await waitFor(() => {
        const last = lastList(calls);
        expect(last).not.toHaveProperty('radiusKm');
        expect(last).not.toHaveProperty('lat');
        expect(last).not.toHaveProperty('lng');
      });
    });

    it('without the location it filters nothing and says why', async () => {
      getCurrentPosition.mockImplementation((_ok: PositionCallback, fail: PositionErrorCallback) => fail({ code: 1 } as GeolocationPositionError));
      const { calls } = setup();
      await screen.findAllByRole('article');
      fireEvent.change(screen.getByLabelText('Radius'), { target: { value: '5' } });
      expect(await screen.findByText(/needs your location: allow it to filter by distance/)).toBeInTheDocument();
      expect(toast.error).toHaveBeenCalledWith(GEOLOCATION_MESSAGES.failed);
      expect(calls.filter((c) => c.path.endsWith('/community/posts')).every((c) => !c.search.has('radiusKm'))).toBe(true);
    });
  });

  it('toggles a like and shows the new count', async () => {
    const { user } = setup((call) => (call.path.endsWith('/like') ? json({ postId: post(1).id, liked: true, likesCount: 1 }) : undefined));
    const first = (await screen.findAllByRole('article'))[0];
    const like = within(first).getByRole('button', { name: /Like \(0\)/ });
    expect(like).toHaveAttribute('aria-pressed', 'false');
    await user.click(like);
    await waitFor(() => expect(within(first).getByRole('button', { name: /Like \(1\)/ })).toHaveAttribute('aria-pressed', 'true'));
  });

  it("says 'Failed to update like' when the like fails", async () => {
    const { user } = setup((call) => (call.path.endsWith('/like') ? json({ statusCode: 500, code: 'internal_error', message: 'x' }, 500) : undefined));
    const first = (await screen.findAllByRole('article'))[0];
    await user.click(within(first).getByRole('button', { name: /Like/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(COMMUNITY_MESSAGES.likeFailed));
  });

  it("shows the limit's own message when liking is refused for too many requests", async () => {
    const { user } = setup((call) => (call.path.endsWith('/like') ? json(RATE_LIMITED, 429) : undefined));
    const first = (await screen.findAllByRole('article'))[0];
    await user.click(within(first).getByRole('button', { name: /Like/ }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(RATE_LIMITED.message));
    expect(toast.error).not.toHaveBeenCalledWith(COMMUNITY_MESSAGES.likeFailed);
  });

  it('shows comments with nested replies and adds one', async () => {
    const p = post(1, { commentsCount: 2 });
    const { user, calls } = setup((call) => {
      if (call.path.endsWith('/community/posts')) return json({ items: [p], total: 1 });
      if (call.path.endsWith('/comments') && call.method === 'GET') {
        return json({
          items: [
            { id: 'c1', postId: p.id, userId: 'u2', parentId: null, content: 'Which exit?', likesCount: 0, mine: false, createdAt: new Date().toISOString() },
            { id: 'c2', postId: p.id, userId: 'u1', parentId: 'c1', content: 'Exit 34.', likesCount: 0, mine: true, createdAt: new Date().toISOString() },
          ],
        });
      }
      if (call.path.endsWith('/comments'))
        return json(
          { id: 'c3', postId: p.id, userId: 'u1', parentId: null, content: 'Thanks!', likesCount: 0, mine: true, createdAt: new Date().toISOString() },
          201,
        );
      return undefined;
    });
    const article = await screen.findByRole('article');
    await user.click(within(article).getByRole('button', { name: /Comments \(2\)/ }));
    const replies = await within(article).findByRole('list', { name: 'Replies' });
    expect(replies).toHaveTextContent('Exit 34.');
    await user.click(within(article).getByRole('button', { name: 'Post Comment' }));
    expect(within(article).getByText(COMMUNITY_MESSAGES.commentRequired)).toBeInTheDocument();
    await user.type(within(article).getByLabelText('Add a comment'), 'Thanks!');
    await user.click(within(article).getByRole('button', { name: 'Post Comment' }));
    expect(await within(article).findByText('Thanks!')).toBeInTheDocument();
    expect(within(article).getByRole('button', { name: /Comments \(3\)/ })).toBeInTheDocument();
    expect(calls.find((c) => c.method === 'POST')!.body).toEqual({ content: 'Thanks!', parentId: null });
  });

  it("shows the limit's own message when commenting is refused for too many requests", async () => {
    const { user } = setup((call) => {
      if (call.path.endsWith('/community/posts')) return json({ items: [post(1)], total: 1 });
      if (call.path.endsWith('/comments') && call.method === 'POST') return json(RATE_LIMITED, 429);
      return undefined;
    });
    const article = await screen.findByRole('article');
    await user.click(within(article).getByRole('button', { name: /Comments/ }));
    await user.type(within(article).getByLabelText('Add a comment'), 'Thanks!');
    await user.click(within(article).getByRole('button', { name: 'Post Comment' }));
    await waitFor(() => expect(toast.error).toHaveBeenCalledWith(RATE_LIMITED.message));
  });

  describe('create-post modal', () => {
    async function open(user: ReturnType<typeof userEvent.setup>) {
      await user.click(screen.getByRole('button', { name: '+ New Post' }));
      return screen.getByRole('dialog', { name: 'Create New Post' });
    }

    it('validates step 1 with the spec messages', async () => {
      const { user } = setup();
      const dialog = await open(user);
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      expect(within(dialog).getByText(COMMUNITY_MESSAGES.titleMin)).toBeInTheDocument();
      expect(within(dialog).getByText(COMMUNITY_MESSAGES.categoryRequired)).toBeInTheDocument();
      expect(within(dialog).getByText(COMMUNITY_MESSAGES.descriptionMin)).toBeInTheDocument();

      await user.click(within(dialog).getByLabelText('Title'));
      await user.paste('t'.repeat(101));
      await user.click(within(dialog).getByLabelText('Description'));
      await user.paste('d'.repeat(1001));
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      expect(within(dialog).getByText(COMMUNITY_MESSAGES.titleMax)).toBeInTheDocument();
      expect(within(dialog).getByText(COMMUNITY_MESSAGES.descriptionMax)).toBeInTheDocument();
      expect(within(dialog).getByRole('heading', { level: 3 })).toHaveTextContent('Step 1 of 2: Post Details');

      const big = new File([new Uint8Array(5 * 1024 * 1024 + 1)], 'big.png', { type: 'image/png' });
      await user.upload(within(dialog).getByLabelText('Image (optional)'), big);
      expect(toast.error).toHaveBeenCalledWith(COMMUNITY_MESSAGES.imageTooLarge);
    });

    it('needs a location on step 2, then creates the post', async () => {
      const { user, calls } = setup((call) =>
        call.method === 'POST' && call.path.endsWith('/community/posts') ? json(post(99, { mine: true }), 201) : undefined,
      );
      const dialog = await open(user);
      await user.type(within(dialog).getByLabelText('Title'), 'Pothole on Central');
      await user.selectOptions(within(dialog).getByLabelText('Category'), 'traffic-tip');
      await user.type(within(dialog).getByLabelText('Description'), 'Deep pothole in the right lane northbound.');
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      expect(within(dialog).getByRole('heading', { level: 3 })).toHaveTextContent('Step 2 of 2: Location');

      await user.click(within(dialog).getByRole('button', { name: 'Create Post' }));
      expect(within(dialog).getByRole('alert')).toHaveTextContent(COMMUNITY_MESSAGES.locationRequired);

      await user.click(within(dialog).getByRole('button', { name: 'Post location map' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create Post' }));
      await waitFor(() => expect(toast.success).toHaveBeenCalledWith(COMMUNITY_MESSAGES.posted));
      expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
      const create = calls.find((c) => c.method === 'POST')!;
      expect(create.body).toEqual({
        title: 'Pothole on Central',
        category: 'traffic-tip',
        description: 'Deep pothole in the right lane northbound.',
        lat: 33.5,
        lng: -112.1,
        locationName: null,
        imagePath: null,
      });
    });

    async function fillDetails(user: ReturnType<typeof userEvent.setup>, dialog: HTMLElement) {
      await user.type(within(dialog).getByLabelText('Title'), 'Pothole on Central');
      await user.selectOptions(within(dialog).getByLabelText('Category'), 'traffic-tip');
      await user.type(within(dialog).getByLabelText('Description'), 'Deep pothole in the right lane northbound.');
    }
    // a PNG's signature and IHDR chunk header: the modal sniffs the bytes at selection
    const photo = () =>
      new File([new Uint8Array([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 0, 0, 0, 13, 0x49, 0x48, 0x44, 0x52, 1, 2, 3])], 'pothole.png', {
        type: 'image/png',
      });
    const UPLOAD = '/api/incidents/uploads/community-post-photos';

    it('uploads the chosen image, then creates the post with its stored path', async () => {
      const stored = 'community-post-photos/00000000-0000-4000-8000-00000000a11c/1763800000000.png';
      const { user, calls } = setup((call) => {
        if (call.method === 'POST' && call.path === UPLOAD)
          return json({ path: stored, url: `/api/incidents/uploads/${stored}`, contentType: 'image/png' }, 201);
        if (call.method === 'POST' && call.path.endsWith('/community/posts'))
          return json(post(99, { mine: true, imageUrl: `/api/incidents/uploads/${stored}` }), 201);
        return undefined;
      });
      const dialog = await open(user);
      await fillDetails(user, dialog);
      await user.upload(within(dialog).getByLabelText('Image (optional)'), photo());
      expect(await within(dialog).findByText('pothole.png')).toBeInTheDocument();
      expect(within(dialog).getByRole('button', { name: 'Remove image' })).toBeInTheDocument();
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      await user.click(await within(dialog).findByRole('button', { name: 'Post location map' }));
      await user.type(within(dialog).getByLabelText('Location Name (optional)'), 'Central Ave at Osborn');
      await user.click(within(dialog).getByRole('button', { name: 'Create Post' }));
      await waitFor(() => expect(toast.success).toHaveBeenCalledWith(COMMUNITY_MESSAGES.posted));

      const posts = calls.filter((c) => c.method === 'POST');
      expect(posts.map((c) => c.path)).toEqual([UPLOAD, '/api/incidents/community/posts']);
      expect(posts[0].body).toBe('multipart/form-data');
      expect(posts[1].body).toEqual({
        title: 'Pothole on Central',
        category: 'traffic-tip',
        description: 'Deep pothole in the right lane northbound.',
        lat: 33.5,
        lng: -112.1,
        locationName: 'Central Ave at Osborn',
        imagePath: stored,
      });
    });

    it("shows the server's refusal of the image on step 1 and creates no post", async () => {
      const { user, calls } = setup((call) =>
        call.method === 'POST' && call.path === UPLOAD
          ? json({ statusCode: 400, code: 'invalid_image', message: COMMUNITY_MESSAGES.invalidImage }, 400)
          : undefined,
      );
      const dialog = await open(user);
      await fillDetails(user, dialog);
      await user.upload(within(dialog).getByLabelText('Image (optional)'), photo());
      await within(dialog).findByText('pothole.png');
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      await user.click(await within(dialog).findByRole('button', { name: 'Post location map' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create Post' }));
      expect(await within(dialog).findByText(COMMUNITY_MESSAGES.invalidImage)).toBeInTheDocument();
      expect(within(dialog).getByRole('heading', { level: 3 })).toHaveTextContent('Step 1 of 2: Post Details');
      expect(within(dialog).getByLabelText('Image (optional)')).toHaveAttribute('aria-invalid', 'true');
      expect(calls.filter((c) => c.method === 'POST').map((c) => c.path)).toEqual([UPLOAD]);
    });

    it("shows the limit's own message when posting is refused for too many requests", async () => {
      const { user } = setup((call) => (call.method === 'POST' ? json(RATE_LIMITED, 429) : undefined));
      const dialog = await open(user);
      await user.type(within(dialog).getByLabelText('Title'), 'Pothole on Central');
      await user.selectOptions(within(dialog).getByLabelText('Category'), 'traffic-tip');
      await user.type(within(dialog).getByLabelText('Description'), 'Deep pothole in the right lane northbound.');
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      await user.click(within(dialog).getByRole('button', { name: 'Post location map' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create Post' }));
      await waitFor(() => expect(toast.error).toHaveBeenCalledWith(RATE_LIMITED.message));
      expect(screen.getByRole('dialog')).toBeInTheDocument();
    });

    it("says 'Failed to create post. Please try again.' when it fails", async () => {
      const { user } = setup((call) => (call.method === 'POST' ? json({ statusCode: 500, code: 'internal_error', message: 'x' }, 500) : undefined));
      const dialog = await open(user);
      await user.type(within(dialog).getByLabelText('Title'), 'Pothole on Central');
      await user.selectOptions(within(dialog).getByLabelText('Category'), 'traffic-tip');
      await user.type(within(dialog).getByLabelText('Description'), 'Deep pothole in the right lane northbound.');
      await user.click(within(dialog).getByRole('button', { name: 'Next' }));
      await user.click(within(dialog).getByRole('button', { name: 'Post location map' }));
      await user.click(within(dialog).getByRole('button', { name: 'Create Post' }));
      await waitFor(() => expect(toast.error).toHaveBeenCalledWith(COMMUNITY_MESSAGES.postFailed));
      expect(screen.getByRole('dialog')).toBeInTheDocument();
    });
  });

  describe('in Spanish', () => {
    function setupEs(overrides?: (call: Call) => Response | undefined) {
      const user = userEvent.setup();
      mockApi(api(overrides));
      renderScreen(inLanguage('es', <CommunityPage />), { path: '/dashboard/community' });
      return { user };
    }

    it('shows the forum, its counts, filters and posts in Spanish', async () => {
      setupEs();
      expect(screen.getByRole('heading', { level: 1, name: 'Foro de la comunidad' })).toBeInTheDocument();
      expect(await screen.findByText('1247 miembros · 89 publicaciones esta semana')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: '+ Nueva publicación' })).toBeInTheDocument();
      expect(screen.getByRole('option', { name: 'Vigilancia vecinal' })).toBeInTheDocument();
      expect(screen.getByLabelText('Radio')).toHaveAttribute('aria-valuetext', 'Cualquier distancia');
      const first = (await screen.findAllByRole('article'))[0];
      expect(within(first).getByText('Consejo de tráfico')).toBeInTheDocument();
      expect(within(first).getByRole('button', { name: 'Me gusta (0)' })).toBeInTheDocument();
      expect(screen.getByText('Se muestran 10 de 12 publicaciones')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Cargar más publicaciones' })).toBeInTheDocument();
      const sidebar = screen.getByRole('complementary', { name: 'Barra lateral de la comunidad' });
      expect(await within(sidebar).findByText('Miembro nuevo')).toBeInTheDocument();
      expect(within(sidebar).getByText('1247')).toBeInTheDocument();
    });

    it('validates a new post in Spanish', async () => {
      const { user } = setupEs();
      await user.click(screen.getByRole('button', { name: '+ Nueva publicación' }));
      const dialog = screen.getByRole('dialog', { name: 'Crear nueva publicación' });
      await user.click(within(dialog).getByRole('button', { name: 'Siguiente' }));
      expect(within(dialog).getByText('El título debe tener al menos 5 caracteres')).toBeInTheDocument();
      expect(within(dialog).getByText('Seleccione una categoría', { selector: '.field-error' })).toBeInTheDocument();
      expect(within(dialog).getByText('La descripción debe tener al menos 20 caracteres')).toBeInTheDocument();
      expect(within(dialog).getByRole('heading', { level: 3 })).toHaveTextContent('Paso 1 de 2: Detalles de la publicación');
    });
  });
});
