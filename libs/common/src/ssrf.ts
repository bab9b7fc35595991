import { lookup } from 'node:dns/promises';
import ipaddr from 'ipaddr.js';
import { AppError } from './errors';

/**
 * Guards outgoing requests to URLs that users configure (webhooks, ingest sources): refuses loopback,
 * private, link-local and other non-public addresses unless the host is allow-listed.
 */
export async function assertPublicUrl(rawUrl: string, allowHosts: string[] = []): Promise<URL> {
  let url: URL;
  try {
    url = new URL(rawUrl);
  } catch {
    throw new AppError(400, 'invalid_url', 'The URL is not valid');
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new AppError(400, 'invalid_url', 'Only http and https URLs are allowed');
  if (url.username || url.password) throw new AppError(400, 'invalid_url', 'URLs with credentials are not allowed');
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (isAllowed(host, url.port, allowHosts)) return url;
  const addresses = ipaddr.isValid(host) ? [host] : (await lookup(host, { all: true }).catch(() => [])).map((a) => a.address);
  if (addresses.length === 0) throw new AppError(400, 'unresolvable_host', `The host ${host} could not be resolved`);
  for (const address of addresses) {
    const range = rangeOf(address);
    if (range !== 'unicast') throw new AppError(400, 'private_address', `The URL points at a ${range} address, which is not allowed`);
  }
  return url;
}

function isAllowed(host: string, port: string, allow: string[]) {
  return allow.some((entry) => entry === host || entry === `${host}:${port}` || entry === '*');
}

export function rangeOf(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}
