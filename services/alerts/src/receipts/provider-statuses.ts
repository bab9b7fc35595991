import type { DeliveryReceipt } from '@beacon/contracts';

/** What a provider's status says of a delivery, when it says anything final. */
export interface StatusReceipt {
  receipt: DeliveryReceipt;
  reason: string | null;
}

/**
 * Twilio's message error codes an operator most often meets, in words
 * (https://www.twilio.com/docs/api/errors); others are shown by their number.
 */
const TWILIO_ERRORS: Record<string, string> = {
  '21211': 'invalid phone number',
  '21408': 'sending to this region is not enabled',
  '21610': 'the number has unsubscribed from this sender',
  '21612': 'this sender cannot send to the number',
  '21614': 'not a mobile number',
  '30003': 'the handset is unreachable',
  '30004': 'the message was blocked',
  '30005': 'unknown number',
  '30006': 'a landline or an unreachable carrier',
  '30007': 'filtered by the carrier',
  '30008': 'unknown error',
  '30034': 'the sender is not registered (10DLC)',
};

const twilioReason = (fallback: string, errorCode: string | undefined) => {
  const code = errorCode?.trim();
  if (!code || !/^\d{1,6}$/.test(code)) return fallback;
  return `${TWILIO_ERRORS[code] ?? fallback} (Twilio error ${code})`;
};

/**
 * A Twilio message status callback's MessageStatus: delivered, undelivered or failed (with ErrorCode's reason). The
 * statuses on the way (queued, accepted, sending, sent, scheduled…) say nothing final and are ignored.
 */
export function twilioMessageReceipt(status: string | undefined, errorCode?: string): StatusReceipt | null {
  switch (status) {
    case 'delivered':
      return { receipt: 'delivered', reason: null };
    case 'undelivered':
      return { receipt: 'undelivered', reason: twilioReason('not delivered by the carrier', errorCode) };
    case 'failed':
      return { receipt: 'failed', reason: twilioReason('the provider could not send it', errorCode) };
    default:
      return null;
  }
}

/**
 * A Twilio call status callback's CallStatus: completed is answered (a machine that answered too: the alert was
 * spoken); no-answer and busy are dialled again while attempts remain (DeliveriesRepository.applyReceipts); failed
 * and canceled fail it. The statuses on the way (queued, initiated, ringing, in-progress) are ignored.
 */
export function twilioCallReceipt(status: string | undefined, errorCode?: string): StatusReceipt | null {
  switch (status) {
    case 'completed':
      return { receipt: 'answered', reason: null };
    case 'no-answer':
      return { receipt: 'no_answer', reason: 'no answer' };
    case 'busy':
      return { receipt: 'busy', reason: 'busy' };
    case 'failed':
      return { receipt: 'failed', reason: twilioReason('the call could not be placed', errorCode) };
    case 'canceled':
      return { receipt: 'failed', reason: 'the call was canceled' };
    default:
      return null;
  }
}

/** The generic webhook's receipt statuses (its documented `status`), as receipts. */
export const WEBHOOK_RECEIPT_STATUSES = ['delivered', 'undelivered', 'failed'] as const;
export type WebhookReceiptStatus = (typeof WEBHOOK_RECEIPT_STATUSES)[number];

export function webhookReceipt(status: WebhookReceiptStatus, reason: string | undefined): StatusReceipt {
  const why = reason?.trim() || null;
  if (status === 'delivered') return { receipt: 'delivered', reason: null };
  return { receipt: status, reason: why ?? (status === 'undelivered' ? 'not delivered by the carrier' : 'the provider could not send it') };
}
