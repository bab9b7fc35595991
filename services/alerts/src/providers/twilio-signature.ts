import { createHmac, timingSafeEqual } from 'node:crypto';

/** A form body as Twilio posted it: a name may repeat (then its values in the order posted). */
export type TwilioParams = Record<string, string | readonly string[]>;

/**
 * Twilio's request signature (X-Twilio-Signature): base64 of HMAC-SHA1, keyed with the account's auth token, of the
 * full URL Twilio was given (scheme, host, path and query) followed by every POST parameter's name and value, the
 * names in sorted order (a repeated name: each of its values after it, sorted). A GET's parameters are in the URL.
 * https://www.twilio.com/docs/usage/security#validating-requests
 */
export function twilioSignature(url: string, params: TwilioParams, authToken: string): string {
  let data = url;
  for (const name of Object.keys(params).sort()) {
    const value = params[name];
    for (const v of typeof value === 'string' ? [value] : [...value].sort()) data += name + v;
  }
  return createHmac('sha1', authToken).update(Buffer.from(data, 'utf8')).digest('base64');
}

/**
 * Whether `signature` is Twilio's for this request. Compared in constant time. Twilio signs the URL as it was
 * configured, and some of its clients add or drop the scheme's default port, so both spellings are accepted (as its
 * own helper libraries do). No token (nothing configured) or no signature: never valid.
 */
export function validTwilioSignature(url: string, params: TwilioParams, authToken: string, signature: string | undefined): boolean {
  if (!authToken || !signature) return false;
  const given = Buffer.from(signature, 'utf8');
  let valid = false;
  // every spelling is checked, so the time taken says nothing of which one matched
  for (const candidate of urlSpellings(url)) {
    const expected = Buffer.from(twilioSignature(candidate, params, authToken), 'utf8');
    if (expected.length === given.length && timingSafeEqual(expected, given)) valid = true;
  }
  return valid;
}

/** The URL as given, with the scheme's default port written out, and without it. */
function urlSpellings(url: string): string[] {
  const parts = /^(https?:\/\/)([^/?#@]*@)?(\[[^\]]*\]|[^/?#:]*)(?::(\d+))?(.*)$/i.exec(url);
  if (!parts) return [url];
  const [, scheme, userinfo = '', host, port, rest] = parts;
  const defaultPort = scheme.toLowerCase() === 'https://' ? '443' : '80';
  if (port !== undefined && port !== defaultPort) return [url];
  return [...new Set([url, `${scheme}${userinfo}${host}:${defaultPort}${rest}`, `${scheme}${userinfo}${host}${rest}`])];
}
