import type { RedisOptions } from 'ioredis';

/** The schemes `REDIS_URL` accepts: one Redis, or a Sentinel setup that names the primary. */
export const REDIS_URL_PATTERN = /^(rediss?:\/\/\S+|rediss?\+sentinel:\/\/(?:[^@/\s]*@)?[^/?#@\s]+\/[^/?#\s]+\/?(?:\?\S*)?)$/;

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
  const sentinels = hosts.split(',').map((h) => {
    const hp = /^\[?([^\]]+?)\]?(?::(\d+))?$/.exec(h.trim());
    if (!hp) throw new Error(`REDIS_URL: '${h}' is not host:port`);
    return { host: hp[1], port: hp[2] ? Number(hp[2]) : 26379 };
  });
  const params = new URLSearchParams(query ?? '');
  const options: RedisOptions = { sentinels, name: decodeURIComponent(name) };
  if (auth) {
    const i = auth.indexOf(':');
    const user = decodeURIComponent(i < 0 ? '' : auth.slice(0, i));
    const password = decodeURIComponent(i < 0 ? auth : auth.slice(i + 1));
    if (user) options.username = user;
    if (password) options.password = password;
  }
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
