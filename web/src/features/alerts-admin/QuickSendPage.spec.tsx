import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import { emptyCounts, type AdminAlert, type AlertAudience, type ChannelCounts, type DeliverySummary } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { resetFakeSocket, serverSends, setConnected } from '@/test/fake-socket';
import { QuickSendPage } from './QuickSendPage';
import { renderAs } from './guard-test-utils';
import { adminAlert, channelHealth, healthReport, renderScreen, requestOf } from './test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));
// Leaflet does not run in jsdom: the map is a button that "clicks" a point (not loaded lazily: it is on the first screen).
jest.mock('@/features/alerts/LazyAreaMap', () => ({
  LazyAreaMap: ({ onPick, label }: { onPick?: (lat: number, lng: number) => void; label: string }) => (
    <button type="button" onClick={() => onPick?.(33.45, -112.07)}>
      {label}
    </button>
  ),
}));

function setup() {
  const user = userEvent.setup();
  renderScreen(
    <>
      <QuickSendPage />
      <Toaster />
    </>,
    { path: '/admin/quick-send' },
  );
  return { user };
}

describe('Quick Send (the single create-alert form)', () => {
  it('starts with the spec defaults, the notice and both counters', () => {
    setup();
    expect(screen.getByLabelText('Alert Type')).toHaveValue('Emergency');
    expect([...(screen.getByLabelText('Alert Type') as HTMLSelectElement).options].map((o) => o.value).filter(Boolean)).toEqual([
      'Emergency',
      'Weather',
      'Amber Alert',
      'Terror Alert',
      'Traffic',
      'Public Safety',
    ]);
    expect(screen.getByRole('radio', { name: 'Medium' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'Web Push' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SMS' })).not.toBeChecked();
    expect(screen.getByText('0/100')).toBeInTheDocument();
    expect(screen.getByText('0/500')).toBeInTheDocument();
    expect(screen.getByRole('note')).toHaveTextContent('this alert goes out immediately to everyone it concerns in the area you choose');
    expect(screen.getByRole('radio', { name: 'Circle' })).toBeChecked();
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
  });

  it('shows every validation message of the spec and sends nothing', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByLabelText('Alert Type'), '');
    await user.click(screen.getByRole('checkbox', { name: 'Web Push' }));
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByText('Alert type is required')).toBeInTheDocument();
    expect(screen.getByText('Title must be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByText('Select at least one channel')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Alert Title'));
    await user.paste('x'.repeat(101));
    await user.click(screen.getByLabelText('Message Body'));
    await user.paste('y'.repeat(501));
    expect(screen.getByText('101/100')).toBeInTheDocument();
    expect(screen.getByText('501/500')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByText('Title too long')).toBeInTheDocument();
    expect(screen.getByText('Message too long')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Who this alert will reach' })).not.toBeInTheDocument();
    expect(previews).toHaveLength(0);
    expect(posts).toHaveLength(0);
  });

  it('Reset Form restores the defaults', async () => {
    const { user } = setup();
    await user.selectOptions(screen.getByLabelText('Alert Type'), 'Amber Alert');
    await user.type(screen.getByLabelText('Alert Title'), 'Missing child');
    await user.click(screen.getByRole('radio', { name: 'High' }));
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await user.click(screen.getByRole('button', { name: 'Reset Form' }));
    expect(screen.getByLabelText('Alert Type')).toHaveValue('Emergency');
    expect(screen.getByLabelText('Alert Title')).toHaveValue('');
    expect(screen.getByRole('radio', { name: 'Medium' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SMS' })).not.toBeChecked();
  });
});

// ---------------------------------------------------------------- after sending: the live Delivery Status and when the form is free again

let created: AdminAlert;
let deliveryReads: number;
let posts: Record<string, unknown>[];
let previews: Record<string, unknown>[];
let audienceAnswer: () => Response;
let createAnswer: (() => Response) | null;
/** GET /api/alerts/admin/channel-health: the providers' health beside the channel choice. */
let health: () => Response;
/** The Idempotency-Key of each create request. */
let keys: (string | null)[] = [];
/** The Audience-Token of each create request. */
let tokens: (string | null)[] = [];

const audience = (o: Partial<AlertAudience> = {}): AlertAudience => ({
  token: 'token-1',
  concerned: 1303,
  recipients: 1204,
  held: 32,
  channels: { push: { recipients: 1204, held: 32, configured: true } },
  unreachable: { noChannel: 87, noDevice: 12 },
  ...o,
});

const counts = (c: Partial<ChannelCounts>): ChannelCounts => ({ ...emptyCounts(), held: 0, ...c });

beforeEach(() => {
  resetFakeSocket();
  setConnected(true);
  created = adminAlert({ title: 'Evacuate Riverside now', recipients: null, summary: {}, deliveryLabel: 'Pending', successRate: 0 });
  deliveryReads = 0;
  posts = [];
  keys = [];
  tokens = [];
  previews = [];
  audienceAnswer = () => json(audience());
  createAnswer = null;
  health = () => json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/audience' && req.method === 'POST') {
      previews.push(await req.json());
      return audienceAnswer();
    }
    if (path === '/api/alerts' && req.method === 'POST') {
      keys.push(req.headers.get('idempotency-key'));
      tokens.push(req.headers.get('audience-token'));
      posts.push(await req.json());
      return createAnswer?.() ?? json(created, 201);
    }
    if (path === `/api/alerts/${created.id}`) return json(created);
    if (path.startsWith(`/api/alerts/${created.id}/deliveries`)) deliveryReads += 1;
    if (path === '/api/alerts/admin/channel-health') return health();
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

// react-hot-toast keeps its toasts in module state: one test's must not show in the next.
afterEach(() => act(() => toast.remove()));

/** The texts, and the centre of the area (required: issue #38) placed on the map. */
async function fill(user: ReturnType<typeof userEvent.setup>) {
  await user.type(screen.getByLabelText('Alert Title'), 'Evacuate Riverside now');
  await user.type(screen.getByLabelText('Message Body'), 'The levee is failing. Leave by the north roads.');
  await user.click(screen.getByRole('button', { name: 'Alert area map: click to place the centre' }));
}

/** Fills the form, presses Send Alert, and confirms whom it reaches. */
async function send(user: ReturnType<typeof userEvent.setup>) {
  await fill(user);
  await user.click(screen.getByRole('button', { name: 'Send Alert' }));
  await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
  expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
  await screen.findByText(/Selecting recipients\.\.\./);
}

/** The dispatcher reports progress (and the server's copy follows, for any later read). */
function progress(recipients: number, channels: DeliverySummary) {
  const pending = Object.values(channels).reduce((n, c) => n + (c?.pending ?? 0), 0);
  created = { ...created, recipients, summary: channels };
  act(() =>
    serverSends('alert:progress', {
      alertId: created.id,
      recipients,
      channels,
      done: pending === 0,
      responses: { safe: 0, needHelp: 0, helpOpen: 0 },
      at: new Date().toISOString(),
    }),
  );
}

const sendButton = () => screen.getByRole('button', { name: /Send Alert|Sending/ });

describe("Quick Send: the providers' health and what was only sent to provider (issue #39)", () => {
  it('shows beside the channels which are not ready, and counts SMS as sent to provider until receipts say delivered', async () => {
    health = () =>
      json(
        healthReport(
          channelHealth('push', { reachableNow: 1204 }),
          channelHealth('sms', { receipts: false, reachableNow: 310 }),
          channelHealth('voice', { configured: false, problem: 'No Twilio account is set in Admin Settings for voice calls' }),
        ),
      );
    created = { ...created, channels: ['push', 'sms'] };
    const { user } = setup();
    const channels = screen.getByRole('group', { name: 'Delivery Channels' });
    // the spec's two options stay as they are
    expect(within(channels).getAllByRole('checkbox')).toHaveLength(2);
    const summary = await screen.findByText('Provider health: Voice call not ready');
    expect(summary.closest('form')).toBe(channels.closest('form'));

    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await send(user);
    progress(3, { push: counts({ delivered: 1 }), sms: counts({ sent: 2 }) });
    const status = screen.getByRole('region', { name: /Delivery Status/ });
    await within(status).findByText('Sent to provider', { selector: '.delivery-icon span' });
    const sms = within(status).getByLabelText('SMS counts');
    expect(within(sms).getByText('Sent to provider').nextElementSibling).toHaveTextContent('2');
    expect(within(sms).getByText('Delivered').nextElementSibling).toHaveTextContent('0');
    expect(within(sms).getByText('no receipts from this provider')).toBeInTheDocument();
    expect(within(status).queryByText('All Delivered')).toBeNull();
  });
});

describe('Quick Send: after sending', () => {
  it('stays busy while deliveries are in flight, then reports and frees the form', async () => {
    const { user } = setup();
    await send(user);
    expect(sendButton()).toBeDisabled();

    progress(2, { push: counts({ pending: 2 }) });
    expect(await screen.findByText(/2 recipients matched/)).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('Sending...');

    progress(2, { push: counts({ sent: 1, delivered: 1 }) });
    expect(await screen.findByText('Web push notification sent successfully!')).toBeInTheDocument();
    expect(screen.getByText('Alert sent successfully!')).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('Send Alert');
    expect(sendButton()).toBeEnabled();
    expect(screen.getByLabelText('Alert Title')).toHaveValue('');
    // The summary's held count decides; no delivery list is read to guess it.
    expect(deliveryReads).toBe(0);
  });

  it('frees the form once only held deliveries (quiet hours, digests) are pending, and says they go out later', async () => {
    const { user } = setup();
    await send(user);
    // Three recipients: one is sent straight away, one is still in flight, one is held for hours.
    progress(3, { push: counts({ sent: 1, pending: 2, held: 1 }) });
    expect(await screen.findByText(/3 recipients matched/)).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('Sending...');
    expect(screen.queryByText('Alert sent successfully!')).not.toBeInTheDocument();

    progress(3, { push: counts({ sent: 2, pending: 1, held: 1 }) });
    expect(await screen.findByText('Alert sent successfully!')).toBeInTheDocument();
    expect(screen.getByText('Web push notification sent successfully!')).toBeInTheDocument();
    expect(screen.getByText("1 delivery is held by recipients' quiet hours or digests and will go out later")).toBeInTheDocument();
    expect(sendButton()).toBeEnabled();
    expect(screen.queryByText('Failed to send web push notification')).not.toBeInTheDocument();
    expect(deliveryReads).toBe(0);
  });

  it('waits while any channel has a delivery on its way, even when another has only held ones', async () => {
    created = { ...created, channels: ['push', 'sms'] };
    const { user } = setup();
    await send(user);
    progress(2, { push: counts({ pending: 1, held: 1 }), sms: counts({ pending: 1 }) });
    expect(await screen.findByText(/2 recipients matched/)).toBeInTheDocument();
    expect(sendButton()).toHaveTextContent('Sending...');

    progress(2, { push: counts({ pending: 1, held: 1 }), sms: counts({ sent: 1 }) });
    expect(await screen.findByText('Alert sent successfully!')).toBeInTheDocument();
    expect(screen.getByText('SMS alert sent successfully!')).toBeInTheDocument();
    expect(sendButton()).toBeEnabled();
  });

  it('does not call a channel failed when all its deliveries are held', async () => {
    const { user } = setup();
    await send(user);
    progress(2, { push: counts({ pending: 2, held: 2 }) });
    expect(await screen.findByText("2 deliveries are held by recipients' quiet hours or digests and will go out later")).toBeInTheDocument();
    expect(screen.getByText(/The 2 pending deliveries are held/)).toBeInTheDocument();
    expect(screen.getByText('2 held')).toBeInTheDocument();
    expect(sendButton()).toBeEnabled();
    expect(screen.queryByText('Failed to send web push notification')).not.toBeInTheDocument();
    expect(screen.queryByText('Failed to send alert via all channels')).not.toBeInTheDocument();
  });

  it('says nobody was reached when no recipient matched, rather than that the alert was sent successfully', async () => {
    const { user } = setup();
    await send(user);
    progress(0, {});
    expect(await screen.findByText('Alert sent, but no recipients matched: nobody was reached')).toBeInTheDocument();
    expect(screen.queryByText('Alert sent successfully!')).not.toBeInTheDocument();
    expect(sendButton()).toBeEnabled();
  });

  it('reports a failure on every channel and keeps the form', async () => {
    const { user } = setup();
    await send(user);
    progress(1, { push: counts({ failed: 1 }) });
    expect(await screen.findByText('Failed to send web push notification')).toBeInTheDocument();
    expect(screen.getByText('Failed to send alert via all channels')).toBeInTheDocument();
    expect(screen.getByLabelText('Alert Title')).toHaveValue('Evacuate Riverside now');
  });

  it('after a failure on every channel, sending again is a new alert (a new key), never a replay of the failed one', async () => {
    const { user } = setup();
    await send(user);
    progress(1, { push: counts({ failed: 1 }) });
    expect(await screen.findByText('Failed to send alert via all channels')).toBeInTheDocument();
    await user.click(sendButton());
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    await waitFor(() => expect(keys).toHaveLength(2));
    expect(keys[0]).toBeTruthy();
    expect(keys[1]).not.toBe(keys[0]);
  });

  it("says 'Failed to create alert' when the server refuses it, and keeps the confirmation to try again", async () => {
    createAnswer = () => json({ error: 'internal', message: 'boom' }, 500);
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByText('Failed to create alert')).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
    // The toast may come a render before the confirmation is free again.
    expect(await screen.findByRole('button', { name: 'Send to 1,204 people' })).toBeEnabled();
  });
});

// ---------------------------------------------------------------- before sending: whom it will reach, and the confirmation

describe('Quick Send: Send Alert asks for a confirmation with whom the alert will reach', () => {
  const region = () => screen.getByRole('region', { name: 'Who this alert will reach' });

  it('sends nothing until "Send to N people", which sends exactly the previewed body once', async () => {
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByRole('heading', { level: 2, name: 'Who this alert will reach' })).toHaveFocus();
    expect(await within(region()).findByText(/This alert will reach/)).toHaveTextContent(
      'This alert will reach 1,204 people, 32 of them later, in their quiet hours or digest.',
    );
    expect(within(region()).getByRole('listitem')).toHaveTextContent('Web Push: 1,204 (32 later, in their quiet hours or digest)');
    expect(within(region()).getByText(/^Not reached:/)).toHaveTextContent(
      '87 people it concerns have none of these channels on; 12 have push on but no browser subscribed.',
    );
    // The confirmation replaces Send Alert; Enter on it (the focus is on the summary's heading) sends nothing.
    expect(screen.queryByRole('button', { name: 'Send Alert' })).not.toBeInTheDocument();
    await user.keyboard('{Enter}{Enter}');
    expect(posts).toHaveLength(0);

    await user.dblClick(screen.getByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
    expect(posts).toHaveLength(1);
    expect(previews).toEqual(posts);
    expect(posts[0]).toEqual({
      type: 'Emergency',
      title: 'Evacuate Riverside now',
      message: 'The levee is failing. Leave by the north roads.',
      priority: 'medium',
      channels: ['web_push'],
      lat: 33.45,
      lng: -112.07,
      radiusKm: 50,
    });
    expect(tokens).toEqual(['token-1']);
    expect(screen.queryByRole('region', { name: 'Who this alert will reach' })).not.toBeInTheDocument();
  });

  it("shows beside the confirmation what each language's readers get, a language without text as the English, said so", async () => {
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    await user.click(screen.getByLabelText('Spanish title'));
    await user.paste('Evacúe Riverside ahora');
    await user.click(screen.getByLabelText('Spanish message'));
    await user.paste('El dique está fallando. Salga por el norte.');
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await screen.findByRole('button', { name: 'Send to 1,204 people' });
    const preview = screen.getByRole('region', { name: 'Message per language and channel' });
    expect(within(preview).getAllByRole('group')).toHaveLength(6);
    const spanish = within(preview).getByRole('group', { name: 'Spanish (Español) preview' });
    expect(spanish).toHaveAttribute('lang', 'es');
    expect(
      within(spanish)
        .getAllByRole('term')
        .map((t) => t.textContent),
    ).toEqual(['Web Push', 'SMS']);
    expect(spanish).toHaveTextContent('Evacúe Riverside ahoraEl dique está fallando. Salga por el norte.');
    expect(spanish).toHaveTextContent(/1 segment · UCS-2/);
    const french = within(preview).getByRole('group', { name: 'French (Français) preview' });
    expect(french).toHaveAttribute('lang', 'en');
    expect(french).toHaveTextContent('No French text: French readers get the English.');
    expect(french).toHaveTextContent('Evacuate Riverside nowThe levee is failing. Leave by the north roads.');
    expect(posts).toHaveLength(0);
  });

  it('Cancel closes the confirmation and sends nothing; Enter in a field opens it again', async () => {
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await screen.findByRole('button', { name: 'Send to 1,204 people' });
    await user.click(screen.getByRole('button', { name: 'Cancel' }));
    expect(screen.queryByRole('region', { name: 'Who this alert will reach' })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send Alert' })).toBeEnabled();
    expect(screen.getByRole('button', { name: 'Send Alert' })).toHaveFocus();
    expect(screen.getByLabelText('Alert Title')).toHaveValue('Evacuate Riverside now');

    await user.type(screen.getByLabelText('Alert Title'), '{Enter}');
    expect(await screen.findByRole('button', { name: 'Send to 1,204 people' })).toBeEnabled();
    expect(previews).toHaveLength(2);
    expect(posts).toHaveLength(0);
  });

  it('closes the confirmation when the form changes, so counts for other values cannot be confirmed', async () => {
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await screen.findByRole('button', { name: 'Send to 1,204 people' });

    audienceAnswer = () =>
      json(
        audience({
          recipients: 1250,
          channels: {
            push: { recipients: 1204, held: 32, configured: true },
            sms: { recipients: 46, held: 0, configured: false, reason: 'No SMS webhook URL is set in Admin Settings: SMS will not be sent.' },
          },
        }),
      );
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    expect(screen.queryByRole('region', { name: 'Who this alert will reach' })).not.toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(await screen.findByRole('button', { name: 'Send to 1,250 people' })).toBeEnabled();
    expect(screen.getByRole('alert')).toHaveTextContent('SMS is not configured. No SMS webhook URL is set in Admin Settings: SMS will not be sent.');
    expect(previews[1]).toMatchObject({ channels: ['web_push', 'sms'] });
    expect(posts).toHaveLength(0);
  });

  it('says nobody will receive it and confirms with "Send to nobody"', async () => {
    audienceAnswer = () =>
      json(
        audience({
          concerned: 0,
          recipients: 0,
          held: 0,
          channels: { push: { recipients: 0, held: 0, configured: true } },
          unreachable: { noChannel: 0, noDevice: 0 },
        }),
      );
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(await within(region()).findByRole('alert')).toHaveTextContent('Nobody will receive this alert.');
    await user.click(screen.getByRole('button', { name: 'Send to nobody' }));
    expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
    expect(posts).toHaveLength(1);
  });

  it('after a failed preview, sends nothing until the count succeeds', async () => {
    audienceAnswer = () => json({ code: 'error', message: 'Could not reach the database' }, 503);
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(await within(region()).findByRole('alert')).toHaveTextContent('Could not count who this alert will reach. Could not reach the database');
    expect(screen.queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument();
    expect(posts).toHaveLength(0);

    audienceAnswer = () => json(audience());
    await user.click(screen.getByRole('button', { name: 'Count again' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
    expect(tokens).toEqual(['token-1']);
  });
});

// ---------------------------------------------------------------- the guard of issue #38: the area, the token, approval

describe('Quick Send: the same guard as the wizard (issue #38)', () => {
  it('needs an area, or everyone chosen and its box ticked; sends nothing and counts nothing without one', async () => {
    const { user } = setup();
    await user.type(screen.getByLabelText('Alert Title'), 'Evacuate Riverside now');
    await user.type(screen.getByLabelText('Message Body'), 'The levee is failing. Leave by the north roads.');
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByRole('alert')).toHaveTextContent('Choose where this alert applies, or choose to send it to everyone');
    expect(previews).toHaveLength(0);

    await user.click(screen.getByRole('radio', { name: 'Send to everyone, everywhere' }));
    expect(screen.getByText('This alert will have no area.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    expect(screen.getByText('Tick the box to confirm that this alert goes to everyone, everywhere')).toBeInTheDocument();
    expect(previews).toHaveLength(0);

    await user.click(screen.getByRole('checkbox', { name: 'I understand: send this alert to everyone, everywhere' }));
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(posts).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes, send to everyone, everywhere: 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
    expect(posts[0]).toMatchObject({ everyone: true });
    expect(posts[0]).not.toHaveProperty('lat');
    expect(previews[0]).toEqual(posts[0]);
    expect(tokens).toEqual(['token-1']);
  });

  it('on a 409 shows the new number and sends with the new token only on a second confirmation', async () => {
    const fresh = audience({ token: 'token-2', recipients: 1250 });
    let answers = [
      json(
        { statusCode: 409, code: 'audience_preview_expired', message: 'The preview is too old: here is the audience now.', details: { audience: fresh } },
        409,
      ),
    ];
    createAnswer = () => answers.shift() ?? json(created, 201);
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByText(/The audience changed: it is now 1,250 people/)).toBeInTheDocument();
    expect(screen.getByText(/The preview is too old/)).toBeInTheDocument();
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
    expect(tokens).toEqual(['token-1']);

    await user.click(screen.getByRole('button', { name: 'Send to 1,250 people' }));
    expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
    expect(tokens).toEqual(['token-1', 'token-2']);
    expect(keys[1]).toBe(keys[0]);
    expect(posts[1]).toEqual(posts[0]);
    answers = [];
  });

  it('says an alert held for approval (202) awaits another approver, and follows no delivery', async () => {
    createAnswer = () => json({ ...created, status: 'pending_approval', sentAt: null }, 202);
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Awaiting approval' })).toBeInTheDocument();
    expect(screen.getByText(/has not been sent/)).toHaveTextContent('you cannot approve your own alert');
    expect(screen.getByRole('link', { name: 'View the alert' })).toHaveAttribute('href', `/admin/alerts/${created.id}`);
    expect(screen.queryByRole('heading', { name: 'Delivery Status' })).not.toBeInTheDocument();
    expect(await screen.findByText('Alert saved: it awaits approval by another approver')).toBeInTheDocument();
    expect(screen.queryByText('Alert sent successfully!')).not.toBeInTheDocument();
    // The form is free for the next alert.
    expect(screen.getByLabelText('Alert Title')).toHaveValue('');
    expect(screen.getByRole('button', { name: 'Send Alert' })).toBeEnabled();
  });

  it('shows the server’s refusal of the area at the area', async () => {
    createAnswer = () => json({ statusCode: 400, code: 'area_required', message: 'Choose where this alert applies, or choose to send it to everyone' }, 400);
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByText('Choose where this alert applies, or choose to send it to everyone')).toBeInTheDocument();
    expect(screen.queryByRole('region', { name: 'Who this alert will reach' })).not.toBeInTheDocument();
  });

  it('is for publishers: a viewer gets what the role allows instead of the form', () => {
    renderAs('viewer', <QuickSendPage />, { path: '/admin/quick-send' });
    expect(screen.getByText(/Your role \(Viewer\) can read the console but not send alerts/)).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Alert' })).not.toBeInTheDocument();
  });
});

describe('Quick Send: an area of several parts (issue #42)', () => {
  it('sends a circle and a named polygon as one multi area', async () => {
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Add a polygon' }));
    for (const point of ['33.5, -112.1', '33.4, -112.2', '33.4, -112.0']) {
      await user.type(screen.getByLabelText('Add a point by coordinates'), point);
      await user.click(screen.getByRole('button', { name: 'Add point' }));
    }
    await user.type(screen.getByLabelText('Name of part 2 (optional)'), 'Riverside');
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Delivery Status' })).toBeInTheDocument();
    expect(previews).toEqual(posts);
    expect(posts[0].area).toEqual({
      type: 'multi',
      parts: [
        { type: 'circle', lat: 33.45, lng: -112.07, radiusKm: 50 },
        {
          type: 'polygon',
          points: [
            [33.5, -112.1],
            [33.4, -112.2],
            [33.4, -112.0],
          ],
          description: 'Riverside',
        },
      ],
    });
    expect(posts[0]).not.toHaveProperty('lat');
  });

  it('lists each part beside the confirmation, by name or number', async () => {
    const { user } = setup();
    await fill(user);
    await user.click(screen.getByRole('button', { name: 'Add a circle' }));
    await user.click(screen.getByRole('button', { name: 'Alert area map: click to place the centre' }));
    await user.type(screen.getByLabelText('Name of part 2 (optional)'), 'Old Town');
    await user.click(screen.getByRole('button', { name: 'Send Alert' }));
    await screen.findByRole('button', { name: 'Send to 1,204 people' });
    const where = screen.getByRole('list', { name: 'Area parts' });
    expect(
      within(where)
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Part 1: Circle, 50 km around 33.45, -112.07', 'Old Town: Circle, 50 km around 33.45, -112.07']);
    expect(posts).toHaveLength(0);
  });
});
