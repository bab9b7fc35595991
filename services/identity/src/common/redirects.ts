/**
 * Where a mail link may send the browser: PUBLIC_URL's origin, or an entry of the allow-list (same origin and
 * a path under the entry's path). Anything else falls back to the default, so the service is never an open
 * redirect.
 */
export function safeRedirect(candidate: string | undefined | null, fallback: string, siteUrl: string, allowList: string[]): string {
  if (!candidate) return fallback;
  let url: URL;
  try {
    url = new URL(candidate);
  } catch {
    return fallback;
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') return fallback;
  if (url.username || url.password) return fallback;
  if (url.origin === new URL(siteUrl).origin) return url.toString();
  for (const entry of allowList) {
    let allowed: URL;
    try {
      allowed = new URL(entry);
    } catch {
      continue;
    }
    const base = allowed.pathname.endsWith('/') ? allowed.pathname : `${allowed.pathname}/`;
    if (url.origin === allowed.origin && (url.pathname === allowed.pathname || url.pathname.startsWith(base))) {
      return url.toString();
    }
  }
  return fallback;
}
