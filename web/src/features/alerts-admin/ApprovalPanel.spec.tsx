import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AdminAlert, AlertApproval, AlertAudience } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { formatDateTime } from '@/common/time';
import { ApprovalPanel } from './ApprovalPanel';
import { audienceChanged, audienceOf, NOT_SENT, renderAs, STAFF, tokenOf } from './guard-test-utils';
import { adminAlert, requestOf } from './test-utils';

/** Each decision sent, with its body and Audience-Token header; each count asked for, with its query. */
let posts: { path: string; body: unknown; token: string | null }[];
let counts: { path: string; query: URLSearchParams }[];
let counted: AlertAudience;
let answer: (path: string, token: string | null) => Response;

const AUTHOR = { id: '00000000-0000-4000-8000-0000000000b7', email: 'night.editor@beacon.local' };

const approval = (o: Partial<AlertApproval> = {}): AlertApproval => ({
  reason: 'severity',
  requestedBy: AUTHOR.id,
  requestedByEmail: AUTHOR.email,
  requestedAt: '2026-11-25T10:00:00.000Z',
  decision: null,
  decidedBy: null,
  decidedByEmail: null,
  decidedAt: null,
  note: null,
  ...o,
});

const pending = (o: Partial<AdminAlert> = {}) =>
  adminAlert({
    title: 'Chlorine leak at the water plant',
    status: 'pending_approval',
    ...NOT_SENT,
    createdBy: AUTHOR.id,
    createdByEmail: AUTHOR.email,
    approval: approval(),
    lat: 33.45,
    lng: -112.07,
    radiusKm: 5,
    area: { type: 'circle', lat: 33.45, lng: -112.07, radiusKm: 5 },
    ...o,
  });

const dialog = () => screen.getByRole('dialog');

beforeEach(() => {
  posts = [];
  counts = [];
  counted = audienceOf(12, { channel: 'sms' });
  answer = (path) => json(adminAlert({ status: path.endsWith('/reject') ? 'draft' : 'active' }));
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path, query } = requestOf(input);
    if (req.method === 'GET' && path.endsWith('/audience')) {
      counts.push({ path, query });
      return json(counted);
    }
    if (req.method === 'POST') {
      posts.push({ path, body: await req.json(), token: tokenOf(req) });
      return answer(path, tokenOf(req));
    }
    return json({ code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

describe('Approval (alert detail)', () => {
  it('approving sends: after the note it counts whom the alert reaches and approves only on "Approve and send to N people", with the token', async () => {
    const a = pending();
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    expect(screen.getByText(/^Awaiting approval/).parentElement).toHaveTextContent(
      `sent for approval by ${AUTHOR.email}: its severity is at or above the level the approval policy names`,
    );
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    await user.type(screen.getByLabelText('Note for the record (optional)'), 'Checked with the plant manager.');
    await user.click(screen.getByRole('button', { name: 'Count who it reaches' }));
    const confirm = await within(dialog()).findByRole('button', { name: 'Approve and send to 12 people' });
    expect(posts).toEqual([]);
    expect(counts.map((c) => [c.path, c.query.get('everyone')])).toEqual([[`/api/alerts/${a.id}/audience`, null]]);
    expect(dialog()).toHaveTextContent(`Approve “${a.title}” and send it now?`);
    expect(dialog()).toHaveTextContent('This alert will reach 12 people');
    expect(dialog()).toHaveTextContent('Your note for the record: “Checked with the plant manager.”');

    await user.click(confirm);
    expect(await screen.findByText('Approved: it is going out now to 12 people.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/approve`, body: { note: 'Checked with the plant manager.' }, token: counted.token }]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('asks the approver again with the new number when the audience moved since the count, and nothing is approved meanwhile', async () => {
    const fresh = audienceOf(15, { channel: 'sms' });
    answer = (_path, token) => (token === fresh.token ? json(adminAlert({ status: 'active' })) : json(audienceChanged(fresh), 409));
    const a = pending();
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    await user.click(screen.getByRole('button', { name: 'Count who it reaches' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Approve and send to 12 people' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The audience changed: it is now 15 people (you confirmed 12).');
    expect(screen.queryByText(/^Approved/)).not.toBeInTheDocument();
    await user.click(within(dialog()).getByRole('button', { name: 'Approve and send to 15 people' }));
    expect(await screen.findByText('Approved: it is going out now to 15 people.')).toBeInTheDocument();
    expect(posts.map((p) => p.token)).toEqual([counted.token, fresh.token]);
  });

  it('approving one that goes out later sends nothing yet: a plain confirmation, no count, no token', async () => {
    const sendAt = new Date(Date.now() + 2 * 3_600_000).toISOString();
    answer = () => json(adminAlert({ status: 'scheduled', sendAt }));
    const a = pending({ sendAt });
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    await user.click(screen.getByRole('button', { name: 'Approve' }));
    expect(await screen.findByText(`Approved: it goes out ${formatDateTime(sendAt)}.`)).toBeInTheDocument();
    expect(counts).toEqual([]);
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/approve`, body: {}, token: null }]);
  });

  it('an alert for everyone (no area) is counted as everyone and confirmed once more as everyone, everywhere', async () => {
    const a = pending({ lat: null, lng: null, radiusKm: null, area: null });
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    await user.click(screen.getByRole('button', { name: 'Count who it reaches' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Approve and send to 12 people' }));
    expect(posts).toEqual([]);
    await user.click(within(dialog()).getByRole('button', { name: 'Yes, approve and send to everyone, everywhere: 12 people' }));
    expect(await screen.findByText('Approved: it is going out now to 12 people.')).toBeInTheDocument();
    expect(counts.map((c) => c.query.get('everyone'))).toEqual(['true']);
    expect(posts.map((p) => p.token)).toEqual([counted.token]);
  });

  it('an alert to contact groups without an area is not one for everyone: counted as it is, approved on one confirmation (issue #42)', async () => {
    const a = pending({ lat: null, lng: null, radiusKm: null, area: null, groups: [{ id: 'g1', name: 'Road crews', memberCount: 12, externalCount: 0 }] });
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    await user.click(screen.getByRole('button', { name: 'Count who it reaches' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Approve and send to 12 people' }));
    expect(await screen.findByText('Approved: it is going out now to 12 people.')).toBeInTheDocument();
    expect(counts.map((c) => c.query.get('everyone'))).toEqual([null]);
    expect(posts.map((p) => p.token)).toEqual([counted.token]);
  });

  it('rejects only with a reason long enough to keep', async () => {
    const a = pending();
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    await user.click(screen.getByRole('button', { name: 'Reject…' }));
    const reject = screen.getByRole('button', { name: 'Reject' });
    await user.type(screen.getByLabelText(/^Why it is rejected/), 'Wrong');
    expect(reject).toBeDisabled();
    await user.type(screen.getByLabelText(/^Why it is rejected/), ' plant: it is the east one.');
    await user.click(reject);
    expect(await screen.findByText('Rejected: the alert is a draft again, with your reason.')).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/reject`, body: { reason: 'Wrong plant: it is the east one.' }, token: null }]);
    expect(counts).toEqual([]);
  });

  it('tells the author it waits for another approver, offers no approval of their own alert, and an emergency send on a typed reason', async () => {
    const a = pending({ createdBy: STAFF.approver.id, approval: approval({ requestedBy: STAFF.approver.id, requestedByEmail: STAFF.approver.email }) });
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={a} />);
    expect(screen.getByText('Waiting for approval by another approver: you cannot approve your own alert.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Approve|^Reject/ })).not.toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: 'Send without approval (emergency)…' }));
    expect(screen.getByText(/It goes out now, without the second pair of eyes/)).toBeInTheDocument();
    const send = screen.getByRole('button', { name: 'Count who it reaches' });
    await user.type(screen.getByLabelText(/^Why it cannot wait/), 'Gas');
    expect(send).toBeDisabled();
    await user.type(screen.getByLabelText(/^Why it cannot wait/), ' cloud moving; no approver answers.');
    await user.click(send);
    const confirm = await within(dialog()).findByRole('button', { name: 'Send now without approval to 12 people' });
    expect(posts).toEqual([]);
    expect(dialog()).toHaveTextContent('Your reason, kept on the alert: “Gas cloud moving; no approver answers.”');
    await user.click(confirm);
    expect(await screen.findByText(/^Sent without approval: it is going out now to 12 people/)).toBeInTheDocument();
    expect(posts).toEqual([{ path: `/api/alerts/${a.id}/break-glass`, body: { reason: 'Gas cloud moving; no approver answers.' }, token: counted.token }]);
  });

  it('the emergency send asks again with the new number when the audience moved, keeping the reason', async () => {
    const fresh = audienceOf(9, { channel: 'sms' });
    answer = (_path, token) => (token === fresh.token ? json(adminAlert({ status: 'active' })) : json(audienceChanged(fresh), 409));
    const a = pending();
    const user = userEvent.setup();
    renderAs('publisher', <ApprovalPanel alert={a} />);
    await user.click(screen.getByRole('button', { name: 'Send without approval (emergency)…' }));
    await user.type(screen.getByLabelText(/^Why it cannot wait/), 'Gas cloud moving; no approver answers.');
    await user.click(screen.getByRole('button', { name: 'Count who it reaches' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Send now without approval to 12 people' }));
    expect(await within(dialog()).findByRole('alert')).toHaveTextContent('The audience changed: it is now 9 people (you confirmed 12).');
    await user.click(within(dialog()).getByRole('button', { name: 'Send now without approval to 9 people' }));
    expect(await screen.findByText(/^Sent without approval: it is going out now to 9 people/)).toBeInTheDocument();
    expect(posts.map((p) => [p.body, p.token])).toEqual([
      [{ reason: 'Gas cloud moving; no approver answers.' }, counted.token],
      [{ reason: 'Gas cloud moving; no approver answers.' }, fresh.token],
    ]);
  });

  it('shows a publisher who cannot approve that it waits for an approver, with the emergency send', () => {
    renderAs('publisher', <ApprovalPanel alert={pending()} />);
    expect(screen.getByText('Waiting for approval by an approver.')).toBeInTheDocument();
    expect(screen.queryByRole('button', { name: /^Approve|^Reject/ })).not.toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Send without approval (emergency)…' })).toBeInTheDocument();
  });

  it('shows a viewer where it stands, and no button', () => {
    renderAs('viewer', <ApprovalPanel alert={pending()} />);
    expect(screen.getByText(/^Awaiting approval/)).toBeInTheDocument();
    expect(screen.queryByRole('button')).not.toBeInTheDocument();
  });

  it("shows the server's refusal as it says it", async () => {
    answer = () => json({ statusCode: 403, code: 'approval_by_author', message: 'You wrote this alert: another approver must approve it' }, 403);
    const user = userEvent.setup();
    renderAs('approver', <ApprovalPanel alert={pending()} />);
    await user.click(screen.getByRole('button', { name: 'Approve…' }));
    await user.click(screen.getByRole('button', { name: 'Count who it reaches' }));
    await user.click(await within(dialog()).findByRole('button', { name: 'Approve and send to 12 people' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('You wrote this alert: another approver must approve it');
    expect(screen.queryByRole('dialog')).not.toBeInTheDocument();
  });

  it('shows the decision afterwards: an approval with its note, a rejection with its reason, a break-glass send flagged', () => {
    const decided = { decidedBy: STAFF.approver.id, decidedByEmail: STAFF.approver.email, decidedAt: '2026-11-25T10:05:00.000Z' };
    const first = renderAs(
      'viewer',
      <ApprovalPanel
        alert={pending({ status: 'active', sentAt: '2026-11-25T10:05:00.000Z', approval: approval({ decision: 'approved', note: 'Checked.', ...decided }) })}
      />,
    );
    expect(screen.getByText(new RegExp(`^Approved by ${STAFF.approver.email} .*: “Checked\\.”$`))).toBeInTheDocument();
    first.unmount();

    const second = renderAs(
      'viewer',
      <ApprovalPanel alert={pending({ status: 'draft', approval: approval({ decision: 'rejected', note: 'Wrong plant.', ...decided }) })} />,
    );
    expect(screen.getByText(/^Rejected by shift\.lead@beacon\.local .*: “Wrong plant\.”\. It is a draft again/)).toBeInTheDocument();
    second.unmount();

    renderAs(
      'viewer',
      <ApprovalPanel
        alert={pending({
          status: 'active',
          breakGlass: { by: AUTHOR.id, byEmail: AUTHOR.email, reason: 'Gas cloud moving; no approver answers.', at: '2026-11-25T10:02:00.000Z' },
        })}
      />,
    );
    expect(screen.getByRole('note')).toHaveTextContent(`Sent without approval (emergency) by ${AUTHOR.email}`);
    expect(screen.getByRole('note')).toHaveTextContent('“Gas cloud moving; no approver answers.”');
  });

  it('shows nothing for an alert no approval was asked for', () => {
    const { container } = renderAs('approver', <ApprovalPanel alert={adminAlert()} />);
    expect(container.querySelector('section')).toBeNull();
  });
});
