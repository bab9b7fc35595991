import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import type { AlertAudience } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { CreateAlertPage } from './CreateAlertPage';
import { localDateTimeValue } from './alert-form';
import { renderAs } from './guard-test-utils';
import { adminAlert, channelHealth, healthReport, renderScreen, requestOf } from './test-utils';

// Leaflet (ESM, canvas) does not run in jsdom: the map is replaced by a button that "clicks" a point.
jest.mock('@/features/alerts/AreaMap', () => ({
  __esModule: true,
  default: ({
    onPick,
    label,
    center,
    radiusKm,
  }: {
    onPick?: (lat: number, lng: number) => void;
    label: string;
    center: { lat: number; lng: number } | null;
    radiusKm: number;
  }) => (
    <div>
      <button type="button" onClick={() => onPick?.(33.45, -112.07)}>
        {label}
      </button>
      <p>{center ? `circle ${radiusKm} km at ${center.lat},${center.lng}` : 'no circle'}</p>
    </div>
  ),
}));

const audience = (o: Partial<AlertAudience> = {}): AlertAudience => ({
  token: 'token-1',
  concerned: 1303,
  recipients: 1204,
  held: 32,
  channels: { push: { recipients: 1204, held: 32, configured: true } },
  unreachable: { noChannel: 87, noDevice: 12 },
  ...o,
});

// The server: POST /api/alerts/audience answers `audienceAnswer` (after `audienceGate`, when set), POST /api/alerts `answer`
// (or the next of `answers`).
let posts: { body: Record<string, unknown>; key: string | null; token: string | null }[];
let previews: Record<string, unknown>[];
let answer: Response | null;
let answers: Response[];
let audienceAnswer: () => Response;
let audienceGate: Promise<void> | null;
/** GET /api/alerts/admin/channel-health: the providers' health the channel step shows. */
let health: () => Response;
beforeEach(() => {
  health = () => json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  posts = [];
  previews = [];
  answer = null;
  answers = [];
  audienceAnswer = () => json(audience());
  audienceGate = null;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/audience' && req.method === 'POST') {
      previews.push(await req.json());
      if (audienceGate) await audienceGate;
      return audienceAnswer();
    }
    if (path === '/api/alerts' && req.method === 'POST') {
      posts.push({ body: await req.json(), key: req.headers.get('Idempotency-Key'), token: req.headers.get('Audience-Token') });
      return answers.shift() ?? answer ?? json(adminAlert({ id: SENT_ID, title: 'Wrong-way driver on I-10' }), 201);
    }
    if (path === '/api/alerts/admin/channel-health') return health();
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});
const SENT_ID = '00000000-0000-4000-a000-0000000000a1';

// react-hot-toast keeps its toasts in module state: one test's must not show in the next.
afterEach(() => act(() => toast.remove()));

function setup() {
  const user = userEvent.setup();
  renderScreen(
    <>
      <CreateAlertPage />
      <Toaster />
    </>,
    { path: '/admin/create-alert' },
  );
  return { user };
}

const stepHeading = () => screen.getByRole('heading', { level: 2 });
const next = () => screen.getByRole('button', { name: 'Next' });
const previous = () => screen.getByRole('button', { name: 'Previous' });
const path = () => screen.getByRole('status', { name: 'current path' });

async function fillDetails(
  user: ReturnType<typeof userEvent.setup>,
  title = 'Wrong-way driver on I-10',
  message = 'A car is driving west in the eastbound lanes near exit 150.',
) {
  await user.type(screen.getByLabelText('Alert Title'), title);
  await user.type(screen.getByLabelText('Message'), message);
}

/** Goes to `step` with valid answers: the details, the defaults of step 2, and an area placed on the map in step 3. */
async function toStep(user: ReturnType<typeof userEvent.setup>, step: 2 | 3 | 4) {
  await fillDetails(user);
  await user.click(next());
  if (step >= 3) await user.click(next());
  if (step >= 4) {
    await placeCentre(user);
    await user.click(next());
  }
  expect(stepHeading()).toHaveTextContent(`Step ${step} of 4`);
}

const placeCentre = (user: ReturnType<typeof userEvent.setup>) => user.click(screen.getByRole('button', { name: 'Alert area map: click to place the centre' }));
const sentPath = `/admin/alerts/${SENT_ID}`;

describe('Create Alert wizard', () => {
  it('shows the four steps, starts on Alert Details with Previous disabled and no Send Alert', () => {
    setup();
    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps.map((s) => s.textContent)).toEqual(['1Alert Details', '2Classification', '3Location & Timing', '4Review & Send']);
    expect(stepHeading()).toHaveTextContent('Step 1 of 4: Alert Details');
    expect(previous()).toBeDisabled();
    expect(next()).toBeEnabled();
    expect(screen.queryByRole('button', { name: 'Send Alert' })).not.toBeInTheDocument();
    expect(screen.queryByLabelText('Preview')).not.toBeInTheDocument();
  });

  it('keeps step 1 until title and message are long enough, with the spec messages', async () => {
    const { user } = setup();
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 1 of 4');
    expect(screen.getByText('Title must be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();
    expect(screen.getByLabelText('Alert Title')).toHaveAttribute('aria-invalid', 'true');

    await user.type(screen.getByLabelText('Alert Title'), 'Fire');
    await user.type(screen.getByLabelText('Message'), 'Evacuate');
    await user.click(next());
    expect(screen.getByText('Title must be at least 5 characters')).toBeInTheDocument();
    expect(screen.getByText('Message must be at least 10 characters')).toBeInTheDocument();

    // whitespace does not count
    await user.clear(screen.getByLabelText('Alert Title'));
    await user.type(screen.getByLabelText('Alert Title'), '   ab   ');
    await user.click(next());
    expect(screen.getByText('Title must be at least 5 characters')).toBeInTheDocument();
  });

  it('refuses a title over 100 and a message over 500 characters, with a live counter out of 500', async () => {
    const { user } = setup();
    expect(screen.getByText('0/500')).toBeInTheDocument();
    await user.type(screen.getByLabelText('Message'), 'Flooding.');
    expect(screen.getByText('9/500')).toBeInTheDocument();

    await user.click(screen.getByLabelText('Alert Title'));
    await user.paste('t'.repeat(101));
    await user.clear(screen.getByLabelText('Message'));
    await user.click(screen.getByLabelText('Message'));
    await user.paste('m'.repeat(501));
    expect(screen.getByText('501/500')).toBeInTheDocument();
    expect(screen.getByText('101/100')).toBeInTheDocument();
    await user.click(next());
    expect(screen.getByText('Title too long')).toBeInTheDocument();
    expect(screen.getByText('Message too long')).toBeInTheDocument();
    expect(stepHeading()).toHaveTextContent('Step 1 of 4');

    await user.type(screen.getByLabelText('Message'), '{Backspace}');
    expect(screen.getByText('500/500')).toBeInTheDocument();
    await user.clear(screen.getByLabelText('Alert Title'));
    await user.click(screen.getByLabelText('Alert Title'));
    await user.paste('t'.repeat(100));
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 2 of 4: Classification');
  });

  it('defaults to severity medium, category public safety and web push, and needs a channel', async () => {
    const { user } = setup();
    await toStep(user, 2);
    expect(previous()).toBeEnabled();
    expect(screen.getByRole('radio', { name: /Medium/ })).toBeChecked();
    expect(screen.getByLabelText('Category')).toHaveValue('public_safety');
    expect(screen.getByRole('checkbox', { name: 'Web Push' })).toBeChecked();
    expect(screen.getByRole('checkbox', { name: 'SMS' })).not.toBeChecked();

    await user.click(screen.getByRole('checkbox', { name: 'Web Push' }));
    await user.click(next());
    expect(screen.getByText('Select at least one channel')).toBeInTheDocument();
    expect(stepHeading()).toHaveTextContent('Step 2 of 4');

    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await user.click(screen.getByRole('radio', { name: /Critical/ }));
    await user.selectOptions(screen.getByLabelText('Category'), 'weather');
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 3 of 4: Location & Timing');
  });

  it('checks radius 1 to 1000 km (default 50) and an expiry in the future; the map click draws the circle', async () => {
    const { user } = setup();
    await toStep(user, 3);
    const radius = screen.getByLabelText('Radius (km)');
    expect(radius).toHaveValue(50);
    expect(screen.getByText('no circle')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Alert area map: click to place the centre' }));
    expect(screen.getByLabelText('Latitude')).toHaveValue(33.45);
    expect(screen.getByLabelText('Longitude')).toHaveValue(-112.07);
    expect(screen.getByText('circle 50 km at 33.45,-112.07')).toBeInTheDocument();

    await user.clear(radius);
    await user.type(radius, '0');
    await user.click(next());
    expect(screen.getByText('Radius must be between 1 and 1000 km')).toBeInTheDocument();
    await user.clear(radius);
    await user.type(radius, '1001');
    await user.click(next());
    expect(screen.getByText('Radius must be between 1 and 1000 km')).toBeInTheDocument();
    await user.clear(radius);
    await user.type(radius, '12');
    expect(screen.getByText('circle 12 km at 33.45,-112.07')).toBeInTheDocument();

    const expires = screen.getByLabelText('Expires At (optional)');
    expect(expires).toHaveAttribute('min');
    await user.type(expires, localDateTimeValue(new Date(Date.now() - 3_600_000)));
    await user.click(next());
    expect(screen.getByText('Expiry must be in the future')).toBeInTheDocument();
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');

    await user.clear(expires);
    await user.type(expires, localDateTimeValue(new Date(Date.now() + 86_400_000)));
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 4 of 4: Review & Send');
    expect(screen.getByText('12 km around 33.45, -112.07')).toBeInTheDocument();
  });

  it('replaces Next with whom the alert will reach and its confirmation on step 4, offers the Preview toggle, and Previous keeps the answers', async () => {
    const { user } = setup();
    await toStep(user, 4);
    expect(screen.queryByRole('button', { name: 'Next' })).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Send Alert' })).not.toBeInTheDocument();
    expect(screen.getByRole('heading', { name: 'Who this alert will reach' })).toBeInTheDocument();
    expect(await screen.findByRole('button', { name: 'Send to 1,204 people' })).toBeEnabled();

    const review = screen.getByLabelText('Alert summary');
    expect(review).toHaveTextContent('Wrong-way driver on I-10');
    expect(review).toHaveTextContent('Public Safety');
    expect(review).toHaveTextContent('Web Push');
    expect(review).toHaveTextContent('50 km around 33.45, -112.07');
    expect(review).toHaveTextContent('WhenNow');

    expect(screen.queryByRole('region', { name: 'Alert preview' })).not.toBeInTheDocument();
    await user.click(screen.getByLabelText('Preview'));
    expect(screen.getByRole('region', { name: 'Alert preview' })).toHaveTextContent('Wrong-way driver on I-10');
    await user.click(screen.getByLabelText('Preview'));
    expect(screen.queryByRole('region', { name: 'Alert preview' })).not.toBeInTheDocument();

    await user.click(previous());
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    expect(previous()).toHaveFocus();
    await user.click(previous());
    await user.click(previous());
    expect(stepHeading()).toHaveTextContent('Step 1 of 4');
    expect(screen.getByLabelText('Alert Title')).toHaveValue('Wrong-way driver on I-10');
    expect(previous()).toBeDisabled();
    expect(posts).toHaveLength(0);
  });

  it('marks completed steps in the indicator', async () => {
    const { user } = setup();
    await toStep(user, 3);
    const steps = within(screen.getByRole('list', { name: 'Steps' })).getAllByRole('listitem');
    expect(steps[0]).toHaveTextContent('(completed)');
    expect(steps[1]).toHaveTextContent('(completed)');
    expect(steps[2]).toHaveAttribute('aria-current', 'step');
    expect(steps[3]).not.toHaveTextContent('(completed)');
  });

  it("goes to /admin/alerts on 'Back to Alerts'", async () => {
    const { user } = setup();
    await user.click(screen.getByRole('button', { name: 'Back to Alerts' }));
    expect(screen.getByRole('status', { name: 'current path' })).toHaveTextContent('/admin/alerts');
  });

  describe('Review & Send: whom it will reach, then an explicit confirmation', () => {
    it('counts whom exactly the body it would send reaches, and keeps the confirmation disabled until it knows', async () => {
      let release = () => {};
      audienceGate = new Promise((r) => {
        release = r;
      });
      audienceAnswer = () =>
        json(
          audience({
            recipients: 1204,
            held: 32,
            channels: { push: { recipients: 1204, held: 32, configured: true }, sms: { recipients: 310, held: 0, configured: true } },
          }),
        );
      const { user } = setup();
      await fillDetails(user);
      await user.click(next());
      await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
      await user.click(next());
      await placeCentre(user);
      await user.click(next());
      expect(stepHeading()).toHaveTextContent('Step 4 of 4: Review & Send');

      expect(screen.getByText('Counting who this alert will reach...')).toBeInTheDocument();
      expect(screen.getByRole('button', { name: 'Counting recipients...' })).toBeDisabled();
      await act(async () => release());

      const region = screen.getByRole('region', { name: 'Who this alert will reach' });
      expect(await within(region).findByText(/This alert will reach/)).toHaveTextContent(
        'This alert will reach 1,204 people, 32 of them later, in their quiet hours or digest.',
      );
      expect(
        within(region)
          .getAllByRole('listitem')
          .map((li) => li.textContent),
      ).toEqual(['Web Push: 1,204 (32 later, in their quiet hours or digest)', 'SMS: 310']);
      expect(within(region).getByText(/^Not reached:/)).toHaveTextContent(
        'Not reached: 87 people it concerns have none of these channels on; 12 have push on but no browser subscribed.',
      );

      await user.click(screen.getByRole('button', { name: 'Send to 1,204 people' }));
      await waitFor(() => expect(path()).toHaveTextContent(sentPath));
      expect(previews).toHaveLength(1);
      expect(posts).toHaveLength(1);
      expect(previews[0]).toEqual(posts[0].body);
      // Sent with the token of the counts confirmed.
      expect(posts[0].token).toBe('token-1');
      expect(posts[0].body).toMatchObject({ channels: ['push', 'sms'], lat: 33.45, lng: -112.07, radiusKm: 50 });
      expect(posts[0].body).not.toHaveProperty('remindAfterMinutes');
    });

    it('asks for a reminder to those who have not answered only when chosen, shows it in the review and sends it', async () => {
      const { user } = setup();
      await fillDetails(user);
      await user.click(next());
      await user.click(next());
      await placeCentre(user);
      const reminder = screen.getByRole('combobox', { name: 'Remind those who have not answered (optional)' });
      expect(reminder).toHaveValue('');
      expect(
        within(reminder)
          .getAllByRole('option')
          .map((o) => o.textContent),
      ).toEqual(['No reminder', 'After 10 minutes', 'After 15 minutes', 'After 30 minutes', 'After 60 minutes']);
      await user.selectOptions(reminder, 'After 15 minutes');
      await user.click(next());
      expect(screen.getByText('After 15 minutes, to those who have not answered')).toBeInTheDocument();
      await user.click(await screen.findByRole('button', { name: /^Send to / }));
      await waitFor(() => expect(posts).toHaveLength(1));
      expect(posts[0].body).toMatchObject({ remindAfterMinutes: 15 });
      expect(previews[0]).toMatchObject({ remindAfterMinutes: 15 });
    });

    it('does not send on Enter: four presses reach Review & Send, and more send nothing', async () => {
      const { user } = setup();
      await fillDetails(user);
      act(() => next().focus());
      await user.keyboard('{Enter}');
      await user.keyboard('{Enter}');
      await placeCentre(user);
      act(() => next().focus());
      await user.keyboard('{Enter}');
      expect(stepHeading()).toHaveTextContent('Step 4 of 4: Review & Send');
      await screen.findByRole('button', { name: 'Send to 1,204 people' });
      // The fourth press, and more: on the focused heading of the audience, then on the Preview checkbox.
      expect(screen.getByRole('heading', { name: 'Who this alert will reach' })).toHaveFocus();
      await user.keyboard('{Enter}{Enter}');
      act(() => screen.getByLabelText('Preview').focus());
      await user.keyboard('{Enter}');
      expect(stepHeading()).toHaveTextContent('Step 4 of 4');
      expect(path()).toHaveTextContent('/admin/create-alert');
      expect(posts).toHaveLength(0);
      expect(previews).toHaveLength(1);
    });

    it('sends exactly once from the confirmation, even clicked twice', async () => {
      const { user } = setup();
      await toStep(user, 4);
      const confirm = await screen.findByRole('button', { name: 'Send to 1,204 people' });
      await user.dblClick(confirm);
      await waitFor(() => expect(path()).toHaveTextContent(sentPath));
      expect(posts).toHaveLength(1);
      expect(posts[0].body).toMatchObject({ title: 'Wrong-way driver on I-10', channels: ['push'] });
    });

    it('asks again with the new values after Previous; an unconfigured channel is a loud warning with its reason', async () => {
      const reason = 'The SMS webhook is turned off in Admin Settings: SMS will not be sent.';
      const { user } = setup();
      await toStep(user, 4);
      await screen.findByRole('button', { name: 'Send to 1,204 people' });

      audienceAnswer = () =>
        json(
          audience({
            recipients: 1250,
            held: 32,
            channels: { push: { recipients: 1204, held: 32, configured: true }, sms: { recipients: 46, held: 0, configured: false, reason } },
          }),
        );
      await user.click(previous());
      await user.click(previous());
      await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
      await user.click(next());
      await user.click(next());
      expect(await screen.findByRole('button', { name: 'Send to 1,250 people' })).toBeEnabled();
      expect(screen.getByRole('alert')).toHaveTextContent(`SMS is not configured. ${reason}`);
      expect(screen.getByText(/^SMS:/).closest('li')).toHaveTextContent('SMS: 46 (not configured: these will fail)');
      expect(previews).toHaveLength(2);
      expect(previews[1]).toMatchObject({ channels: ['push', 'sms'] });
      expect(posts).toHaveLength(0);
    });

    it('says nobody will receive it and still lets the admin "Send to nobody"', async () => {
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
      await toStep(user, 4);
      const confirm = await screen.findByRole('button', { name: 'Send to nobody' });
      expect(screen.getByRole('alert')).toHaveTextContent('Nobody will receive this alert.');
      expect(screen.queryByText(/This alert will reach/)).not.toBeInTheDocument();
      await user.click(confirm);
      await waitFor(() => expect(path()).toHaveTextContent(sentPath));
      expect(posts).toHaveLength(1);
    });

    it('never sends without counts: a failed preview offers only to count again, and sends once it has them', async () => {
      audienceAnswer = () => json({ code: 'error', message: 'Database unavailable' }, 500);
      const { user } = setup();
      await toStep(user, 4);
      expect(await screen.findByRole('alert')).toHaveTextContent('Could not count who this alert will reach. Database unavailable');
      expect(screen.queryByRole('button', { name: /^Send/ })).not.toBeInTheDocument();

      audienceAnswer = () => json(audience());
      await user.click(screen.getByRole('button', { name: 'Count again' }));
      await waitFor(() => expect(previews).toHaveLength(2));
      await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
      await waitFor(() => expect(path()).toHaveTextContent(sentPath));
      expect(posts).toHaveLength(1);
      expect(posts[0].token).toBe('token-1');
    });

    it("says 'Failed to create alert' and stays on Review & Send when the server refuses it; a retry reuses the key", async () => {
      answer = json({ error: 'internal', message: 'Database unavailable' }, 500);
      const { user } = setup();
      await toStep(user, 4);
      await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
      expect(await screen.findByText('Failed to create alert')).toBeInTheDocument();
      expect(stepHeading()).toHaveTextContent('Step 4 of 4');
      expect(path()).toHaveTextContent('/admin/create-alert');

      answer = null;
      // The toast may come a render before the confirmation is free again.
      await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
      // The screen (and the Toaster mounted with it) gives way to the alert's page.
      await waitFor(() => expect(path()).toHaveTextContent(sentPath));
      expect(posts).toHaveLength(2);
      expect(posts[1].key).toBe(posts[0].key);
      expect(posts[1].body).toMatchObject({ title: 'Wrong-way driver on I-10', channels: ['push'] });
    });
  });
});

describe('Create Alert: nothing goes out unreviewed (issue #38)', () => {
  const conflict = (fresh: AlertAudience) =>
    json(
      {
        statusCode: 409,
        code: 'audience_changed',
        message: `The audience changed since the preview: this alert would now reach ${fresh.recipients.toLocaleString('en-US')} people.`,
        details: { audience: fresh },
      },
      409,
    );

  it('on a 409 shows the new number, sends nothing by itself, and sends with the new token on a second confirmation', async () => {
    answers = [conflict(audience({ token: 'token-2', recipients: 1250 }))];
    const { user } = setup();
    await toStep(user, 4);
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));

    expect(await screen.findByText(/The audience changed: it is now 1,250 people/)).toHaveTextContent('(you confirmed 1,204)');
    expect(screen.getByText(/would now reach 1,250 people/)).toBeInTheDocument();
    expect(screen.getByRole('region', { name: 'Who this alert will reach' })).toHaveTextContent('This alert will reach 1,250 people');
    expect(path()).toHaveTextContent('/admin/create-alert');
    expect(posts).toHaveLength(1);
    expect(posts[0].token).toBe('token-1');

    await user.click(screen.getByRole('button', { name: 'Send to 1,250 people' }));
    await waitFor(() => expect(path()).toHaveTextContent(sentPath));
    expect(posts).toHaveLength(2);
    expect(posts[1].token).toBe('token-2');
    expect(posts[1].body).toEqual(posts[0].body);
    // The same alert, asked again: the same key.
    expect(posts[1].key).toBe(posts[0].key);
    expect(previews).toHaveLength(1);
  });

  it('needs an area: step 3 keeps the wizard until one is placed, with the server’s words', async () => {
    const { user } = setup();
    await toStep(user, 3);
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    expect(screen.getByRole('alert')).toHaveTextContent('Choose where this alert applies, or choose to send it to everyone');

    // A polygon without points is no area either.
    await user.click(screen.getByRole('radio', { name: 'Polygon' }));
    await user.click(next());
    expect(screen.getByRole('alert')).toHaveTextContent('Choose where this alert applies, or choose to send it to everyone');

    await user.click(screen.getByRole('radio', { name: 'Circle' }));
    await placeCentre(user);
    expect(screen.queryByRole('alert')).not.toBeInTheDocument();
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 4 of 4');
    expect(previews).toHaveLength(1);
  });

  it('sends to everyone only when chosen, its box ticked, and its second confirmation pressed; never with an area', async () => {
    const { user } = setup();
    await toStep(user, 3);
    // An area placed first, then everyone chosen: the area is not sent with it.
    await placeCentre(user);
    await user.click(screen.getByRole('radio', { name: 'Send to everyone, everywhere' }));
    expect(screen.getByText('This alert will have no area.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: 'Alert area map: click to place the centre' })).not.toBeInTheDocument();
    const box = screen.getByRole('checkbox', { name: 'I understand: send this alert to everyone, everywhere' });
    expect(box).not.toBeChecked();

    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    expect(screen.getByText('Tick the box to confirm that this alert goes to everyone, everywhere')).toBeInTheDocument();
    expect(box).toHaveAttribute('aria-invalid', 'true');

    await user.click(box);
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 4 of 4');
    expect(screen.getByLabelText('Alert summary')).toHaveTextContent('Everyone, everywhere (no area, confirmed)');

    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(posts).toHaveLength(0);
    await user.click(screen.getByRole('button', { name: 'Yes, send to everyone, everywhere: 1,204 people' }));
    await waitFor(() => expect(path()).toHaveTextContent(sentPath));
    expect(posts).toHaveLength(1);
    expect(posts[0].body).toMatchObject({ everyone: true });
    expect(posts[0].body).not.toHaveProperty('lat');
    expect(posts[0].body).not.toHaveProperty('area');
    expect(previews[0]).toEqual(posts[0].body);
  });

  it('asks for the everyone box again after another area was chosen in between', async () => {
    const { user } = setup();
    await toStep(user, 3);
    await user.click(screen.getByRole('radio', { name: 'Send to everyone, everywhere' }));
    await user.click(screen.getByRole('checkbox', { name: 'I understand: send this alert to everyone, everywhere' }));
    await user.click(screen.getByRole('radio', { name: 'Circle' }));
    await user.click(screen.getByRole('radio', { name: 'Send to everyone, everywhere' }));
    expect(screen.getByRole('checkbox', { name: 'I understand: send this alert to everyone, everywhere' })).not.toBeChecked();
  });

  it('refuses a send time in the past with the server’s words, schedules a later one and says when it goes out', async () => {
    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setSeconds(0, 0);
    answer = json(adminAlert({ id: SENT_ID, title: 'Wrong-way driver on I-10', status: 'scheduled', sentAt: null, sendAt: at.toISOString() }), 201);
    const { user } = setup();
    await toStep(user, 3);
    await placeCentre(user);
    await user.click(screen.getByRole('radio', { name: 'Schedule for a later time' }));
    const sendAt = screen.getByLabelText(/^Send at \(/);
    expect(screen.getByText(/^In your time zone, /)).toHaveTextContent(Intl.DateTimeFormat().resolvedOptions().timeZone);

    await user.click(next());
    expect(screen.getByText('Choose when to send it')).toBeInTheDocument();
    await user.type(sendAt, localDateTimeValue(new Date(Date.now() - 3_600_000)));
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    expect(screen.getByText('The send time is in the past: choose a later time')).toBeInTheDocument();
    expect(sendAt).toHaveAttribute('aria-invalid', 'true');

    await user.clear(sendAt);
    await user.type(sendAt, localDateTimeValue(at));
    await user.click(next());
    expect(stepHeading()).toHaveTextContent('Step 4 of 4');
    expect(screen.getByLabelText('Alert summary')).toHaveTextContent(/WhenScheduled for /);

    await user.click(await screen.findByRole('button', { name: 'Schedule for 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Scheduled' })).toHaveFocus();
    expect(screen.getByText(/goes out on/)).toHaveTextContent(/Wrong-way driver on I-10 goes out on .+ \(.+\)\./);
    expect(screen.getByRole('link', { name: 'View the alert' })).toHaveAttribute('href', sentPath);
    expect(path()).toHaveTextContent('/admin/create-alert');
    expect(posts[0].body).toMatchObject({ sendAt: at.toISOString() });
    expect(previews[0]).toEqual(posts[0].body);

    // Create another alert starts over, with a new key.
    await user.click(screen.getByRole('button', { name: 'Create another alert' }));
    expect(stepHeading()).toHaveTextContent('Step 1 of 4');
    expect(screen.getByLabelText('Alert Title')).toHaveValue('');
  });

  it('shows the server’s refusal of the send time at that field, on step 3', async () => {
    answer = json({ statusCode: 400, code: 'send_at_in_past', message: 'The send time has passed: choose a later one' }, 400);
    const { user } = setup();
    await toStep(user, 3);
    await placeCentre(user);
    await user.click(screen.getByRole('radio', { name: 'Schedule for a later time' }));
    await user.type(screen.getByLabelText(/^Send at \(/), localDateTimeValue(new Date(Date.now() + 3_600_000)));
    await user.click(next());
    await user.click(await screen.findByRole('button', { name: 'Schedule for 1,204 people' }));
    expect(await screen.findByText('The send time has passed: choose a later one')).toBeInTheDocument();
    expect(stepHeading()).toHaveTextContent('Step 3 of 4');
    expect(screen.getByLabelText(/^Send at \(/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('says an alert the approval policy holds (202) awaits another approver, and does not call it sent', async () => {
    answer = json(adminAlert({ id: SENT_ID, title: 'Wrong-way driver on I-10', status: 'pending_approval', sentAt: null }), 202);
    const { user } = setup();
    await toStep(user, 4);
    await user.click(await screen.findByRole('button', { name: 'Send to 1,204 people' }));
    expect(await screen.findByRole('heading', { name: 'Awaiting approval' })).toBeInTheDocument();
    expect(screen.getByText(/has not been sent/)).toHaveTextContent('another approver to approve it first; you cannot approve your own alert');
    expect(await screen.findByText('Alert saved: it awaits approval by another approver')).toBeInTheDocument();
    expect(screen.queryByText('Alert created and sent successfully!')).not.toBeInTheDocument();
    expect(path()).toHaveTextContent('/admin/create-alert');
  });

  it('shows the area on a map and what each language and channel will carry, SMS segments included', async () => {
    const { user } = setup();
    await fillDetails(user, 'Flood warning', 'Move to higher ground now.');
    await user.click(screen.getByRole('button', { name: 'Add language' }));
    await user.type(screen.getByLabelText('Spanish title'), 'Aviso de inundación');
    await user.type(screen.getByLabelText('Spanish message'), 'Suba a un terreno más alto ahora.');
    await user.click(next());
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await user.click(screen.getByRole('checkbox', { name: 'Email' }));
    await user.click(screen.getByRole('radio', { name: /High/ }));
    await user.click(next());
    await placeCentre(user);
    await user.clear(screen.getByLabelText('Radius (km)'));
    await user.type(screen.getByLabelText('Radius (km)'), '12');
    await user.click(next());

    expect(screen.getByRole('button', { name: 'The alert area on the map' })).toBeInTheDocument();
    expect(screen.getByText('circle 12 km at 33.45,-112.07')).toBeInTheDocument();

    const preview = screen.getByRole('region', { name: 'Message per language and channel' });
    const english = within(preview).getByRole('group', { name: /English/ });
    const spanish = within(preview).getByRole('group', { name: /Spanish/ });
    expect(english).toHaveTextContent('Flood warning');
    expect(english).toHaveTextContent('[High] Flood warning');
    expect(english).toHaveTextContent(/1 segment · GSM-7 · 40 characters/);
    // The e-mail's subject names the severity in the reader's language, as the e-mail sender writes it (emailSubject).
    expect(spanish).toHaveTextContent('Subject: [Alta] Aviso de inundación');
    expect(spanish).toHaveTextContent('Suba a un terreno más alto ahora.');
    // "ó" and "á" are outside GSM-7: the Spanish SMS is UCS-2.
    expect(spanish).toHaveTextContent(/1 segment · UCS-2 · 53 characters/);
    expect(spanish).toHaveAttribute('lang', 'es');
    // every language a reader may have chosen: one the alert has no text in gets the English, and says so
    expect(within(preview).getAllByRole('group')).toHaveLength(6);
    const french = within(preview).getByRole('group', { name: /French/ });
    expect(french).toHaveAttribute('lang', 'en');
    expect(french).toHaveTextContent('No French text: French readers get the English.');
    expect(french).toHaveTextContent('Subject: [High] Flood warning');
  });

  it("offers a voice call beside the other channels, with the providers' health, and names it in the review, the preview and the send (issue #39)", async () => {
    health = () =>
      json(
        healthReport(
          channelHealth('push', { reachableNow: 1204 }),
          channelHealth('sms', { reachableNow: 310 }),
          channelHealth('email'),
          channelHealth('voice', { configured: false, problem: 'Voice calls are turned off in Admin Settings' }),
        ),
      );
    audienceAnswer = () =>
      json(
        audience({
          recipients: 1204,
          held: 0,
          channels: { push: { recipients: 1204, held: 0, configured: true }, voice: { recipients: 96, held: 0, configured: true } },
        }),
      );
    const { user } = setup();
    await fillDetails(user, 'Flood warning', 'Move to higher ground now');
    await user.click(next());
    const channels = screen.getByRole('group', { name: 'Delivery Channels' });
    expect(
      within(channels)
        .getAllByRole('checkbox')
        .map((c) => c.parentElement?.textContent?.trim()),
    ).toEqual(['Web Push', 'SMS', 'Email', 'Voice call']);
    // what each channel can do now, beside the choice
    expect(await screen.findByText('Provider health: Voice call not ready')).toBeInTheDocument();
    await user.click(screen.getByRole('checkbox', { name: 'Voice call' }));
    await user.click(next());
    // the map is loaded lazily
    await user.click(await screen.findByRole('button', { name: 'Alert area map: click to place the centre' }));
    await user.click(next());

    expect(within(screen.getByLabelText('Alert summary')).getByText('Web Push, Voice call')).toBeInTheDocument();
    const english = within(screen.getByRole('region', { name: 'Message per language and channel' })).getByRole('group', { name: /English/ });
    expect(english).toHaveTextContent('This is a Beacon public safety alert. Flood warning. Move to higher ground now.');
    expect(english).toHaveTextContent('Press 1 if you are safe. Press 2 if you need help.');
    const region = screen.getByRole('region', { name: 'Who this alert will reach' });
    await within(region).findByText(/This alert will reach/);
    expect(
      within(within(region).getByRole('list', { name: 'Recipients per channel' }))
        .getAllByRole('listitem')
        .map((li) => li.textContent),
    ).toEqual(['Web Push: 1,204', 'Voice call: 96']);

    await user.click(screen.getByRole('button', { name: 'Send to 1,204 people' }));
    await waitFor(() => expect(posts).toHaveLength(1));
    expect(posts[0].body.channels).toEqual(['push', 'voice']);
  });

  it('is for publishers: a viewer gets what the role allows instead of the form', () => {
    renderAs('viewer', <CreateAlertPage />, { path: '/admin/create-alert' });
    expect(screen.getByText(/Your role \(Viewer\) can read the console but not send alerts/)).toBeInTheDocument();
    expect(screen.queryByLabelText('Alert Title')).not.toBeInTheDocument();
  });
});
