import type { ConnectionTestResult } from '@beacon/contracts';
import { ProviderError } from '../providers/provider-error';
import type { TwilioAccount, TwilioAccountInfo } from '../providers/twilio.client';

/** Twilio's account SID: AC and 32 hexadecimal digits. */
export const TWILIO_SID = /^AC[0-9a-f]{32}$/i;
/** A number in E.164 form: a plus, the country code, at most 15 digits in all (as the preferences' phone number). */
export const E164 = /^\+[1-9]\d{6,14}$/;

/** What fetches the account (TwilioClient.fetchAccount: GET /2010-04-01/Accounts/{Sid}.json, basic auth sid:token). */
type FetchAccount = (account: TwilioAccount) => Promise<TwilioAccountInfo>;

/**
 * Test Connection of the Twilio-compatible account: the account fetched with the sid and token (a wrong pair is
 * Twilio's 401, code 20003), and whether it is active. What Twilio or the network answered is the test's outcome, in
 * Twilio's words (its error code and message), never an error of the call.
 */
export async function checkTwilioAccount(fetchAccount: FetchAccount, account: TwilioAccount): Promise<ConnectionTestResult> {
  const result = (ok: boolean, message: string, status: number | null, contacted = true): ConnectionTestResult => ({
    ok,
    provider: 'twilio',
    contacted,
    checked: ['provider_sign_in'],
    status,
    message,
  });
  try {
    const info = await fetchAccount(account);
    const name = info.friendlyName || info.sid;
    return info.status === 'active'
      ? result(true, `Twilio connection successful: account ${name} is active`, 200)
      : result(false, `Twilio accepted the sign-in, but account ${name} is ${info.status || 'not active'}: it cannot send`, 200);
  } catch (e) {
    if (!(e instanceof ProviderError)) throw e;
    if (e.status === 401 || e.status === 403) return result(false, `Twilio refused the Account SID and auth token: ${e.message}`, e.status);
    if (e.status === 404) return result(false, `Twilio knows no account ${account.accountSid}: ${e.message}`, 404);
    if (e.status !== undefined) return result(false, e.message, e.status);
    // no answer: the network failed us (refused, reset, timed out), or TWILIO_API_URL is an address the guard refuses
    const refused = e.message.startsWith('Twilio API URL refused');
    return result(
      false,
      refused ? `Twilio unreachable: ${e.message}` : `Twilio unreachable: ${e.message.replace(/^Twilio call failed: /, '')}`,
      null,
      !refused,
    );
  }
}
