import { DynamicModule, Module } from '@nestjs/common';
import { IsOptional, Matches } from 'class-validator';
import { BaseEnv, csv, intRule, Rules } from '@beacon/common';
import { VOICE_REDIAL_SECONDS } from '@beacon/contracts';

/**
 * The push services browsers subscribe with: Chrome, Edge and other Chromium browsers (Firebase Cloud Messaging),
 * Firefox (Mozilla autopush), Safari (Apple) and legacy Edge (Windows Push Notification Services).
 */
export const BROWSER_PUSH_HOSTS = 'fcm.googleapis.com,android.googleapis.com,.push.services.mozilla.com,.push.apple.com,.notify.windows.com';

/** Variables the alerts service and its dispatcher share (both talk to providers and sign with the same keys). */
export class AlertsDeliveryEnv extends BaseEnv {
  /**
   * Hosts that outgoing provider calls (SMS webhook, push endpoints, push provider) may reach although they
   * resolve to private or loopback addresses: comma-separated host or host:port, '*' for any. Empty in production.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.:*,\s[\]-]*$/, { message: 'WEBHOOK_ALLOW_HOSTS must be a comma-separated list of hosts, e.g. 127.0.0.1,localhost:9000' })
  WEBHOOK_ALLOW_HOSTS = '';

  /** The SMS webhook used until an admin saves one in the settings screen. */
  @IsOptional()
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'SMS_WEBHOOK_URL must be an http(s) URL' })
  SMS_WEBHOOK_URL = '';

  /** The SMTP relay the e-mail channel sends through (nodemailer URL form), until an admin saves one in the settings screen. */
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL, e.g. smtp://127.0.0.1:1025' })
  SMTP_URL = 'smtp://127.0.0.1:1025';

  /**
   * Test Connection's deadline for the mail relay, from resolving its name to the sign-in: a relay that answers
   * slowly at every step would otherwise hold the request for each step's own time-out in turn.
   */
  @Rules(...intRule('MAIL_RELAY_TEST_TIMEOUT_SECONDS', 1, 120))
  MAIL_RELAY_TEST_TIMEOUT_SECONDS: number = 15;

  /** The e-mails' sender, until an admin saves one. */
  @Matches(/^.+$/, { message: 'MAIL_FROM must be an address, e.g. Beacon Alerts <alerts@beacon.local>' })
  MAIL_FROM = 'Beacon Alerts <alerts@beacon.local>';

  /** Contact for push services, sent as the VAPID `sub` claim (RFC 8292). */
  @Matches(/^(mailto:\S+@\S+|https:\/\/\S+)$/, { message: 'VAPID_SUBJECT must be a mailto: address or an https: URL' })
  VAPID_SUBJECT = 'mailto:alerts@beacon.local';

  /** Defaults for the admin settings' push provider section until an admin saves them. */
  @IsOptional()
  PUSH_PROVIDER_USERNAME = '';

  @IsOptional()
  PUSH_PROVIDER_API_KEY = '';

  /** Optional external push provider whose `GET {url}/account` Test Connection checks with basic auth. */
  @IsOptional()
  @Matches(/^(https?:\/\/\S+)?$/, { message: 'PUSH_PROVIDER_URL must be an http(s) URL' })
  PUSH_PROVIDER_URL = '';

  /**
   * Hosts push endpoints may be on: a name, or `.suffix` for any host under it (on a dot boundary); `*` for any.
   * Hosts allow-listed in WEBHOOK_ALLOW_HOSTS (a local push service) are accepted too.
   */
  @Matches(/^[A-Za-z0-9.*,\s-]*$/, { message: 'PUSH_ENDPOINT_HOSTS must be a comma-separated list of hosts or .suffixes' })
  PUSH_ENDPOINT_HOSTS = BROWSER_PUSH_HOSTS;

  /**
   * The Twilio-compatible REST API the SMS and voice channels call (issue #39). Set by the operator only, never on the
   * settings screen: a tenant-typed base URL would be a request-forgery path. Tests point it at the loopback fake.
   */
  @Matches(/^https?:\/\/\S+$/, { message: 'TWILIO_API_URL must be an http(s) URL, e.g. https://api.twilio.com' })
  TWILIO_API_URL = 'https://api.twilio.com';

  /** Seconds before a voice call that was not answered (or was busy) is dialled again (issue #39). */
  @Rules(...intRule('VOICE_REDIAL_SECONDS', 1, 3600))
  VOICE_REDIAL_SECONDS: number = VOICE_REDIAL_SECONDS;

  /** Push subscriptions one user may have; registering one more replaces the one registered longest ago. */
  @Rules(...intRule('PUSH_SUBSCRIPTIONS_PER_USER', 1, 100))
  PUSH_SUBSCRIPTIONS_PER_USER = 10;

  get pushEndpointHosts(): string[] {
    return csv(this.PUSH_ENDPOINT_HOSTS).map((h) => h.toLowerCase());
  }

  get webhookAllowHosts(): string[] {
    return csv(this.WEBHOOK_ALLOW_HOSTS);
  }
}

@Module({})
class DeliveryEnvModule {}

/**
 * Lets the shared providers (AlertsDomainModule) ask for the delivery variables whichever service's env class supplies
 * them: `env` is the service's own (AlertsEnv, DispatcherEnv), offered globally under AlertsDeliveryEnv.
 */
export const deliveryEnvModule = (env: AlertsDeliveryEnv): DynamicModule => ({
  module: DeliveryEnvModule,
  global: true,
  providers: [{ provide: AlertsDeliveryEnv, useValue: env }],
  exports: [AlertsDeliveryEnv],
});
