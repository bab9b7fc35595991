import { lifecycleWords } from '@beacon/contracts';
import type { DeliveryKind } from '../deliveries/deliveries.repository';
import type { SendableAlert } from './send-targets.repository';

/**
 * The alert as a delivery of `kind` carries it, in the words of the language its text is in (alertTextFor chose it),
 * titled so that the person sees why it came again: a reminder is the alert again; an update its current version;
 * someone an update moved out of the area is told just that; the all-clear says the alert ended (with the admin's
 * words, or Beacon's), and is never urgent (no critical push, whatever the alert was).
 */
export function asDelivered(alert: SendableAlert, kind: DeliveryKind): SendableAlert {
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
        message: alert.all_clear_message ?? words.allClearDefault,
        severity: alert.severity === 'critical' ? 'high' : alert.severity,
      };
  }
}
