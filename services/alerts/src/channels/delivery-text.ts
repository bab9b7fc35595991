import { allClearMessageIn, lifecycleWords, TEST_MARKER } from '@beacon/contracts';
import type { DeliveryKind } from '../deliveries/deliveries.repository';
import type { SendableAlert } from './send-targets.repository';

/**
 * The alert as a delivery of `kind` carries it, in the words of the language its text is in (alertTextFor chose it),
 * titled so that the person sees why it came again: a reminder is the alert again; an update its current version;
 * someone an update moved out of the area is told just that; the all-clear says the alert ended (with the admin's
 * words in that language, or Beacon's), and is never urgent (no critical push, whatever the alert was).
 */
export function asDelivered(alert: SendableAlert, kind: DeliveryKind): SendableAlert {
  const delivered = carried(alert, kind);
  return alert.source === 'test' ? markedAsTest(delivered) : delivered;
}

/**
 * A test alert (Send Test Alert, the recurring one to the staff test group) with TEST_MARKER before its title and its
 * text (issue #38): the push's title and body, the SMS, the e-mail's subject and body all start with it.
 */
function markedAsTest(alert: SendableAlert): SendableAlert {
  const mark = (text: string) => (text.startsWith(TEST_MARKER) ? text : `${TEST_MARKER}${text}`);
  return { ...alert, title: mark(alert.title), message: mark(alert.message) };
}

function carried(alert: SendableAlert, kind: DeliveryKind): SendableAlert {
  const words = lifecycleWords(alert.language);
  switch (kind) {
    case 'alert':
      return alert;
    case 'reminder':
      return { ...alert, kind, title: `${words.reminder}${alert.title}` };
    case 'update':
      return { ...alert, kind, title: `${words.update}${alert.title}` };
    case 'left_area':
      return { ...alert, kind, title: `${words.update}${alert.title}`, message: words.leftArea };
    case 'all_clear':
      return {
        ...alert,
        kind,
        title: `${words.allClear}${alert.title}`,
        message: allClearMessageIn({ message: alert.all_clear_message, translations: alert.all_clear_translations }, alert.language) ?? words.allClearDefault,
        severity: alert.severity === 'critical' ? 'high' : alert.severity,
      };
  }
}
