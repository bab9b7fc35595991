import type { DeliveryChannel } from '@beacon/contracts';
import type { AdminSettings } from './settings.repository';

/**
 * Why a channel cannot deliver with these settings (null: it can), as a bare fact: the audience preview, the
 * operator's retry and fallback, and the senders each say it in their own words around it. Web push needs no
 * account (Beacon signs with its own VAPID keys); whether the mail relay answers is Test Connection's to say.
 */
export function channelProblem(settings: Pick<AdminSettings, 'webhook' | 'email'>, channel: DeliveryChannel): string | null {
  if (channel === 'sms') {
    if (!settings.webhook.enabled) return 'The SMS webhook is turned off in Admin Settings';
    if (!settings.webhook.url) return 'No SMS webhook URL is set in Admin Settings';
  }
  if (channel === 'email' && !settings.email.enabled) return 'E-mail is turned off in Admin Settings';
  return null;
}
