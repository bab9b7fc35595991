import { deliveredText, markedAsTest } from '@beacon/contracts';
import type { DeliveryKind } from '../deliveries/deliveries.repository';
import type { SendableAlert } from './send-targets.repository';

/**
 * The alert as a delivery of `kind` carries it, in the words of the language its text is in (alertTextFor chose it),
 * titled so that the person sees why it came again: a reminder is the alert again; an update its current version;
 * someone an update moved out of the area is told just that; the all-clear says the alert ended (with the admin's
 * words in that language, or Beacon's), and is never urgent (no critical push, whatever the alert was). The words are
 * composed by deliveredText (@beacon/contracts), which the admin console's previews use too (issue #41).
 */
export function asDelivered(alert: SendableAlert, kind: DeliveryKind): SendableAlert {
  const delivered = carried(alert, kind);
  // A test alert (Send Test Alert, the recurring one to the staff test group): TEST_MARKER on every channel (issue #38).
  return alert.source === 'test' ? markedAsTest(delivered) : delivered;
}

function carried(alert: SendableAlert, kind: DeliveryKind): SendableAlert {
  if (kind === 'alert') return alert;
  return { ...deliveredText(alert, kind, { message: alert.all_clear_message, translations: alert.all_clear_translations }), kind };
}
