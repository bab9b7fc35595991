import type { LookupAddress, LookupOptions } from 'node:dns';
import { lookup } from 'node:dns/promises';
import { isIP, LookupFunction } from 'node:net';
import ipaddr from 'ipaddr.js';
import { AppError } from './errors';

/** All the addresses a host name resolves to (dns.lookup by default; tests inject answers). */
export type ResolveAll = (host: string) => Promise<LookupAddress[]>;

const systemResolve: ResolveAll = (host) => lookup(host, { all: true });

export interface AddressGuard {
  /** Hosts (`host` or `host:port`, `*` for any) that may be private: tests and local development. */
  allowHosts?: string[];
  resolve?: ResolveAll;
}

/**
 * Guards outgoing requests to URLs that users configure (webhooks, ingest sources): refuses loopback,
 * private, link-local and other non-public addresses unless the host is allow-listed.
 *
 * This only says what the name resolves to now: a name can resolve differently when the request connects
 * (DNS rebinding), so the request itself must connect through publicLookup, which applies the same rule.
 */
export async function assertPublicUrl(rawUrl: string, allowHosts: string[] = [], resolve: ResolveAll = systemResolve): Promise<URL> {
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
  await publicAddresses(host, url.port, { allowHosts, resolve });
  return url;
}

/**
 * The addresses `host` resolves to, refused (AppError `private_address` / `unresolvable_host`) unless every
 * one is public unicast or the host is allow-listed. One answer decides: a request must connect to one of
 * these addresses, never resolve the name again.
 */
export async function publicAddresses(host: string, port: string, guard: AddressGuard = {}): Promise<LookupAddress[]> {
  const allowed = isAllowed(host, port, guard.allowHosts ?? []);
  const family = isIP(host);
  const addresses = family ? [{ address: host, family }] : await (guard.resolve ?? systemResolve)(host).catch(() => []);
  if (addresses.length === 0) throw new AppError(400, 'unresolvable_host', `The host ${host} could not be resolved`);
  if (!allowed) for (const { address } of addresses) assertPublicAddress(address);
  return addresses;
}

/**
 * A `lookup` for node:net/tls/http/https/http2 connections to `port` that resolves once and hands the socket
 * only addresses publicAddresses accepted, so what is checked is what is connected to. A refusal fails the
 * connection with the AppError itself (its `code` tells it from a network error). Node does not call lookup
 * for IP literals: check those with assertPublicUrl or publicAddresses before connecting.
 */
export function publicLookup(port: string | number, guard: AddressGuard = {}): LookupFunction {
  return (
    hostname: string,
    options: LookupOptions,
    callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void,
  ) => {
    publicAddresses(hostname.replace(/^\[|\]$/g, ''), String(port), guard).then(
      (all) => {
        const wanted = options.family === 4 || options.family === 6 ? all.filter((a) => a.family === options.family) : all;
        if (!wanted.length) return callback(new AppError(400, 'unresolvable_host', `The host ${hostname} has no IPv${options.family} address`) as never, '', 0);
        if (options.all) callback(null, wanted);
        else callback(null, wanted[0].address, wanted[0].family);
      },
      (e: Error) => callback(e as never, '', 0),
    );
  };
}

function assertPublicAddress(address: string) {
  let range: string;
  try {
    range = rangeOf(address);
  } catch {
    range = 'unrecognised';
  }
  if (range !== 'unicast') throw new AppError(400, 'private_address', `The URL points at a ${range} address, which is not allowed`);
}

function isAllowed(host: string, port: string, allow: string[]) {
  return allow.some((entry) => entry === host || entry === `${host}:${port}` || entry === '*');
}

/**
 * IPv4 ranges of the IANA special-purpose registry that ipaddr.js files under 'unicast' or that are worth naming on
 * their own (its 'reserved' covers documentation, benchmarking, 192.0.0.0/24 and 240.0.0.0/4 already).
 */
const IPV4_SPECIAL: [string, string][] = [
  ['192.0.0.0/24', 'reserved'],
  ['192.88.99.0/24', 'reserved'],
  ['198.18.0.0/15', 'benchmarking'],
];

/**
 * The class of an address as the SSRF rule sees it: 'unicast' only for a global unicast address. IPv6 is public
 * only inside 2000::/3 (so `::127.0.0.1`, which URLs write `::7f00:1`, is 'ipv4Compatible', not public); forms that
 * carry an IPv4 address (mapped, 6to4, NAT64's well-known prefix, which DNS64 networks hand out for public hosts)
 * take the class of that IPv4 address. Teredo and local-use NAT64 are refused: what they reach is not knowable here.
 */
export function rangeOf(address: string): string {
  // ipaddr.js reads `::8.8.8.8` as `::ffff:8.8.8.8`; the socket would connect to `::808:808`. The WHATWG URL parser
  // writes an address the way it is connected to, so that is what gets classified.
  const parsed = ipaddr.parse(address.includes(':') ? new URL(`http://[${address}]/`).hostname.slice(1, -1) : address);
  if (parsed.kind() === 'ipv4') return ipv4Range(parsed as ipaddr.IPv4);
  const v6 = parsed as ipaddr.IPv6;
  const embedded = embeddedIPv4(v6);
  if (embedded) return ipv4Range(embedded);
  if (!v6.match(ipaddr.IPv6.parse('2000::'), 3))
    return v6.range() === 'unicast' ? (v6.match(ipaddr.IPv6.parse('::'), 96) ? 'ipv4Compatible' : 'reserved') : v6.range();
  return v6.range();
}

function ipv4Range(v4: ipaddr.IPv4): string {
  const range = v4.range();
  if (range !== 'unicast') return range;
  for (const [cidr, name] of IPV4_SPECIAL) if (v4.match(ipaddr.IPv4.parseCIDR(cidr))) return name;
  return range;
}

/** The IPv4 address an IPv6 address stands for: IPv4-mapped (::ffff:0:0/96), 6to4 (2002::/16), NAT64 (64:ff9b::/96). */
function embeddedIPv4(v6: ipaddr.IPv6): ipaddr.IPv4 | null {
  const bytes = v6.toByteArray();
  if (v6.isIPv4MappedAddress()) return v6.toIPv4Address();
  if (v6.match(ipaddr.IPv6.parse('2002::'), 16)) return new ipaddr.IPv4(bytes.slice(2, 6));
  if (v6.match(ipaddr.IPv6.parse('64:ff9b::'), 96)) return new ipaddr.IPv4(bytes.slice(12, 16));
  return null;
}
