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
  return (hostname: string, options: LookupOptions, callback: (err: NodeJS.ErrnoException | null, address: string | LookupAddress[], family?: number) => void) => {
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

export function rangeOf(address: string): string {
  let parsed = ipaddr.parse(address);
  if (parsed.kind() === 'ipv6' && (parsed as ipaddr.IPv6).isIPv4MappedAddress()) parsed = (parsed as ipaddr.IPv6).toIPv4Address();
  return parsed.range();
}
