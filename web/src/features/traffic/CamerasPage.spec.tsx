import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import { Provider } from 'react-redux';
import { makeStore } from '@/app/store';
import { CamerasPage } from './CamerasPage';
import type { Camera } from './traffic.api';
import { inLanguage } from '@/test/in-language';
import { jsonResponse } from '@/test/json-response';

const ROADWAYS = ['US 60', 'I-10', 'Loop 101', 'I-17', 'SR 51'];

function camera(i: number, extra: Partial<Camera> = {}): Camera {
  return {
    cameraId: `cam-${i}`,
    roadway: ROADWAYS[i % ROADWAYS.length],
    direction: i % 2 ? 'Northbound' : null,
    description: `Camera ${i} at Exit ${i}`,
    lat: 33.4,
    lng: -112,
    imageUrl: `/api/traffic/camera-images/${i}.svg`,
    lastUpdated: '2024-03-05T15:07:00',
    ...extra,
  };
}

type Reply = Camera[] | 'fail' | Promise<Camera[]>;

/** Answers GET /api/traffic/cameras from a queue of replies (the last one repeats), and counts the calls. */
function installApi(...replies: Reply[]) {
  const calls: string[] = [];
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const req = input instanceof Request ? input : new Request(String(input));
    const url = new URL(req.url, 'http://localhost');
    calls.push(url.pathname);
    if (url.pathname !== '/api/traffic/cameras') return new Response('{}', { status: 404 });
    const reply = replies.length > 1 ? replies.shift()! : replies[0];
    const items = await reply;
    if (items === 'fail') return jsonResponse({ statusCode: 500, code: 'internal_error', message: 'boom' }, 500);
    return jsonResponse({ items });
  }) as unknown as typeof fetch;
  return calls;
}

function renderPage() {
  return render(
    <Provider store={makeStore()}>
      <CamerasPage />
    </Provider>,
  );
}

const cards = () => screen.queryAllByTestId('camera-card');

afterEach(() => jest.useRealTimers());

describe('CamerasPage', () => {
  it('shows a spinner, then the summary and the first 9 cameras, and pages 9 at a time', async () => {
    installApi(Array.from({ length: 20 }, (_, i) => camera(i)));
    renderPage();
    expect(screen.getByRole('heading', { name: 'Traffic Cameras' })).toBeInTheDocument();
    expect(screen.getByText('Loading cameras')).toBeInTheDocument();

    expect(await screen.findByRole('heading', { name: '20 Cameras Available' })).toBeInTheDocument();
    expect(screen.getByText('Showing 9 of 20 cameras')).toBeInTheDocument();
    expect(screen.getByText('Auto-refresh every 60s')).toBeInTheDocument();
    expect(cards()).toHaveLength(9);

    fireEvent.click(screen.getByRole('button', { name: 'Show More Cameras (11 remaining)' }));
    expect(cards()).toHaveLength(18);
    expect(screen.getByText('Showing 18 of 20 cameras')).toBeInTheDocument();
    fireEvent.click(screen.getByRole('button', { name: 'Show More Cameras (2 remaining)' }));
    expect(cards()).toHaveLength(20);
    expect(screen.queryByRole('button', { name: /Show More Cameras/ })).not.toBeInTheDocument();
  });

  it('orders by roadway A to Z with unavailable cameras last', async () => {
    installApi([
      camera(1, { roadway: 'US 60' }),
      camera(2, { roadway: 'I-10', description: 'Camera offline for maintenance' }),
      camera(3, { roadway: 'Loop 202' }),
      camera(4, { roadway: 'I-17' }),
    ]);
    renderPage();
    await screen.findByRole('heading', { name: '3 Cameras Available' });
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual(['I-17', 'Loop 202', 'US 60', 'I-10']);
  });

  it('renders a card: LIVE badge, image, direction, description, Updated date, links that open a new tab without opener or referrer', async () => {
    installApi([camera(1, { roadway: 'I-10', direction: 'Eastbound', description: 'I-10 EB at 7th St' })]);
    const open = jest.spyOn(window, 'open').mockReturnValue(null);
    renderPage();
    const card = await screen.findByRole('article', { name: 'Camera I-10 Eastbound, I-10 EB at 7th St' });
    // the traffic service's drawn still: labelled for what it is, never LIVE
    expect(within(card).getByText('Illustration')).toBeInTheDocument();
    expect(within(card).queryByText('LIVE')).not.toBeInTheDocument();
    expect(within(card).getByRole('img', { name: /^Illustration of a traffic camera view: / })).toHaveAttribute('src', '/api/traffic/camera-images/1.svg');
    expect(within(card).getByText('Eastbound')).toBeInTheDocument();
    expect(within(card).getByText('I-10 EB at 7th St')).toBeInTheDocument();
    expect(within(card).getByText('Updated Mar 5, 2024 3:07 PM')).toBeInTheDocument();
    const link = within(card).getByRole('link', { name: /View Full/ });
    expect(link).toHaveAttribute('href', '/api/traffic/camera-images/1.svg');
    expect(link).toHaveAttribute('target', '_blank');
    expect(link).toHaveAttribute('rel', 'noopener noreferrer');
    fireEvent.click(within(card).getByRole('button', { name: 'View full image' }));
    expect(open).toHaveBeenCalledWith('/api/traffic/camera-images/1.svg', '_blank', 'noopener,noreferrer');
    open.mockRestore();
  });

  it("shows 'Unknown' for a missing or invalid update time", async () => {
    installApi([camera(1, { lastUpdated: null }), camera(2, { lastUpdated: 'not a date' })]);
    renderPage();
    await screen.findByRole('heading', { name: '2 Cameras Available' });
    expect(screen.getAllByText('Updated Unknown')).toHaveLength(2);
  });

  it("shows 'Image unavailable' for cameras without an image or with an unavailable phrase", async () => {
    installApi([camera(1, { imageUrl: null }), camera(2, { description: 'No live camera feed at this time' }), camera(3)]);
    renderPage();
    await screen.findByRole('heading', { name: '1 Cameras Available' });
    expect(screen.getAllByText('Image unavailable')).toHaveLength(2);
    expect(screen.getAllByText('Illustration')).toHaveLength(1);
    expect(screen.getAllByRole('link', { name: /View Full/ })).toHaveLength(1);
  });

  it('claims nothing live in the header when every card is an illustration', async () => {
    installApi([camera(1), camera(2), camera(3, { imageUrl: null })]);
    renderPage();
    await screen.findByRole('heading', { name: '2 Cameras Available' });
    expect(screen.getAllByText('Illustration')).toHaveLength(2);
    expect(screen.queryByText('Live')).not.toBeInTheDocument();
    expect(screen.queryByText('LIVE')).not.toBeInTheDocument();
    expect(screen.queryByText(/^Live views/)).not.toBeInTheDocument();
    expect(screen.getByText('Freeway camera locations across the Phoenix metro area')).toBeInTheDocument();
    expect(screen.getByText('These pictures are illustrations of each camera’s scene, not photos from the cameras.')).toBeInTheDocument();
  });

  it('says Live in the header when the cards are photos from real cameras, and explains a mix', async () => {
    const photo = (i: number) => camera(i, { imageUrl: `https://cameras.example.test/${i}/latest.jpg` });
    installApi([photo(1), photo(2)], [photo(1), camera(2)]);
    renderPage();
    await screen.findByRole('heading', { name: '2 Cameras Available' });
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(screen.getByText('Live views from freeway cameras across the Phoenix metro area')).toBeInTheDocument();
    expect(screen.queryByText(/illustration/i)).not.toBeInTheDocument();

    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    expect(await screen.findByText('Illustration')).toBeInTheDocument();
    expect(screen.getByText('Live')).toBeInTheDocument();
    expect(screen.getByText('Views from freeway cameras across the Phoenix metro area')).toBeInTheDocument();
    expect(screen.getByText(/^Cards marked LIVE show the camera’s latest photo; cards marked Illustration show a drawing/)).toBeInTheDocument();
  });

  it('calls a photo from a real camera LIVE', async () => {
    installApi([camera(1, { roadway: 'I-17', imageUrl: 'https://cameras.example.test/i17/latest.jpg' })]);
    renderPage();
    await screen.findByRole('heading', { name: '1 Cameras Available' });
    expect(screen.getByText('LIVE')).toBeInTheDocument();
    expect(screen.queryByText('Illustration')).not.toBeInTheDocument();
    expect(screen.getByRole('img', { name: /^Traffic camera view: / })).toBeInTheDocument();
  });

  it('marks a camera whose image fails to load, and clears the mark when a retry on the next refresh loads', async () => {
    jest.useFakeTimers();
    installApi([camera(1, { roadway: 'A' }), camera(2, { roadway: 'B' })]);
    renderPage();
    await act(async () => {});
    const first = await screen.findByRole('article', { name: /Camera A/ });
    fireEvent.error(within(first).getByRole('img'));
    expect(within(first).getByText('Image unavailable')).toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '1 Cameras Available' })).toBeInTheDocument();
    expect(cards().map((c) => within(c).getByRole('heading').textContent)).toEqual(['B', 'A']); // failed goes last

    await act(async () => {
      jest.advanceTimersByTime(60_000);
    });
    const retried = screen.getByRole('article', { name: /Camera A/ });
    const probe = retried.querySelector('img')!;
    expect(probe).not.toBeVisible();
    fireEvent.load(probe);
    expect(within(screen.getByRole('article', { name: /Camera A/ })).queryByText('Image unavailable')).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: '2 Cameras Available' })).toBeInTheDocument();
  });

  it('refreshes on the button, keeping the list visible and showing Refreshing...', async () => {
    let release!: (list: Camera[]) => void;
    const pending = new Promise<Camera[]>((r) => {
      release = r;
    });
    const calls = installApi([camera(1)], pending);
    renderPage();
    await screen.findByRole('heading', { name: '1 Cameras Available' });
    fireEvent.click(screen.getByRole('button', { name: 'Refresh' }));
    const busy = await screen.findByRole('button', { name: 'Refreshing...' });
    expect(busy).toBeDisabled();
    expect(cards()).toHaveLength(1);
    await act(async () => release([camera(1), camera(2)]));
    expect(await screen.findByRole('heading', { name: '2 Cameras Available' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh' })).toBeEnabled();
    expect(calls.filter((p) => p === '/api/traffic/cameras')).toHaveLength(2);
  });

  it('auto-refreshes every 60 s while there are cameras', async () => {
    jest.useFakeTimers();
    const calls = installApi([camera(1)], [camera(1), camera(2)]);
    renderPage();
    await act(async () => {});
    expect(screen.getByRole('heading', { name: '1 Cameras Available' })).toBeInTheDocument();
    await act(async () => {
      jest.advanceTimersByTime(59_000);
    });
    expect(calls).toHaveLength(1);
    await act(async () => {
      jest.advanceTimersByTime(1_000);
    });
    expect(calls).toHaveLength(2);
    expect(screen.getByRole('heading', { name: '2 Cameras Available' })).toBeInTheDocument();
  });

  it('shows the empty state and does not auto-refresh an empty list', async () => {
    jest.useFakeTimers();
    const calls = installApi([]);
    renderPage();
    await act(async () => {});
    expect(screen.getByRole('heading', { name: 'No cameras available' })).toBeInTheDocument();
    expect(screen.getByText('Camera feeds are currently unavailable. Please check back later.')).toBeInTheDocument();
    await act(async () => {
      jest.advanceTimersByTime(180_000);
    });
    expect(calls).toHaveLength(1);
  });

  it('shows the error screen when loading fails, and Try Again loads again', async () => {
    installApi('fail', [camera(1)]);
    renderPage();
    const alert = await screen.findByRole('alert');
    expect(within(alert).getByRole('heading', { name: 'Error Loading Cameras' })).toBeInTheDocument();
    expect(within(alert).getByText('Failed to load cameras. Please try again.')).toBeInTheDocument();
    fireEvent.click(within(alert).getByRole('button', { name: 'Try Again' }));
    await waitFor(() => expect(screen.getByRole('heading', { name: '1 Cameras Available' })).toBeInTheDocument());
  });

  it('speaks Spanish to a Spanish reader: title, summary, cards and their dates', async () => {
    installApi([camera(1, { roadway: 'I-10', direction: 'Eastbound', description: 'I-10 EB at 7th St' }), camera(2, { imageUrl: null })]);
    render(
      inLanguage(
        'es',
        <Provider store={makeStore()}>
          <CamerasPage />
        </Provider>,
      ),
    );
    expect(screen.getByRole('heading', { name: 'Cámaras de tráfico' })).toBeInTheDocument();
    expect(await screen.findByRole('heading', { name: '1 cámara disponible' })).toBeInTheDocument();
    expect(screen.getByText('Mostrando 2 de 2 cámaras')).toBeInTheDocument();
    const card = screen.getByRole('article', { name: 'Cámara I-10 Eastbound, I-10 EB at 7th St' });
    expect(within(card).getByText('Ilustración')).toBeInTheDocument();
    expect(within(card).getByText(/^Actualizado: 5 mar 2024/)).toBeInTheDocument();
    expect(screen.getByText('Imagen no disponible')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Actualizar' })).toBeEnabled();
  });
});
