import { fireEvent, screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAlert, AlertAudience } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { formatDateTime } from '@/common/time';
import { SentAlertCard } from './AdminAlertsPage';
import { localDateTimeValue } from './alert-form';
import { audienceChanged, audienceOf, NOT_SENT, renderAs, tokenOf } from './guard-test-utils';
import { adminAlert, renderScreen, requestOf } from './test-utils';

jest.mock('@/app/socket', () => jest.requireActual('@/test/fake-socket'));

/** Each GET of the draft's audience, with its query; each send, with its body and token. */
let previews: URLSearchParams[];
let sends: { body: unknown; token: string | null }[];
let counted: AlertAudience;
let answer: (body: Record<string, unknown>, token: string | null) => Response;

const draft = (o: Partial<AdminAlert> = {}) =>
  adminAlert({
    title: 'Wrong-way driver on I-10',
    status: 'draft',
    ...NOT_SENT,
    lat: 33.45,
    lng: -112.07,
    radiusKm: 5,
    area: { type: 'circle', lat: 33.45, lng: -112.07, radiusKm: 5 },
    ...o,
  });

beforeEach(() => {
  previews = [];
  sends = [];
  counted = audienceOf(12);
  answer = (body) => json(adminAlert({ status: body.sendAt ? 'scheduled' : 'active', sendAt: (body.sendAt as string) ?? null }));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path, query } = requestOf(input);
    if (req.method === 'GET' && path.endsWith('/audience')) {
      previews.push(query);
      return json(counted);
    }
    if (req.method === 'POST' && path.endsWith('/send')) {
      const text = await req.text();
      const body = text ? (JSON.parse(text) as Record<string, unknown>) : {};
      sends.push({ body, token: tokenOf(req) });
      return answer(body, tokenOf(req));
    }
    return json({ code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

function setup(a: AdminAlert) {
  const user = userEvent.setup();
  renderScreen(
    <ul>
      <SentAlertCard alert={a} now={new Date()} />
    </ul>,
  );
  return user;
}

const dialog = () => screen.getByRole('dialog');
/** The card's line saying what the send came to. */
const outcome = () => screen.findByText(/^(Sent:|Scheduled for|Awaiting approval:)/);

describe("A draft's Send Now and Schedule", () => {
  it('Send Now sends nothing on the click: it counts the draft\'s audience and sends only on "Send to N people", with its token', async () => {
    const a = draft();
    const user = setup(a);
    expect(screen.getByLabelText(`Totals for ${a.title}`)).toHaveTextContent('Draft: not sent.');
    expect(screen.queryByText(/Success rate/)).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: `Send Now: ${a.title}` }));
    const confirm = await within(dialog()).findByRole('button', { name: 'Send to 12 people' });
    expect(sends).toHaveLength(0);
    expect(previews.map((q) => q.get('everyone'))).toEqual([null]);
    expect(dialog()).toHaveTextContent('This alert will reach 12 people');

    await user.click(confirm);
    expect(await outcome()).toHaveTextContent('Sent: going out to 12 people.');
    expect(sends).toEqual([{ body: {}, token: counted.token }]);
  });

  it('says so when the approval policy holds it (202 awaiting approval)', async () => {
    answer = () => json(adminAlert({ status: 'pending_approval' }), 202);
    const user = setup(draft());
    await user.click(screen.getByRole('button', { name: /^Send Now/ }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send to 12 people' }));
    expect(await outcome()).toHaveTextContent(
      'Awaiting approval: the approval policy asks a second person (an approver other than you) to approve it before it goes out.',
    );
  });

  it('asks again with the new number when the audience moved since the count', async () => {
    const fresh = audienceOf(15);
    answer = (_body, token) => (token === fresh.token ? json(adminAlert({ status: 'active' })) : json(audienceChanged(fresh), 409));
    const user = setup(draft());
    await user.click(screen.getByRole('button', { name: /^Send Now/ }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send to 12 people' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The audience changed: it is now 15 people (you confirmed 12).');
    await user.click(within(dialog()).getByRole('button', { name: 'Send to 15 people' }));
    expect(await outcome()).toHaveTextContent('Sent: going out to 15 people.');
    expect(sends.map((s) => s.token)).toEqual([counted.token, fresh.token]);
  });

  it('a draft with no area: counts nothing until everyone, everywhere is chosen on its own, then confirms that once more', async () => {
    const a = draft({ lat: null, lng: null, radiusKm: null, area: null });
    const user = setup(a);
    await user.click(screen.getByRole('button', { name: `Send Now: ${a.title}` }));
    expect(dialog()).toHaveTextContent('This draft has no area.');
    const next = within(dialog()).getByRole('button', { name: 'Count who it reaches' });
    expect(next).toBeDisabled();
    expect(previews).toHaveLength(0);

    await user.click(within(dialog()).getByLabelText(/Send it to everyone, everywhere/));
    await user.click(next);
    await user.click(await within(dialog()).findByRole('button', { name: 'Send to 12 people' }));
    // The second, separate confirmation of everyone.
    expect(sends).toHaveLength(0);
    await user.click(within(dialog()).getByRole('button', { name: 'Yes, send to everyone, everywhere: 12 people' }));
    expect(await outcome()).toHaveTextContent('Sent: going out to 12 people.');
    expect(previews.map((q) => q.get('everyone'))).toEqual(['true']);
    expect(sends).toEqual([{ body: { everyone: true }, token: counted.token }]);
  });

  it('a draft to contact groups without an area is not one for everyone: counted at once, sent without everyone (issue #42)', async () => {
    counted = audienceOf(12, { byTarget: { area: null, groups: [{ id: 'g1', name: 'Road crews', concerned: 12, external: 4 }] } });
    const a = draft({ lat: null, lng: null, radiusKm: null, area: null, groups: [{ id: 'g1', name: 'Road crews', memberCount: 12, externalCount: 4 }] });
    const user = setup(a);
    await user.click(screen.getByRole('button', { name: `Send Now: ${a.title}` }));
    const confirm = await within(dialog()).findByRole('button', { name: 'Send to 12 people' });
    expect(dialog()).not.toHaveTextContent('This draft has no area.');
    expect(dialog()).not.toHaveTextContent(/Everyone, everywhere/);
    expect(within(dialog()).getByRole('list', { name: 'People per target' })).toHaveTextContent('Road crews: 12 people, of them 4 without an account');
    await user.click(confirm);
    expect(await outcome()).toHaveTextContent('Sent: going out to 12 people.');
    expect(previews.map((q) => q.get('everyone'))).toEqual([null]);
    expect(sends).toEqual([{ body: {}, token: counted.token }]);
  });

  it('Schedule asks for the time first (not in the past), counts, and schedules it with that time', async () => {
    const a = draft();
    const user = setup(a);
    await user.click(screen.getByRole('button', { name: `Schedule: ${a.title}` }));
    const field = within(dialog()).getByLabelText(/^Send at \(your time/);
    const next = within(dialog()).getByRole('button', { name: 'Count who it reaches' });
    expect(next).toBeDisabled();

    fireEvent.change(field, { target: { value: localDateTimeValue(new Date(Date.now() - 3_600_000)) } });
    expect(within(dialog()).getByText('The send time is in the past: choose a later time')).toBeInTheDocument();
    expect(next).toBeDisabled();

    const at = new Date(Date.now() + 2 * 86_400_000);
    at.setSeconds(0, 0);
    fireEvent.change(field, { target: { value: localDateTimeValue(at) } });
    await user.click(next);
    const confirm = await within(dialog()).findByRole('button', { name: 'Schedule for 12 people' });
    expect(dialog()).toHaveTextContent(`It goes out by itself ${formatDateTime(at)}`);
    await user.click(confirm);
    expect(await outcome()).toHaveTextContent(`Scheduled for ${formatDateTime(at)} (your time).`);
    expect(sends).toEqual([{ body: { sendAt: at.toISOString() }, token: counted.token }]);
  });

  it("shows the server's refusal as it says it", async () => {
    answer = () => json({ statusCode: 400, code: 'send_at_in_past', message: 'The send time is in the past: choose a later time' }, 400);
    const user = setup(draft());
    await user.click(screen.getByRole('button', { name: /^Send Now/ }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send to 12 people' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('The send time is in the past: choose a later time');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows a viewer neither Send Now, Schedule nor Cancel', () => {
    renderAs(
      'viewer',
      <ul>
        <SentAlertCard alert={draft()} now={new Date()} />
      </ul>,
    );
    expect(screen.queryByRole('button', { name: /Send Now|Schedule|Cancel/ })).not.toBeInTheDocument();
  });
});
