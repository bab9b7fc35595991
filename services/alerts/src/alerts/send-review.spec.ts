import { AppError } from '@beacon/common';
import { APPROVAL_REASON_LIMITS, ApprovalPolicy, DEFAULT_APPROVAL_POLICY, SCHEDULE_MAX_DAYS, SEVERITIES, Severity } from '@beacon/contracts';
import { approvalReason, approvalRequest, sendTime, typedReason } from './send-review';

const policy = (p: Partial<ApprovalPolicy>): ApprovalPolicy => ({ ...DEFAULT_APPROVAL_POLICY, ...p });
const codeOf = (f: () => unknown) => {
  try {
    f();
  } catch (e) {
    return e instanceof AppError ? `${e.getStatus()} ${e.code}` : String(e);
  }
  return 'no error';
};

describe('approvalReason: when a first send waits for a second person', () => {
  it('never, under the default policy: a fresh install sends as it always did', () => {
    for (const severity of SEVERITIES) {
      expect(approvalReason(DEFAULT_APPROVAL_POLICY, { severity }, 'person')).toBeNull();
      expect(approvalReason(DEFAULT_APPROVAL_POLICY, { severity }, 'automatic')).toBeNull();
    }
  });

  it('for every alert a person sends under "all"', () => {
    for (const severity of SEVERITIES) expect(approvalReason(policy({ mode: 'all' }), { severity }, 'person')).toBe('all');
  });

  it('for the alerts at or above the severity under "severity", and for none below it', () => {
    const p = policy({ mode: 'severity', minSeverity: 'high' });
    const waits = (severity: Severity) => approvalReason(p, { severity }, 'person');
    expect([waits('low'), waits('medium'), waits('high'), waits('critical')]).toEqual([null, null, 'severity', 'severity']);
    expect(approvalReason(policy({ mode: 'severity', minSeverity: 'low' }), { severity: 'low' }, 'person')).toBe('severity');
  });

  it("for a CAP source's automatic send by capAutomatic alone, whatever the mode", () => {
    expect(approvalReason(policy({ capAutomatic: true }), { severity: 'low' }, 'automatic')).toBe('cap');
    expect(approvalReason(policy({ mode: 'all', capAutomatic: true }), { severity: 'critical' }, 'automatic')).toBe('cap');
    expect(approvalReason(policy({ mode: 'all', capAutomatic: false }), { severity: 'critical' }, 'automatic')).toBeNull();
    expect(approvalReason(policy({ mode: 'severity', minSeverity: 'low', capAutomatic: false }), { severity: 'critical' }, 'automatic')).toBeNull();
    // capAutomatic does not hold a person's send
    expect(approvalReason(policy({ capAutomatic: true }), { severity: 'critical' }, 'person')).toBeNull();
  });

  it('records who asked and when, undecided', () => {
    const at = new Date('2030-01-02T03:04:05.000Z');
    expect(approvalRequest('all', { id: 'u1', email: 'a@example.test' }, at)).toEqual({
      reason: 'all',
      requestedBy: 'u1',
      requestedByEmail: 'a@example.test',
      requestedAt: at.toISOString(),
      decision: null,
      decidedBy: null,
      decidedByEmail: null,
      decidedAt: null,
      note: null,
    });
  });
});

describe('sendTime: a send time checked against the clock', () => {
  const now = new Date('2030-06-01T12:00:00.000Z');
  const later = (ms: number) => new Date(now.getTime() + ms).toISOString();

  it('is none when none was asked', () => {
    expect(sendTime(undefined, null, now)).toBeNull();
  });

  it('is the time asked when it is ahead, within the limit and before the expiry', () => {
    expect(sendTime(later(60_000), null, now)).toEqual(new Date(later(60_000)));
    expect(sendTime(later(SCHEDULE_MAX_DAYS * 86_400_000), null, now)).toEqual(new Date(later(SCHEDULE_MAX_DAYS * 86_400_000)));
    expect(sendTime(later(60_000), new Date(later(120_000)), now)).toEqual(new Date(later(60_000)));
  });

  it('refuses a time that passed, now itself, one too far ahead and one at or after the expiry', () => {
    expect(codeOf(() => sendTime(later(-1), null, now))).toBe('400 send_at_in_past');
    expect(codeOf(() => sendTime(later(0), null, now))).toBe('400 send_at_in_past');
    expect(codeOf(() => sendTime(later(SCHEDULE_MAX_DAYS * 86_400_000 + 1000), null, now))).toBe('400 send_at_too_far');
    expect(codeOf(() => sendTime(later(60_000), new Date(later(60_000)), now))).toBe('400 send_at_after_expiry');
  });
});

describe('typedReason', () => {
  it('keeps a reason of the allowed length, trimmed, and has none for a short, blank, missing or overlong one', () => {
    expect(typedReason('  The river gauge is wrong  ')).toBe('The river gauge is wrong');
    expect(typedReason('x'.repeat(APPROVAL_REASON_LIMITS.min))).toBe('x'.repeat(APPROVAL_REASON_LIMITS.min));
    for (const text of ['ok', ' '.repeat(20), undefined, null, 'x'.repeat(APPROVAL_REASON_LIMITS.max + 1)]) expect(typedReason(text)).toBeNull();
  });
});
