import { useState } from 'react';
import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import type { AlertAuditEntry } from '@beacon/contracts';
import { jsonResponse as json } from '@/test/json-response';
import { AlertAudit, auditText } from './AlertAudit';
import { renderScreen, requestOf } from './test-utils';

const ALERT_ID = '00000000-0000-4000-a000-0000000a0d17';
const ADMIN = { actorId: '00000000-0000-4000-8000-0000000000ad', actorEmail: 'admin@beacon.local' };
const BEACON = { actorId: null, actorEmail: null };
// Local times, so the expected text holds in any time zone.
const at = (h: number, m: number) => new Date(2024, 2, 5, h, m).toISOString();

let trail: AlertAuditEntry[];
let reads: number;

beforeEach(() => {
  trail = [
    { action: 'created', ...ADMIN, details: { source: 'admin', status: 'active' }, at: at(15, 7) },
    { action: 'sent', ...ADMIN, details: {}, at: at(15, 7) },
    { action: 'retried', ...ADMIN, details: { channel: 'sms', deliveries: 3 }, at: at(15, 20) },
    { action: 'fallback', actorId: '00000000-0000-4000-8000-0000000000bb', actorEmail: null, details: { channel: 'email', deliveries: 1 }, at: at(15, 31) },
  ];
  reads = 0;
  global.fetch = jest.fn(async (input: RequestInfo | URL) => {
    const { path } = requestOf(input);
    if (path === `/api/alerts/${ALERT_ID}/audit`) {
      reads += 1;
      return json(trail);
    }
    return json({ error: 'not_found', message: 'Not found' }, 404);
  }) as unknown as typeof fetch;
});

const entries = () =>
  within(screen.getByRole('list', { name: 'Audit trail entries' }))
    .getAllByRole('listitem')
    .map((li) => li.textContent);

describe('Audit trail (alert detail)', () => {
  it('lists who did what and when, in plain words, oldest first', async () => {
    renderScreen(<AlertAudit alertId={ALERT_ID} status="active" />);
    await screen.findByRole('list', { name: 'Audit trail entries' });
    expect(entries()).toEqual([
      'Created by admin@beacon.local · Mar 5, 2024 3:07 PM',
      'Sent by admin@beacon.local · Mar 5, 2024 3:07 PM',
      'Retried SMS for 3 people by admin@beacon.local · Mar 5, 2024 3:20 PM',
      // An actor whose e-mail is unknown is still named.
      'Sent on Email to 1 person nothing had reached, by user 00000000 · Mar 5, 2024 3:31 PM',
    ]);
    expect(screen.getAllByText('Mar 5, 2024 3:07 PM')[0].closest('time')).toHaveAttribute('dateTime', at(15, 7));
  });

  it('words the schedule and the two-person rule with what each decision was given', () => {
    const approver = { actorId: '00000000-0000-4000-8000-0000000000a3', actorEmail: 'shift.lead@beacon.local' };
    expect(auditText({ action: 'scheduled', ...ADMIN, details: { sendAt: at(18, 30) }, at: at(15, 0) })).toBe(
      'Scheduled for Mar 5, 2024 6:30 PM by admin@beacon.local',
    );
    expect(auditText({ action: 'approval_requested', ...ADMIN, details: {}, at: at(15, 0) })).toBe('Sent for approval by admin@beacon.local');
    expect(auditText({ action: 'approved', ...approver, details: { note: 'Checked with the plant.' }, at: at(15, 5) })).toBe(
      'Approved by shift.lead@beacon.local: “Checked with the plant.”',
    );
    expect(auditText({ action: 'approved', ...approver, details: {}, at: at(15, 5) })).toBe('Approved by shift.lead@beacon.local');
    expect(auditText({ action: 'rejected', ...approver, details: { reason: 'Wrong plant: the east one.' }, at: at(15, 5) })).toBe(
      'Rejected by shift.lead@beacon.local: “Wrong plant: the east one.”',
    );
    expect(auditText({ action: 'break_glass', ...ADMIN, details: { reason: 'Gas cloud moving; no approver answers.' }, at: at(15, 5) })).toBe(
      'Sent without approval (emergency) by admin@beacon.local: “Gas cloud moving; no approver answers.”',
    );
  });

  it("names Beacon for what nobody did (the expiry sweep), and words each action's details", () => {
    expect(auditText({ action: 'expired', ...BEACON, details: {}, at: at(18, 0) })).toBe('Expired (Beacon)');
    expect(auditText({ action: 'cancelled', ...ADMIN, details: {}, at: at(18, 0) })).toBe('Cancelled by admin@beacon.local');
    expect(auditText({ action: 'created', ...BEACON, details: { source: 'incident', status: 'draft' }, at: at(18, 0) })).toBe(
      'Created as a draft from a verified incident (Beacon)',
    );
    expect(auditText({ action: 'retried', ...ADMIN, details: { channel: 'push', deliveries: 1 }, at: at(18, 0) })).toBe(
      'Retried Web Push for 1 person by admin@beacon.local',
    );
    expect(auditText({ action: 'fallback', ...ADMIN, details: { channel: 'sms', deliveries: 12 }, at: at(18, 0) })).toBe(
      'Sent on SMS to 12 people nothing had reached, by admin@beacon.local',
    );
    expect(auditText({ action: 'reminded', ...BEACON, details: { people: 3, deliveries: 4 }, at: at(18, 0) })).toBe(
      'Reminded 3 people who had not answered (Beacon)',
    );
    expect(auditText({ action: 'reminded', ...BEACON, details: { people: 0, deliveries: 0 }, at: at(18, 0) })).toBe(
      'No reminder needed: everyone reached had answered (Beacon)',
    );
  });

  it('says when nothing is recorded yet', async () => {
    trail = [];
    renderScreen(<AlertAudit alertId={ALERT_ID} status="active" />);
    expect(await screen.findByText('Nothing recorded yet.')).toBeInTheDocument();
  });

  it('reads the trail again when the alert ends while on screen (the sweep writes an entry)', async () => {
    function Live() {
      const [status, setStatus] = useState<'active' | 'expired'>('active');
      return (
        <>
          <button type="button" onClick={() => setStatus('expired')}>
            Expire
          </button>
          <AlertAudit alertId={ALERT_ID} status={status} />
        </>
      );
    }
    const user = userEvent.setup();
    renderScreen(<Live />);
    await screen.findByRole('list', { name: 'Audit trail entries' });
    expect(reads).toBe(1);
    trail = [...trail, { action: 'expired', ...BEACON, details: {}, at: at(18, 0) }];
    await user.click(screen.getByRole('button', { name: 'Expire' }));
    await waitFor(() => expect(entries().at(-1)).toBe('Expired (Beacon) · Mar 5, 2024 6:00 PM'));
    expect(reads).toBe(2);
  });
});

describe('Audit trail: replies by SMS and keys pressed in a call (issue #39)', () => {
  it('says what each reply asked for, by which channel, and never a number', () => {
    const reply = (channel: string, intent: string) => auditText({ action: 'reply_received', ...BEACON, details: { channel, intent }, at: at(16, 0) });
    expect(reply('sms', 'safe')).toBe("Reply by SMS: I'm Safe");
    expect(reply('voice', 'help')).toBe('Key pressed in the alert call: a request for help');
    expect(reply('sms', 'stop')).toBe('Reply by SMS: STOP: no more SMS to that number');
    expect(reply('sms', 'other')).toBe('Reply by SMS: another word (answered with the choices)');
  });
});
