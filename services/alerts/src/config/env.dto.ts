import { IsOptional, Matches } from 'class-validator';
import { csv, intRule, portRule, RateRule, Rules } from '@beacon/common';
import { AlertsDeliveryEnv } from './delivery-env';

export class AlertsEnv extends AlertsDeliveryEnv {
  @Rules(...portRule('ALERTS_PORT'))
  ALERTS_PORT: number = 3004;

  /** Radius of the draft alert a verified wrong-way-driver incident creates. */
  @Rules(...intRule('INCIDENT_ALERT_RADIUS_KM', 1, 1000))
  INCIDENT_ALERT_RADIUS_KM: number = 10;

  /**
   * A Nominatim-compatible search endpoint for the wizard's address search (GET <url>?q=...&format=jsonv2), e.g.
   * https://nominatim.openstreetmap.org/search. Empty (the default): no address search; typed coordinates still work.
   */
  @IsOptional()
  @Matches(/^(https?:\/\/[^\s?#]+)?$/, { message: 'GEOCODER_URL must be an http(s) URL without a query, e.g. https://nominatim.openstreetmap.org/search' })
  GEOCODER_URL = '';

  /**
   * The same geocoder's reverse endpoint, which names the place at a point (GET <url>?lat=...&lon=...&format=jsonv2):
   * the name of a person's home after "use my location" (issue #40). Empty (the default): GEOCODER_URL with its last
   * path segment `search` made `reverse`, as Nominatim lays them out.
   */
  @IsOptional()
  @Matches(/^(https?:\/\/[^\s?#]+)?$/, {
    message: 'GEOCODER_REVERSE_URL must be an http(s) URL without a query, e.g. https://nominatim.openstreetmap.org/reverse',
  })
  GEOCODER_REVERSE_URL = '';

  /**
   * Requests to GEOCODER_URL, shared by every replica through Redis (public Nominatim allows 1/s and bans clients
   * that send more); searches wait their turn in a queue of at most GEOCODER_QUEUE_SIZE per replica, past which they
   * are refused with 429.
   */
  @RateRule('GEOCODER_RATE') GEOCODER_RATE = '1/1';
  @Rules(...intRule('GEOCODER_QUEUE_SIZE', 1, 1000))
  GEOCODER_QUEUE_SIZE: number = 10;
  /** Answers kept per replica (normalised search text), and for how long: places rarely move. */
  @Rules(...intRule('GEOCODER_CACHE_SIZE', 0, 100000))
  GEOCODER_CACHE_SIZE: number = 500;
  @Rules(...intRule('GEOCODER_CACHE_TTL_SECONDS', 1, 604800))
  GEOCODER_CACHE_TTL_SECONDS: number = 86400;

  /** Help requests: someone in danger may press it a few times, a script not hundreds. */
  @RateRule('ALERTS_RATE_HELP_REQUESTS_USER') ALERTS_RATE_HELP_REQUESTS_USER = '10/600';
  @RateRule('ALERTS_RATE_HELP_REQUESTS_IP') ALERTS_RATE_HELP_REQUESTS_IP = '60/600';
  /** Push subscription changes: a browser re-subscribes on every load. */
  @RateRule('ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER') ALERTS_RATE_PUSH_SUBSCRIPTIONS_USER = '60/3600';
  @RateRule('ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP') ALERTS_RATE_PUSH_SUBSCRIPTIONS_IP = '300/3600';
  /** Admin routes that cost a count over every user, a full export or a call to a provider: per admin. */
  @RateRule('ALERTS_RATE_AUDIENCE_PREVIEW_USER') ALERTS_RATE_AUDIENCE_PREVIEW_USER = '30/300';
  @RateRule('ALERTS_RATE_CSV_EXPORTS_USER') ALERTS_RATE_CSV_EXPORTS_USER = '20/600';
  @RateRule('ALERTS_RATE_SETTINGS_TESTS_USER') ALERTS_RATE_SETTINGS_TESTS_USER = '30/600';
  @RateRule('ALERTS_RATE_GEOCODE_USER') ALERTS_RATE_GEOCODE_USER = '30/60';
  /**
   * A person's place searches and lookups for their home (issue #40), per person: typing a search asks a few times,
   * and every person shares the geocoder's GEOCODER_RATE, so one cannot take everyone's turns.
   */
  @RateRule('ALERTS_RATE_PLACES_USER') ALERTS_RATE_PLACES_USER = '20/60';
  /**
   * The providers' public callbacks (receipts, replies, mail events), per address: a provider reports every message
   * of a large alert from a few addresses, so the limit only stops a flood.
   */
  @RateRule('ALERTS_RATE_PROVIDER_CALLBACKS_IP') ALERTS_RATE_PROVIDER_CALLBACKS_IP = '6000/60';

  /**
   * CAP sources (issue 23): hosts a source's URL may be on although they resolve to private or loopback addresses
   * (comma-separated host or host:port, '*' for any). Empty in production: the SSRF guard refuses them.
   */
  @IsOptional()
  @Matches(/^[A-Za-z0-9.:*,\s[\]-]*$/, { message: 'CAP_SOURCE_ALLOW_HOSTS must be a comma-separated list of hosts, e.g. 127.0.0.1,localhost:9000' })
  CAP_SOURCE_ALLOW_HOSTS = '';

  /** A fetched document (a feed or a CAP message) larger than this is refused unread. */
  @Rules(...intRule('CAP_SOURCE_MAX_KB', 1, 10240))
  CAP_SOURCE_MAX_KB: number = 512;

  @Rules(...intRule('CAP_SOURCE_TIMEOUT_SECONDS', 1, 120))
  CAP_SOURCE_TIMEOUT_SECONDS: number = 10;

  /** Requests per feed host (host:port) per window, whichever source asks (shared by every replica through Redis); a 429's Retry-After is honoured too. */
  @Rules(...intRule('CAP_SOURCE_RATE_LIMIT', 1, 10000))
  CAP_SOURCE_RATE_LIMIT: number = 60;

  @Rules(...intRule('CAP_SOURCE_RATE_WINDOW_SECONDS', 1, 86400))
  CAP_SOURCE_RATE_WINDOW_SECONDS: number = 60;

  /** How often the scheduler looks for sources whose next fetch is due (0: never; polls only on demand). */
  @Rules(...intRule('CAP_POLL_TICK_SECONDS', 0, 3600))
  CAP_POLL_TICK_SECONDS: number = 15;

  /** CAP messages followed from one feed per poll at most (the newest first as the feed lists them). */
  @Rules(...intRule('CAP_SOURCE_MAX_LINKS', 1, 1000))
  CAP_SOURCE_MAX_LINKS: number = 50;

  /** One poll of a source ends after this, however many links are left (they wait for the next poll): a slow feed holds a worker this long at most. */
  @Rules(...intRule('CAP_POLL_DEADLINE_SECONDS', 1, 3600))
  CAP_POLL_DEADLINE_SECONDS: number = 30;

  /** GEOCODER_REVERSE_URL, or GEOCODER_URL's reverse endpoint (`/search` -> `/reverse`, `/search.php` -> `/reverse.php`). */
  get reverseGeocoderUrl(): string {
    if (this.GEOCODER_REVERSE_URL) return this.GEOCODER_REVERSE_URL;
    const url = new URL(this.GEOCODER_URL);
    const path = url.pathname.replace(/\/+$/, '');
    url.pathname = /\/search(\.php)?$/.test(path) ? path.replace(/search(\.php)?$/, 'reverse$1') : `${path}/reverse`;
    return url.toString();
  }

  get capSourceAllowHosts(): string[] {
    return csv(this.CAP_SOURCE_ALLOW_HOSTS);
  }
}
