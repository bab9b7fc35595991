/**
 * Where a push endpoint may be. Every alert makes the dispatcher call each stored endpoint, so an endpoint on any
 * host would let one account aim Beacon's traffic at a third party. The alerts service applies these rules when a
 * browser registers, and the dispatcher again when it sends: rows stored before the rules, or before an operator
 * narrowed PUSH_ENDPOINT_HOSTS, must not be called either.
 */

/** The two lists the rules read, as AlertsDeliveryEnv gives them (shared by the alerts service and the dispatcher). */
export interface PushEndpointHosts {
  /** PUSH_ENDPOINT_HOSTS: names, `.suffix` for hosts under a domain, `*` for any. */
  pushEndpointHosts: string[];
  /** WEBHOOK_ALLOW_HOSTS: private hosts (a local push service in tests and the benchmark), `host` or `host:port`. */
  webhookAllowHosts: string[];
}

export interface PushEndpointRefusal {
  code: 'invalid_push_endpoint' | 'unsupported_push_service';
  message: string;
}

/** `.suffix` entries match on a dot boundary only, so `.push.apple.com` does not admit `evilpush.apple.com`. */
export function isPushServiceHost(hostname: string, allowed: string[]): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  return allowed.some((entry) => entry === '*' || (entry.startsWith('.') ? host.endsWith(entry) && host.length > entry.length : host === entry));
}

/** As the SSRF guard reads WEBHOOK_ALLOW_HOSTS, so one entry admits a local push service to both checks. */
function allowListed(url: URL, allowHosts: string[]) {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  return allowHosts.some((h) => h === '*' || h === host || h === `${host}:${url.port}` || h === url.host);
}

/**
 * Why this endpoint must not be used, or null when it may. Decided on the URL alone, before any DNS look-up: a host
 * that is no push service is refused without Beacon touching it. Whether it resolves to a public address is the
 * SSRF guard's to check after this.
 */
export function pushEndpointRefusal(endpoint: string, hosts: PushEndpointHosts): PushEndpointRefusal | null {
  let url: URL;
  try {
    url = new URL(endpoint);
  } catch {
    return { code: 'invalid_push_endpoint', message: 'The push endpoint is not a valid URL' };
  }
  return pushUrlRefusal(url, hosts);
}

/** pushEndpointRefusal for an endpoint already parsed. It reads only the scheme, host and port: one answer per origin. */
export function pushUrlRefusal(url: URL, hosts: PushEndpointHosts): PushEndpointRefusal | null {
  const local = allowListed(url, hosts.webhookAllowHosts);
  if (url.protocol !== 'https:' && !(local && url.protocol === 'http:')) {
    return { code: 'invalid_push_endpoint', message: 'A push endpoint must be an https URL' };
  }
  if (!local && !isPushServiceHost(url.hostname, hosts.pushEndpointHosts)) {
    return { code: 'unsupported_push_service', message: 'This push endpoint is not on a push service browsers use' };
  }
  return null;
}
