import { intRule, portRule, Rules } from '@beacon/common';
import { AlertsDeliveryEnv } from './delivery-env';

export class AlertsEnv extends AlertsDeliveryEnv {
  @Rules(...portRule('ALERTS_PORT'))
  ALERTS_PORT: number = 3004;

  /** Radius of the draft alert a verified wrong-way-driver incident creates. */
  @Rules(...intRule('INCIDENT_ALERT_RADIUS_KM', 1, 1000))
  INCIDENT_ALERT_RADIUS_KM: number = 10;
}
