import { act, render, screen } from '@testing-library/react';
import toast from 'react-hot-toast';
import { App } from './App';
import { DEFAULT_CONFIG } from './config';
import { makeStore } from './store';

// A page that throws while rendering: the FAQ stands in for any page with a rendering bug.
jest.mock('@/features/faq', () => ({
  FaqPage: () => {
    throw new Error('a page with a rendering bug');
  },
}));

beforeAll(() => {
  // RTK Query calls made by pages have nowhere to go in jsdom; answer them with an empty failure
  global.fetch = jest.fn(() => Promise.reject(new Error('offline'))) as unknown as typeof fetch;
});

/** Lets time pass in small steps, so effects that queue further timers (dismiss, then remove) run on time. */
function elapse(ms: number) {
  for (let t = 0; t < ms; t += 100) act(() => jest.advanceTimersByTime(100));
}

function renderAppAt(path: string) {
  window.history.pushState({}, '', path);
  return render(<App store={makeStore()} config={DEFAULT_CONFIG} />);
}

describe('App', () => {
  afterEach(() => jest.useRealTimers());

  it("shows the spec's error screen, not the router's, when a page throws while rendering", async () => {
    jest.spyOn(console, 'error').mockImplementation(() => undefined);
    renderAppAt('/faq');
    expect(await screen.findByText('Something went wrong.')).toBeInTheDocument();
    expect(screen.getByText('We encountered an unexpected error. Please try refreshing the page.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Refresh Page' })).toBeInTheDocument();
    expect(screen.queryByText(/Unexpected Application Error/)).not.toBeInTheDocument();
  });

  it('shows toasts at the top right for 4 seconds', async () => {
    jest.useFakeTimers();
    renderAppAt('/');
    // a success toast, whose library default (2 s) differs from the spec's 4 s
    act(() => {
      toast.success('Signed in successfully!');
    });
    const message = await screen.findByText('Signed in successfully!');
    const wrapper = message.closest('[data-rht-toaster] > div') as HTMLElement;
    expect(wrapper).toHaveStyle({ top: '0px', justifyContent: 'flex-end' });

    elapse(3900);
    expect(screen.getByText('Signed in successfully!')).toBeInTheDocument();
    // dismissed at 4 s, then removed after the library's 1 s exit animation
    elapse(1300);
    expect(screen.queryByText('Signed in successfully!')).not.toBeInTheDocument();
  });
});
