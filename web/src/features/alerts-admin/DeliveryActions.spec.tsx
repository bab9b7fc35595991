import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { emptyCounts, type AdminAlert, type AlertAudience, type ChannelCounts } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { DeliveryActions } from './DeliveryActions';
import { audienceChanged, audienceOf, renderAs, tokenOf } from './guard-test-utils';
import { adminAlert, renderScreen, requestOf } from './test-utils';

const counts = (c: Partial<ChannelCounts>): ChannelCounts => ({ ...emptyCounts(), held: 0, ...c });

/** The sending calls (not the previews), with the token each carried. */
let posts: { path: string; body: unknown; token: string | null }[];
let previews: { path: string; body: unknown }[];
/** What the server answers each send with; a test may hold the answer back to see the screen in flight. */
let answer: (path: string, token: string | null) => Promise<Response> | Response;
/** What each preview counts. */
let preview: (path: string) => AlertAudience;

beforeEach(() => {
  posts = [];
  previews = [];
  preview = () => audienceOf(3, { channel: 'sms' });
  answer = (path) => (path.endsWith('/retry') ? json({ retried: 3 }) : json({ added: 0 }));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (req.method === 'POST' && path.endsWith('/audience')) {
      previews.push({ path, body: await req.json() });
      return json(preview(path));
    }
    if (req.method === 'POST') {
      posts.push({ path, body: await req.json(), token: tokenOf(req) });
      return answer(path, tokenOf(req));
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
const dialog = () => screen.getByRole('dialog');

describe('Act on failure (alert detail)', () => {
  it('counts whom "Retry failed" reaches, asks with that number, and sends once with the count\'s token', async () => {
    let release: () => void = () => {};
    answer = (path) =>
      path.endsWith('/retry')
        ? new Promise((r) => {
            release = () => r(json({ retried: 3 }));
          })
        : json({ added: 0 });
    const counted = audienceOf(3, { channel: 'sms' });
    preview = () => counted;
    const a = failing();
    const user = setup(a);
    expect(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' })).toBeInTheDocument();
    await user.click(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' }));

    // Nothing is sent before the operator confirms the number, and nothing else can be started meanwhile.
    const confirm = await within(dialog()).findByRole('button', { name: 'Retry for 3 people' });
    expect(previews).toEqual([{ path: `/api/alerts/${a.id}/retry/audience`, body: { channel: 'sms' } }]);
    expect(posts).toHaveLength(0);
    expect(dialog()).toHaveTextContent('The 3 failed SMS deliveries of this alert go out again.');
    expect(dialog()).toHaveTextContent('Retrying reaches 3 people');
    expect(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' })).toBeDisabled();

    await user.click(confirm);
    const inFlight = within(dialog()).getByRole('button', { name: /Sending/ });
    expect(inFlight).toBeDisabled();
    await user.click(inFlight);
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/retry`, body: { channel: 'sms' }, token: counted.token }]);

    release();
    expect(await screen.findByText('Sending 3 again by SMS.')).toBeInTheDocument();
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts).toHaveLength(1);
  });

  it('shows the new number when the audience moved since the count, and sends only when confirmed again, with the fresh token', async () => {
    const fresh = audienceOf(5, { channel: 'sms' });
    answer = (path, token) => (token === fresh.token ? json({ retried: 5 }) : json(audienceChanged(fresh), 409));
    const user = setup(failing());
    await user.click(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Retry for 3 people' }));

    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The audience changed: it is now 5 people (you confirmed 3).');
    expect(screen.queryByText(/Sending .* again/)).not.toBeInTheDocument();
    expect(posts).toHaveLength(1);

    await user.click(within(dialog()).getByRole('button', { name: 'Retry for 5 people' }));
    expect(await screen.findByText('Sending 5 again by SMS.')).toBeInTheDocument();
    expect(posts.map((p) => p.token)).toEqual([expect.stringMatching(/^audience-token-/), fresh.token]);
  });

  it('does nothing when the operator thinks better of it', async () => {
    const user = setup(failing());
    await user.click(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' }));
    await within(dialog()).findByRole('button', { name: /^Retry for/ });
    await user.click(within(dialog()).getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts).toHaveLength(0);
  });

  it('never sends without a count: a failed preview offers only to count again', async () => {
    let up = false;
    const counted = audienceOf(2);
    global.fetch = jest.fn(async (input: RequestInfo | URL) => {
      const { req, path } = requestOf(input);
      if (path.endsWith('/audience')) return up ? json(counted) : json({ statusCode: 503, code: 'error', message: 'The alerts service is unavailable' }, 503);
      posts.push({ path, body: await req.json(), token: tokenOf(req) });
      return json({ retried: 2 });
    }) as unknown as typeof fetch;
    const user = setup(failing());
    await user.click(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The alerts service is unavailable');
    expect(within(dialog()).queryByRole('button', { name: /^Retry for|^Send/ })).not.toBeInTheDocument();

    up = true;
    await user.click(within(dialog()).getByRole('button', { name: 'Count again' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Retry for 2 people' }));
    expect(await screen.findByText('Sending 2 again by Web Push.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: expect.stringMatching(/\/retry$/), body: { channel: 'push' }, token: counted.token }]);
  });

  it("shows the server's message when it refuses (400 channel_not_configured)", async () => {
    answer = () =>
      json({ statusCode: 400, code: 'channel_not_configured', message: 'SMS has no webhook, or is turned off, in Admin Settings: fix it there first.' }, 400);
    const user = setup(failing());
    await user.click(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Retry for 3 people' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('SMS has no webhook, or is turned off, in Admin Settings: fix it there first.');
    expect(screen.queryByText(/Sending .* again/)).not.toBeInTheDocument();
    // The buttons are free again for another try.
    expect(within(group('SMS failures')).getByRole('button', { name: 'Retry failed (3)' })).toBeEnabled();
  });

  it('says so when no failed delivery was left to retry', async () => {
    answer = () => json({ retried: 0 });
    const user = setup(failing());
    await user.click(within(group('Web Push failures')).getByRole('button', { name: 'Retry failed (2)' }));
    await user.click(await within(dialog()).findByRole('button', { name: /^Retry for/ }));
    expect(await screen.findByText('No failed Web Push delivery is left to retry.')).toBeInTheDocument();
  });

  it('counts the unreached on the channel chosen, offering only the ones it was not sent on, and names the number', async () => {
    answer = () => json({ added: 4 });
    const counted = audienceOf(4, { channel: 'sms' });
    preview = () => counted;
    const a = failing({ channels: ['push'], summary: { push: counts({ sent: 5, failed: 2 }) } });
    const user = setup(a);
    const select = screen.getByLabelText('Send to the unreached by…');
    expect([...(select as HTMLSelectElement).options].map((o) => o.textContent)).toEqual(['Choose a channel', 'SMS', 'Voice call', 'Email']);
    expect(screen.getByRole('button', { name: 'Send to the unreached' })).toBeDisabled();

    await user.selectOptions(select, 'sms');
    await user.click(screen.getByRole('button', { name: 'Send to the unreached' }));
    expect(await within(dialog()).findByText('This alert goes out by SMS to everyone it concerns whom nothing has reached yet.')).toBeInTheDocument();
    expect(previews).toEqual([{ path: `/api/alerts/${a.id}/fallback/audience`, body: { channel: 'sms' } }]);
    await user.click(within(dialog()).getByRole('button', { name: 'Send by SMS to 4 people' }));
    expect(await screen.findByText('Sending to 4 more people by SMS.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/fallback`, body: { channel: 'sms' }, token: counted.token }]);
  });

  it('says honestly when nobody more can be reached that way', async () => {
    answer = () => json({ added: 0 });
    preview = () => audienceOf(0, { channel: 'email' });
    const user = setup(failing());
    await user.selectOptions(screen.getByLabelText('Send to the unreached by…'), 'email');
    await user.click(screen.getByRole('button', { name: 'Send to the unreached' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send by Email to nobody' }));
    expect(await screen.findByText('Nobody more can be reached by Email.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: expect.stringMatching(/\/fallback$/), body: { channel: 'email' }, token: expect.any(String) }]);
  });

  it('offers no retry when nothing failed, and no fallback when the alert went out on every channel', () => {
    setup(adminAlert({ channels: ['push', 'sms', 'email', 'voice'], recipients: 2, summary: { push: counts({ sent: 2 }) } }));
    expect(screen.getByText('No delivery has failed.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Send to the unreached by…')).not.toBeInTheDocument();
  });

  it.each(['expired', 'cancelled', 'draft', 'scheduled', 'pending_approval'] as const)('shows no action for a %s alert', (status) => {
    setup(failing({ status }));
    expect(screen.queryByRole('heading', { name: 'Act on failure' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Send to the unreached by…')).not.toBeInTheDocument();
  });

  it('shows no action while the dispatch is still choosing recipients', () => {
    setup(failing({ recipients: null }));
    expect(screen.queryByRole('heading', { name: 'Act on failure' })).not.toBeInTheDocument();
  });

  it('shows a viewer no action (a read-only console)', () => {
    renderAs('viewer', <DeliveryActions alert={failing()} />);
    expect(screen.queryByRole('button', { name: /Retry failed/ })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send to the unreached' })).not.toBeInTheDocument();
  });
});
