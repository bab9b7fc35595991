import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import toast, { Toaster } from 'react-hot-toast';
import type { TestGroup, TestGroupMembership, TestSchedule } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { renderSignedIn } from '@/test/render-screen';
import { describeTestSchedule, inZone, TestAlertSection } from './TestAlertSection';
import { renderScreen, requestOf } from './test-utils';

const ADMIN_ID = '00000000-0000-4000-8000-0000000000ad';
const VIEWER = { id: '00000000-0000-4000-8000-0000000000b1', email: 'watch@beacon.local', role: 'viewer' } as const;

const OFF: TestSchedule = {
  frequency: 'off',
  weekday: 3,
  time: '10:00',
  timeZone: 'UTC',
  channels: [],
  nextRunAt: null,
  lastRun: null,
  updatedAt: null,
  updatedBy: null,
};

let SETTINGS: Record<string, unknown>;
const BASE_SETTINGS = {
  push: { enabled: true, username: '', apiKeySet: false, apiKeyMasked: '' },
  webhook: { enabled: true, url: 'https://hooks.example.org/sms' },
  email: { enabled: false, url: '', from: 'alerts@beacon.local' },
  updatedAt: null,
  environment: [],
};

let schedule: TestSchedule;
let group: TestGroup;
let me: TestGroupMembership;
let puts: unknown[];
let deletes: string[];
/** The next schedule PUT's refusal, if any. */
let refusal: { status: number; body: unknown } | null;

beforeEach(() => {
  SETTINGS = BASE_SETTINGS;
  schedule = { ...OFF };
  me = { member: false, joinedAt: null };
  group = {
    members: [
      { userId: '00000000-0000-4000-8000-0000000000c1', email: 'duty.officer@beacon.local', joinedAt: '2026-11-20T09:00:00.000Z', reachableBy: ['sms'] },
    ],
  };
  puts = [];
  deletes = [];
  refusal = null;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { req, path } = requestOf(input);
    if (path === '/api/alerts/admin/settings') return json(SETTINGS);
    if (path === '/api/alerts/admin/settings/test-schedule') {
      if (req.method === 'PUT') {
        const body = await req.json();
        puts.push(body);
        if (refusal) return json(refusal.body, refusal.status);
        schedule = {
          ...schedule,
          ...body,
          nextRunAt: body.frequency === 'off' ? null : '2026-12-02T15:00:00.000Z',
          updatedAt: '2026-11-25T10:00:00.000Z',
          updatedBy: 'chief.ops@beacon.local',
        };
      }
      return json(schedule);
    }
    if (path === '/api/alerts/admin/test-group/me') {
      if (req.method === 'PUT') {
        const { member } = await req.json();
        me = { member, joinedAt: member ? '2026-11-25T10:00:00.000Z' : null };
        group = {
          members: member
            ? [...group.members, { userId: ADMIN_ID, email: 'chief.ops@beacon.local', joinedAt: me.joinedAt!, reachableBy: ['push'] }]
            : group.members.filter((m) => m.userId !== ADMIN_ID),
        };
      }
      return json(me);
    }
    if (path === '/api/alerts/admin/test-group') return json(group);
    const removed = /^\/api\/alerts\/admin\/test-group\/(.+)$/.exec(path);
    if (removed && req.method === 'DELETE') {
      deletes.push(removed[1]);
      group = { members: group.members.filter((m) => m.userId !== removed[1]) };
      return json(group);
    }
    return json({ statusCode: 404, code: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

afterEach(() => act(() => toast.remove()));

const section = (
  <>
    <TestAlertSection />
    <Toaster />
  </>
);

describe('Recurring test alert (Admin Settings)', () => {
  it('is off until an admin turns it on, and lists who is in the staff test group', async () => {
    renderScreen(section);
    expect(await screen.findByLabelText('How often')).toHaveValue('off');
    expect(screen.getByText('No recurring test alert is sent.')).toBeInTheDocument();
    expect(screen.getByText('No run is scheduled.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save test schedule' })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: 'Receive the recurring test alert' })).not.toBeChecked();
    const list = await screen.findByRole('list', { name: 'Staff test group' });
    expect(within(list).getByText('duty.officer@beacon.local')).toBeInTheDocument();
    expect(within(list).getByText(/^Reached by SMS/)).toBeInTheDocument();
  });

  it('saves a weekly schedule in a time zone on the channels turned on, and shows the next run there', async () => {
    const user = userEvent.setup();
    renderScreen(section);
    await user.selectOptions(await screen.findByLabelText('How often'), 'weekly');
    await user.selectOptions(screen.getByLabelText('Day of the week'), 'Wednesday');
    const zone = screen.getByLabelText('Time zone');
    await user.clear(zone);
    await user.type(zone, 'America/New_York');
    // e-mail is turned off in the channel settings: it cannot be chosen
    expect(await screen.findByRole('checkbox', { name: /Email/ })).toBeDisabled();
    await user.click(screen.getByRole('checkbox', { name: 'Web Push' }));
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    expect(screen.getByText('Every Wednesday at 10:00 (America/New_York), by Web Push, SMS, to the staff test group.')).toBeInTheDocument();
    expect(screen.getByText('Save to compute the next run.')).toBeInTheDocument();
    await user.click(screen.getByRole('button', { name: 'Save test schedule' }));

    expect(puts).toEqual([{ frequency: 'weekly', weekday: 3, time: '10:00', timeZone: 'America/New_York', channels: ['push', 'sms'] }]);
    const form = screen.getByRole('form', { name: 'Test alert schedule' });
    expect(await within(form).findByRole('status')).toHaveTextContent('Saved. Next run: Wednesday, Dec 2, 2026, 10:00 AM EST.');
    expect(screen.getByText('Next run: Wednesday, Dec 2, 2026, 10:00 AM EST.')).toBeInTheDocument();
    expect(screen.getByRole('button', { name: 'Save test schedule' })).toBeDisabled();
  });

  it('offers voice calls when they are on, and SMS through Twilio whatever the webhook switch says (issue #39)', async () => {
    const user = userEvent.setup();
    SETTINGS = { ...BASE_SETTINGS, webhook: { enabled: false, url: '' }, sms: { provider: 'twilio' }, voice: { enabled: false } };
    renderScreen(section);
    await user.selectOptions(await screen.findByLabelText('How often'), 'daily');
    expect(await screen.findByRole('checkbox', { name: /Voice call/ })).toBeDisabled();
    expect(screen.getByRole('checkbox', { name: /Voice call/ }).closest('label')).toHaveTextContent('(turned off in the channel settings)');
    expect(screen.getByRole('checkbox', { name: 'SMS' })).toBeEnabled();
  });

  it('lets voice calls be tested when they are on', async () => {
    const user = userEvent.setup();
    SETTINGS = { ...BASE_SETTINGS, voice: { enabled: true } };
    renderScreen(section);
    await user.selectOptions(await screen.findByLabelText('How often'), 'daily');
    await user.click(await screen.findByRole('checkbox', { name: 'Voice call' }));
    expect(screen.getByText(/by Voice call, to the staff test group\.$/)).toBeInTheDocument();
  });

  it("shows the server's refusal and keeps what was chosen", async () => {
    const user = userEvent.setup();
    refusal = { status: 400, body: { statusCode: 400, code: 'invalid_time_zone', message: 'Time zone must be an IANA time zone, e.g. America/New_York' } };
    renderScreen(section);
    await user.selectOptions(await screen.findByLabelText('How often'), 'daily');
    const zone = screen.getByLabelText('Time zone');
    await user.clear(zone);
    await user.type(zone, 'Mars/Olympus');
    await user.click(screen.getByRole('checkbox', { name: 'SMS' }));
    await user.click(screen.getByRole('button', { name: 'Save test schedule' }));
    expect(await within(screen.getByRole('form', { name: 'Test alert schedule' })).findByRole('alert')).toHaveTextContent(
      'Time zone must be an IANA time zone, e.g. America/New_York',
    );
    expect(screen.getByLabelText('Time zone')).toHaveValue('Mars/Olympus');
  });

  it('lets a staff member opt in themselves, and the list shows them', async () => {
    const user = userEvent.setup();
    renderScreen(section);
    await user.click(await screen.findByRole('checkbox', { name: 'Receive the recurring test alert' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Receive the recurring test alert' })).toBeChecked());
    const list = screen.getByRole('list', { name: 'Staff test group' });
    expect(await within(list).findByText('chief.ops@beacon.local')).toBeInTheDocument();
  });

  it('lets an admin take someone out of the group', async () => {
    const user = userEvent.setup();
    renderScreen(section);
    await user.click(await screen.findByRole('button', { name: 'Remove duty.officer@beacon.local' }));
    expect(deletes).toEqual(['00000000-0000-4000-8000-0000000000c1']);
    expect(await screen.findByText(/^Nobody yet/)).toBeInTheDocument();
  });

  it('shows a viewer only their own choice, not the schedule or the list', async () => {
    const user = userEvent.setup();
    renderSignedIn(section, { user: VIEWER });
    await user.click(await screen.findByRole('checkbox', { name: 'Receive the recurring test alert' }));
    await waitFor(() => expect(screen.getByRole('checkbox', { name: 'Receive the recurring test alert' })).toBeChecked());
    expect(screen.queryByLabelText('How often')).not.toBeInTheDocument();
    expect(screen.queryByRole('list', { name: 'Staff test group' })).not.toBeInTheDocument();
    const asked = (global.fetch as jest.Mock).mock.calls.map(([input]) => requestOf(input).path);
    expect(asked.every((p) => p === '/api/alerts/admin/test-group/me')).toBe(true);
  });

  it('describes the schedule and its next run in the time zone chosen', () => {
    expect(describeTestSchedule({ frequency: 'daily', weekday: 0, time: '08:30', timeZone: 'Europe/Paris', channels: ['email'] })).toBe(
      'Every day at 08:30 (Europe/Paris), by Email, to the staff test group.',
    );
    // 2026-03-08 is the spring change in New York: 09:00 local is 13:00 UTC
    expect(inZone('2026-03-08T13:00:00.000Z', 'America/New_York')).toBe('Sunday, Mar 8, 2026, 9:00 AM EDT');
  });
});
