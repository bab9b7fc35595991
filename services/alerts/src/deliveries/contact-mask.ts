import type { DeliveryChannel } from '@beacon/contracts';

/**
 * How a delivery's recipient is named on the console's delivery list and in the per-recipient report (issue #38):
 * enough to tell people apart and to recognise a number or address one already knows, never enough to copy it.
 */

const BULLETS = '•••••';

/** "+14805554567" -> "+1•••••4567": the first two characters (the plus and the country's first digit) and the last four. */
export function maskPhone(phone: string): string {
  const p = phone.replace(/[\s().-]/g, '');
  if (p.length <= 6) return `${BULLETS}${p.slice(-2)}`;
  return `${p.slice(0, 2)}${BULLETS}${p.slice(-4)}`;
}

/** "jane.doe@example.com" -> "j•••@example.com": the first character of the name and the whole domain. */
export function maskEmail(email: string): string {
  const at = email.lastIndexOf('@');
  if (at <= 0) return `${email.slice(0, 1)}•••`;
  return `${email.slice(0, 1)}•••${email.slice(at)}`;
}

// Order matters: Edge and Opera say Chrome too, Chrome says Safari, iPhones say "like Mac OS X".
const BROWSERS: [RegExp, string][] = [
  [/EdgA?\//, 'Edge'],
  [/OPR\/|Opera/, 'Opera'],
  [/SamsungBrowser\//, 'Samsung Internet'],
  [/Firefox\/|FxiOS\//, 'Firefox'],
  [/Chrome\/|CriOS\//, 'Chrome'],
  [/Safari\//, 'Safari'],
];
const SYSTEMS: [RegExp, string][] = [
  [/Android/, 'Android'],
  [/iPhone|iPod/, 'iPhone'],
  [/iPad/, 'iPad'],
  [/CrOS/, 'ChromeOS'],
  [/Windows/, 'Windows'],
  [/Mac OS X|Macintosh/, 'macOS'],
  [/Linux/, 'Linux'],
];

/** A browser as a person names it, from its User-Agent: "Chrome on Android"; "Browser" when it says nothing known. */
export function browserLabel(userAgent: string | null | undefined): string {
  const ua = userAgent ?? '';
  const browser = BROWSERS.find(([re]) => re.test(ua))?.[1];
  const system = SYSTEMS.find(([re]) => re.test(ua))?.[1];
  if (browser && system) return `${browser} on ${system}`;
  return browser ?? (system ? `Browser on ${system}` : 'Browser');
}

/** What the recipient has on file now, as the delivery queries read it. `browsers`: their push subscriptions' User-Agents, the one that took it first. */
export interface RecipientContact {
  phone_number: string | null;
  email: string | null;
  browsers: (string | null)[] | null;
}

/** The contact a delivery on `channel` went to, masked; null when none is on file now. */
export function maskedContact(channel: DeliveryChannel, c: RecipientContact): string | null {
  // a call goes to the number SMS uses
  if (channel === 'sms' || channel === 'voice') return c.phone_number ? maskPhone(c.phone_number) : null;
  if (channel === 'email') return c.email ? maskEmail(c.email) : null;
  const browsers = c.browsers ?? [];
  if (!browsers.length) return null;
  return browsers.length === 1 ? browserLabel(browsers[0]) : `${browserLabel(browsers[0])} + ${browsers.length - 1} more`;
}
