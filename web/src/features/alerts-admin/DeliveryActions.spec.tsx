import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyCounts, type AdminAlert, type ChannelCounts } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { DeliveryActions } from './DeliveryActions';
import { adminAlert, renderScreen, requestOf } from './test-utils';

const counts = (c: Partial<ChannelCounts>): ChannelCounts => ({ ...emptyCounts(), held: 0, ...c });

let posts: { path: string; body: unknown }[];
/** What the server answers each POST with; a test may hold the answer back to see the screen in flight. */
let answer: (path: string) => Promise<Response> | Response;

beforeEach(() => {
  posts = [];
  answer = (path) => (path.endsWith('/retry') ? json({ retried: 3 }) : json({ added: 0 }));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (req.method === 'POST') {
      posts.push({ path, body: await req.json() });
      return answer(path);
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

const failing = (o: Partial<AdminAlert> = {}) =>
  adminAlert({
    channels: ['push', 'sms'],
    recipients: 10,
    deliveryLabel: 'Partial',
    summary: { push: counts({ sent: 5, failed: 2 }), sms: counts({ sent: 0, delivered: 0, failed: 3 }) },
    ...o,
  });

function setup(a: AdminAlert) {
  const user = userEvent.setup();
  renderScreen(<DeliveryActions alert={a} />);
  return user;
}

const group = (name: string) => screen.getByRole('group', { name });

describe('Act on failure (alert detail)', () => {
  it('offers "Retry failed (N)" per channel with failures, asks first, sends once, and says how many go out again', async () => {
    let release: () => void = () => {};
    answer = (path) =>
      path.endsWith('/retry')
        ? new Promise((r) => {
            release = () => r(json({ retried: 3 }));
          })
        : json({ added: 0 });
    const a = failing();
    const user = setup(a);
    expect(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' })).toBeInTheDocument();
    await user.click(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' }));

    // Nothing is sent before the operator confirms, and nothing else can be started meanwhile.
    expect(posts).toHaveLength(0);
    expect(within(group('Confirm')).getByText('Send the 3 failed SMS deliveries again?')).toBeInTheDocument();
    expect(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' })).toBeDisabled();

    await user.click(screen.getByRole('button', { name: 'Yes, retry' }));
    const inFlight = screen.getByRole('button', { name: 'Sending…' });
    expect(inFlight).toBeDisabled();
    await user.click(inFlight);
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/retry`, body: { channel: 'sms' } }]);

    release();
    expect(await screen.findByText('Sending 3 again by SMS.')).toBeInTheDocument();
    expect(screen.queryByRole('group', { name: 'Confirm' })).not.toBeInTheDocument();
    expect(posts).toHaveLength(1);
  });

  it('does nothing when the operator thinks better of it', async () => {
    const user = setup(failing());
    await user.click(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' }));
    await user.click(screen.getByRole('button', { name: 'Not now' }));
    expect(screen.queryByRole('group', { name: 'Confirm' })).not.toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });

  it("shows the server's message when it refuses (400 channel_not_configured)", async () => {
    answer = () =>
      json({ statusCode: 400, code: 'channel_not_configured', message: 'SMS has no webhook, or is turned off, in Admin Settings: fix it there first.' }, 400);
    const user = setup(failing());
    await user.click(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' }));
    await user.click(screen.getByRole('button', { name: 'Yes, retry' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('SMS has no webhook, or is turned off, in Admin Settings: fix it there first.');
    expect(screen.queryByText(/Sending .* again/)).not.toBeInTheDocument();
    // The buttons are free again for another try.
    expect(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' })).toBeEnabled();
  });

  it('says so when no failed delivery was left to retry', async () => {
    answer = () => json({ retried: 0 });
    const user = setup(failing());
    await user.click(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' }));
    await user.click(screen.getByRole('button', { name: 'Yes, retry' }));
    expect(await screen.findByText('No failed Web Push delivery is left to retry.')).toBeInTheDocument();
  });

  it('sends the unreached the alert by another channel, offering only the ones it was not sent on', async () => {
    answer = () => json({ added: 4 });
    const a = failing({ channels: ['push'], summary: { push: counts({ sent: 5, failed: 2 }) } });
    const user = setup(a);
    const select = screen.getByLabelText('Send to the unreached by…');
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose a channel', 'SMS', 'Email']);
    expect(screen.getByRole('button', { name: 'Send to the unreached' })).toBeDisabled();

    await user.selectOptions(select, 'sms');
    await user.click(screen.getByRole('button', { name: 'Send to the unreached' }));
    expect(within(group('Confirm')).getByText('Send this alert by SMS to everyone it concerns whom nothing has reached yet?')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Yes, send by SMS' }));
    expect(await screen.findByText('Sending to 4 more people by SMS.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/fallback`, body: { channel: 'sms' } }]);
  });

  it('says honestly when nobody more can be reached that way', async () => {
    answer = () => json({ added: 0 });
    const user = setup(failing());
    await user.selectOptions(screen.getByLabelText('Send to the unreached by…'), 'email');
    await user.click(screen.getByRole('button', { name: 'Send to the unreached' }));
    await user.click(screen.getByRole('button', { name: 'Yes, send by Email' }));
    expect(await screen.findByText('Nobody more can be reached by Email.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: expect.stringMatching(/\/fallback$/), body: { channel: 'email' } }]);
  });

  it('offers no retry when nothing failed, and no fallback when the alert went out on every channel', () => {
    setup(adminAlert({ channels: ['push', 'sms', 'email'], recipients: 2, summary: { push: counts({ sent: 2 }) } }));
    expect(screen.getByText('No delivery has failed.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Send to the unreached by…')).not.toBeInTheDocument();
  });

  it.each(['expired', 'cancelled', 'draft'] as const)('shows no action for a %s alert', (status) => {
    setup(failing({ status }));
    expect(screen.queryByRole('heading', { name: 'Act on failure' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Send to the unreached by…')).not.toBeInTheDocument();
  });

  it('shows no action while the dispatch is still choosing recipients', () => {
    setup(failing({ recipients: null }));
    expect(screen.queryByRole('heading', { name: 'Act on failure' })).not.toBeInTheDocument();
  });
});
