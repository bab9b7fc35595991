import { AppError, assertPublicUrl } from '@beacon/common';
import type { DeliveryChannel } from '@beacon/contracts';
import { guardedSmtpOptions } from '../providers/smtp-relay';
import type { AdminSettings } from './settings.repository';

/** The parts of the settings whose addresses the senders check. */
type AddressSettings = { webhook: Pick<AdminSettings['webhook'], 'enabled' | 'url'>; email: Pick<AdminSettings['email'], 'enabled' | 'url'> };

/** Why the address rule refuses each channel's target as the settings stand (null: accepted, or nothing to check). */
export interface AddressRefusals {
  sms: string | null;
  email: string | null;
}

/**
 * Why a channel cannot deliver with these settings (null: it can), as a bare fact: the audience preview, the
 * operator's retry and fallback, and the senders each say it in their own words around it. Web push needs no
 * account (Beacon signs with its own VAPID keys); whether the mail relay answers is Test Connection's to say, but
 * whether its address (or the SMS webhook's) is one the sender would refuse is said here, from `refused`.
 */
export function channelProblem(
  settings: AddressSettings & Partial<Pick<AdminSettings, 'sms' | 'twilio' | 'voice'>> & { refused?: Partial<AddressRefusals> },
  channel: DeliveryChannel,
): string | null {
  if (channel === 'voice') {
    if (settings.voice && !settings.voice.enabled) return 'Voice calls are turned off in Admin Settings';
    return twilioProblem(settings.twilio, 'voice calls');
  }
  if (channel === 'sms' && settings.sms?.provider === 'twilio') return twilioProblem(settings.twilio, 'SMS');
  if (channel === 'sms') {
    if (!settings.webhook.enabled) return 'The SMS webhook is turned off in Admin Settings';
    if (!settings.webhook.url) return 'No SMS webhook URL is set in Admin Settings';
    if (settings.refused?.sms) return settings.refused.sms;
  }
  if (channel === 'email') {
    if (!settings.email.enabled) return 'E-mail is turned off in Admin Settings';
    if (settings.refused?.email) return settings.refused.email;
  }
  return null;
}

/** Why the Twilio-compatible account cannot send `what` (null: it is set up); its API URL is the operator's (TWILIO_API_URL). */
function twilioProblem(twilio: AdminSettings['twilio'] | undefined, what: string): string | null {
  if (!twilio?.accountSid || !twilio.authToken) return `No Twilio account is set in Admin Settings for ${what}`;
  if (!twilio.from) return `No Twilio number to send ${what} from is set in Admin Settings`;
  return null;
}

/**
 * The address rule applied to the SMS webhook and the mail relay of `settings`, by the very checks the senders make
 * before connecting (assertPublicUrl in postWebhook's guardedRequest, guardedSmtpOptions in the e-mail sender), so
 * a target the sender would refuse reads "not configured" in the preview instead of failing every delivery later.
 * A channel turned off or without a URL is not checked: channelProblem already says why.
 */
export async function addressRefusals(settings: AddressSettings, allowHosts: string[]): Promise<AddressRefusals> {
  const [sms, email] = await Promise.all([
    settings.webhook.enabled && settings.webhook.url ? webhookRefusal(settings.webhook.url, allowHosts) : null,
    settings.email.enabled ? relayRefusal(settings.email.url, allowHosts) : null,
  ]);
  return { sms, email };
}

// Each check in a try of its own, never rethrowing: whatever stops the check stops the sender too, so it is the
// reason the channel cannot send, never an error of the settings read or the preview.
async function webhookRefusal(url: string, allowHosts: string[]): Promise<string | null> {
  try {
    await assertPublicUrl(url, allowHosts);
    return null;
  } catch (e) {
    return refusalText('The SMS webhook URL in Admin Settings', e);
  }
}

async function relayRefusal(url: string, allowHosts: string[]): Promise<string | null> {
  try {
    await guardedSmtpOptions(url, 1, allowHosts);
    return null;
  } catch (e) {
    return refusalText('The mail relay in Admin Settings', e);
  }
}

function refusalText(target: string, e: unknown): string {
  const message = e instanceof Error && e.message ? e.message : 'its address could not be checked';
  const why = message.charAt(0).toLowerCase() + message.slice(1);
  return e instanceof AppError && e.code === 'private_address' ? `${target} is a refused address (${why})` : `${target} is refused (${why})`;
}
