import { IsOptional, Matches } from 'class-validator';
import { intRule, portRule, RateRule, Rules } from '@beacon/common';
import { AlertsDeliveryEnv } from './delivery-env';

export class AlertsEnv extends AlertsDeliveryEnv {
  @Rules(...portRule('ALERTS_PORT'))
  ALERTS_PORT: number = 3004;

  /** Radius of the draft alert a verified wrong-way-driver incident creates. */
  @Rules(...intRule('INCIDENT_ALERT_RADIUS_KM', 1, 1000))
  INCIDENT_ALERT_RADIUS_KM: number = 10;

  /**
   * A Nominatim-compatible search endpoint for the wizard's address search (GET <url>?q=...&format=jsonv2), e.g.
   * https://nominatim.openstreetmap.org/search. Empty (the default): no address search; typed coordinates still work.
   */
  @IsOptional()
  @Matches(/^(https?:\/\/[^\s?#]+)?$/, { message: 'GEOCODER_URL must be an http(s) URL without a query, e.g. https://nominatim.openstreetmap.org/search' })
  GEOCODER_URL = '';

  /** Help requests: someone in danger may press it a few times, a script not hundreds. */
  @RateRule('ALERTS_RATE_HELP_REQUESTS_USER') ALERTS_RATE_HELP_REQUESTS_USER = '10/600';
  @RateRule('ALERTS_RATE_HELP_REQUESTS_IP') ALERTS_RATE_HELP_REQUESTS_IP = '60/600';
  /** Push subscription changes: a browser re-subscribes on every load. */
  @RateRule('ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER') ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER = '60/3600';
  @RateRule('ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP') ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP = '300/3600';
}
