import type { RedisOptions } from 'ioredis';

/** The schemes `REDIS_URL` accepts: one Redis, a Sentinel setup that names the primary, or a Redis Cluster's seed nodes. */
export const REDIS_URL_PATTERN =
  /^(rediss?:\/\/\S+|rediss?\+sentinel:\/\/(?:[^@/\s]*@)?[^/?#@\s]+\/[^/?#\s]+\/?(?:\?\S*)?|rediss?\+cluster:\/\/(?:[^@/\s]*@)?[^/?#@\s]+\/?(?:\?\S*)?)$/;

/**
 * ioredis options for a `REDIS_URL`. `redis://` and `rediss://` are one server (ioredis parses them itself);
 * `redis+sentinel://[[user]:password@]host:port[,host:port...]/<primary name>[?sentinelPassword=...&db=N]` asks the
 * listed sentinels where the primary named by the path is, asks again whenever its connection drops (a killed primary),
 * and reconnects when the node it talks to answers READONLY (a primary demoted while its clients were still connected).
 * ioredis's `failoverDetector` (a subscription to `+switch-master`) is not used: its sentinel connections outlive
 * `quit()` (ioredis 5.11), so a closed client kept reconnecting.
 * `rediss+sentinel://` speaks TLS to the primary and the sentinels. The user and password are the primary's.
 */
export function redisUrlOptions(url: string): RedisOptions | null {
  const m = /^(rediss?)\+sentinel:\/\/(?:([^@/]*)@)?([^/?#]+)\/([^/?#]+)\/?(?:\?([^#]*))?$/.exec(url);
  if (!m) {
    if (/^rediss?\+sentinel:/.test(url)) throw new Error(`REDIS_URL: a sentinel URL is redis+sentinel://[password@]host:port[,host:port]/<primary name>`);
    return null;
  }
  const [, scheme, auth, hosts, name, query] = m;
  const sentinels = hosts.split(',').map((h) => hostPort(h, 26379));
  const params = new URLSearchParams(query ?? '');
  const options: RedisOptions = { sentinels, name: decodeURIComponent(name) };
  Object.assign(options, credentials(auth));
  if (params.get('sentinelPassword')) options.sentinelPassword = params.get('sentinelPassword')!;
  if (params.get('sentinelUsername')) options.sentinelUsername = params.get('sentinelUsername')!;
  if (params.get('db')) options.db = Number(params.get('db'));
  if (scheme === 'rediss') {
    options.tls = {};
    options.enableTLSForSentinelMode = true;
    options.sentinelTLS = {};
  }
  // A primary demoted by a failover answers writes with READONLY until the client follows the new one.
  options.reconnectOnError = (e) => (/READONLY/.test(e.message) ? 2 : false);
  return options;
}

/** `host:port` (or `[v6]:port`) into ioredis's node form; `defaultPort` when the port is left out. */
function hostPort(text: string, defaultPort: number): { host: string; port: number } {
  const hp = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(text.trim());
  if (!hp) throw new Error(`REDIS_URL: '${text}' is not host:port`);
  return { host: hp[1], port: hp[2] ? Number(hp[2]) : defaultPort };
}

/** The user and password of a URL's `user:password` (or `:password`, or `password`) part. */
function credentials(auth: string | undefined): Pick<RedisOptions, 'username' | 'password'> {
  if (!auth) return {};
  const i = auth.indexOf(':');
  const username = decodeURIComponent(i < 0 ? '' : auth.slice(0, i));
  const password = decodeURIComponent(i < 0 ? auth : auth.slice(i + 1));
  return { ...(username ? { username } : {}), ...(password ? { password } : {}) };
}

/**
 * A Redis Cluster's `REDIS_URL`: `redis+cluster://[[user]:password@]host:port[,host:port...]` (`rediss+cluster://` for
 * TLS), some of its nodes, from which the client learns the rest and the slot map. Null for any other URL.
 */
export function redisClusterUrl(url: string): { nodes: { host: string; port: number }[]; nodeOptions: RedisOptions } | null {
  const m = /^(rediss?)\+cluster:\/\/(?:([^@/]*)@)?([^/?#]+)\/?(?:\?[^#]*)?$/.exec(url);
  if (!m) return null;
  const [, scheme, auth, hosts] = m;
  return {
    nodes: hosts.split(',').map((h) => hostPort(h, 6379)),
    nodeOptions: { ...credentials(auth), ...(scheme === 'rediss' ? { tls: {} } : {}) },
  };
}

/** True when `url` names a Redis Cluster: every multi-key command must then stay within one hash slot. */
export function isRedisClusterUrl(url: string): boolean {
  return /^rediss?\+cluster:/.test(url);
}
