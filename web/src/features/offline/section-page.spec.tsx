import { Suspense, type ComponentType } from 'react';
import { act, render, screen } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { createMemoryRouter, RouterProvider } from 'react-router-dom';
import { inLanguage } from '@/test/in-language';
import { markUnreachable, resetConnectivity } from './connectivity';
import { RouteErrorOrOffline } from './RouteErrorOrOffline';
import { sectionPage } from './section-page';

/** What Chromium says when a page's code cannot be downloaded. */
const chunkFailure = () => new TypeError('Failed to fetch dynamically imported module: http://localhost/assets/community-3f9a1c.js');

function renderSection(Section: ComponentType, language?: 'es') {
  const router = createMemoryRouter(
    [
      {
        errorElement: <RouteErrorOrOffline />,
        element: (
          <Suspense fallback={<p>Loading page</p>}>
            <Section />
          </Suspense>
        ),
        path: '/dashboard/community',
      },
    ],
    { initialEntries: ['/dashboard/community'] },
  );
  render(language ? inLanguage(language, <RouterProvider router={router} />) : <RouterProvider router={router} />);
}

beforeEach(() => {
  resetConnectivity();
  // React reports every error a boundary catches
  jest.spyOn(console, 'error').mockImplementation(() => undefined);
});
afterEach(() => jest.restoreAllMocks());

describe('a section whose code cannot be downloaded (issue #40)', () => {
  it('shows the offline page, never the error screen, and loads by itself once back online', async () => {
    markUnreachable();
    const load = jest
      .fn<Promise<ComponentType>, []>()
      .mockRejectedValueOnce(chunkFailure())
      .mockResolvedValue(() => <h1>Community</h1>);
    renderSection(sectionPage(load));
    expect(await screen.findByRole('heading', { name: 'You are offline' })).toBeInTheDocument();
    expect(screen.getByText(/has not been opened on this device yet/)).toBeInTheDocument();
    expect(screen.queryByText('Something went wrong.')).not.toBeInTheDocument();

    act(() => {
      window.dispatchEvent(new Event('online'));
    });
    expect(await screen.findByRole('heading', { name: 'Community' })).toBeInTheDocument();
    expect(load).toHaveBeenCalledTimes(2);
  });

  it('"Try again" downloads it again', async () => {
    markUnreachable();
    const load = jest
      .fn<Promise<ComponentType>, []>()
      .mockRejectedValueOnce(chunkFailure())
      .mockResolvedValue(() => <h1>Community</h1>);
    renderSection(sectionPage(load));
    await userEvent.click(await screen.findByRole('button', { name: 'Try again' }));
    expect(await screen.findByRole('heading', { name: 'Community' })).toBeInTheDocument();
  });

  it('online, a download that failed (a build replaced since) offers a reload', async () => {
    renderSection(sectionPage(() => Promise.reject(chunkFailure())));
    expect(await screen.findByRole('heading', { name: 'This page could not be loaded' })).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Reload page' })).toBeInTheDocument();
  });

  it('a page that throws while rendering still gets the error screen', async () => {
    markUnreachable();
    const Broken = (): never => {
      throw new Error('a page with a rendering bug');
    };
    renderSection(sectionPage(async () => Broken));
    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'You are offline' })).not.toBeInTheDocument();
  });
});

describe('the offline page in Spanish (issue #41)', () => {
  it('says it is offline, and offers to try again, in the reader’s language', async () => {
    markUnreachable();
    const load = jest
      .fn<Promise<ComponentType>, []>()
      .mockRejectedValueOnce(chunkFailure())
      .mockResolvedValue(() => <h1>Comunidad</h1>);
    renderSection(sectionPage(load), 'es');
    expect(await screen.findByRole('heading', { name: 'No tiene conexión' })).toBeInTheDocument();
    expect(screen.getByText(/llame al número de emergencias local/)).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: 'Intentar de nuevo' }));
    expect(await screen.findByRole('heading', { name: 'Comunidad' })).toBeInTheDocument();
  });
});
