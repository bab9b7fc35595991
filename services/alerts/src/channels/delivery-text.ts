import { ALL_CLEAR_DEFAULT_MESSAGE, LEFT_AREA_MESSAGE } from '@beacon/contracts';
import type { DeliveryKind } from '../deliveries/deliveries.repository';
import type { SendableAlert } from './send-targets.repository';

/**
 * The alert as a delivery of `kind` carries it, titled so that the person sees why it came again: a reminder is the
 * alert again; an update its current version; someone an update moved out of the area is told just that; the
 * all-clear says the alert ended, and is never urgent (no critical push, whatever the alert was).
 */
export function asDelivered(alert: SendableAlert, kind: DeliveryKind): SendableAlert {
  switch (kind) {
    case 'alert':
      return alert;
    case 'reminder':
      return { ...alert, kind, title: `Reminder: ${alert.title}` };
    case 'update':
      return { ...alert, kind, title: `Update: ${alert.title}` };
    case 'left_area':
      return { ...alert, kind, title: `Update: ${alert.title}`, message: LEFT_AREA_MESSAGE };
    case 'all_clear':
      return {
        ...alert,
        kind,
        title: `All clear: ${alert.title}`,
        message: alert.all_clear_message ?? ALL_CLEAR_DEFAULT_MESSAGE,
        severity: alert.severity === 'critical' ? 'high' : alert.severity,
      };
  }
}
