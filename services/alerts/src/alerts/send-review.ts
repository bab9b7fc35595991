import { AlertApproval, APPROVAL_REASON_LIMITS, ApprovalPolicy, ApprovalReason, SCHEDULE_MAX_DAYS, Severity, severityAtLeast } from '@beacon/contracts';
import { badRequest } from '@beacon/common';
import type { Actor } from './audit.repository';

/** Who sends: a person (the form, the API, a draft's Send) or a CAP source's automatic send. */
export type Sender = 'person' | 'automatic';

/**
 * Why an alert's first send waits for a second person under `policy`, or null when it goes out without. A person's send
 * follows the mode (every alert, or those at or above the severity). A CAP source's automatic send follows capAutomatic
 * alone: its own rule already chose what goes out unread, and an operator who wants official warnings through at once
 * (send_extreme_immediate) must not find them held by a severity rule meant for hand-written alerts.
 */
export function approvalReason(
  policy: Pick<ApprovalPolicy, 'mode' | 'minSeverity' | 'capAutomatic'>,
  alert: { severity: Severity },
  sender: Sender,
): ApprovalReason | null {
  if (sender === 'automatic') return policy.capAutomatic ? 'cap' : null;
  if (policy.mode === 'all') return 'all';
  if (policy.mode === 'severity' && severityAtLeast(alert.severity, policy.minSeverity)) return 'severity';
  return null;
}

/** The request for approval, as AdminAlert.approval shows it while it waits. */
export function approvalRequest(reason: ApprovalReason, requester: Actor, at = new Date()): AlertApproval {
  return {
    reason,
    requestedBy: requester.id,
    requestedByEmail: requester.email ?? null,
    requestedAt: at.toISOString(),
    decision: null,
    decidedBy: null,
    decidedByEmail: null,
    decidedAt: null,
    note: null,
  };
}

const DAY_MS = 86_400_000;

/**
 * A request's send time, checked against the server's clock: null when it asked for none (send now). In the past (or
 * now: it could not be honoured), more than SCHEDULE_MAX_DAYS ahead, or not before the alert's own expiry: 400.
 */
export function sendTime(sendAt: string | undefined | null, expiresAt: Date | null, now = new Date()): Date | null {
  if (sendAt === undefined || sendAt === null) return null;
  // SendAtField made sure it is a date and time with its offset
  const at = new Date(sendAt);
  if (at.getTime() <= now.getTime()) throw badRequest('The send time has passed: choose a time in the future, or send it now', 'send_at_in_past');
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_DAYS * DAY_MS)
    throw badRequest(`A send can be scheduled at most ${SCHEDULE_MAX_DAYS} days ahead`, 'send_at_too_far');
  if (expiresAt && at.getTime() >= expiresAt.getTime())
    throw badRequest('The alert would have expired by its send time: send it earlier or let it expire later', 'send_at_after_expiry');
  return at;
}

/**
 * A typed reason (a rejection's, a break-glass send's), trimmed, or null when it is not APPROVAL_REASON_LIMITS long:
 * it is what the record keeps of why, so a few characters ("ok", "urgent") are not one.
 */
export function typedReason(text: string | undefined | null): string | null {
  const reason = (text ?? '').trim();
  return reason.length >= APPROVAL_REASON_LIMITS.min && reason.length <= APPROVAL_REASON_LIMITS.max ? reason : null;
}

/** What a refused reason is told. */
export const REASON_LENGTH = `${APPROVAL_REASON_LIMITS.min} to ${APPROVAL_REASON_LIMITS.max} characters`;
