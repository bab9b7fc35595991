import { Injectable, Logger } from '@nestjs/common';
import type Redis from 'ioredis';
import { LRUCache } from 'lru-cache';
import type { GeocodeResult } from '@beacon/contracts';
import { AppError, guardedRequest, InjectRedis, parseRate } from '@beacon/common';
import { AlertsEnv } from '../config/env.dto';
import { ProviderQueue } from './provider-queue';

/** Places the address search offers at most. */
export const GEOCODE_LIMIT = 5;
const TIMEOUT_MS = 5000;
/**
 * A reverse lookup's point is rounded to this many decimals (about 110 m of latitude) before it is sent or cached,
 * and named at Nominatim's zoom 16 (major streets): a home is named by its street and town, never its house.
 */
const REVERSE_DECIMALS = 3;
const REVERSE_ZOOM = 16;
const MAX_BYTES = 256 * 1024;

/**
 * Places from a Nominatim-compatible geocoder: the wizard's address search and the person's home (issue #40: a home
 * found by address or place name, and the name of the place their device reported). Asks the search endpoint at
 * GEOCODER_URL (`?q=...&format=jsonv2`) and its reverse endpoint (GEOCODER_REVERSE_URL, by default GEOCODER_URL's
 * `/search` made `/reverse`: `?lat=...&lon=...&format=jsonv2`) through the SSRF-guarded client every configured URL
 * goes through (guardedRequest: public addresses only, checked at connect time, no redirects, size and time capped;
 * WEBHOOK_ALLOW_HOSTS lets a local one through). Off unless GEOCODER_URL is set: then 503 `geocoder_not_configured`,
 * which the screens show. The provider is asked at most GEOCODER_RATE, across replicas and whichever route asks
 * (ProviderQueue), and only about what was not answered in the last GEOCODER_CACHE_TTL_SECONDS: answers, and questions
 * still on their way, are shared by normalised text or rounded point.
 */
@Injectable()
export class GeocoderService {
  private readonly logger = new Logger(GeocoderService.name);
  /** Null when GEOCODER_CACHE_SIZE is 0. Searches by normalised text, reverse lookups by `@lat,lng` (never a search's key). */
  private readonly answers: LRUCache<string, Promise<unknown>> | null;
  private readonly provider: ProviderQueue;

  constructor(
    private readonly env: AlertsEnv,
    @InjectRedis() redis: Redis,
  ) {
    this.answers = env.GEOCODER_CACHE_SIZE ? new LRUCache({ max: env.GEOCODER_CACHE_SIZE, ttl: env.GEOCODER_CACHE_TTL_SECONDS * 1000 }) : null;
    this.provider = new ProviderQueue(redis, 'rl:alerts:geocoder-provider', parseRate(env.GEOCODER_RATE), env.GEOCODER_QUEUE_SIZE);
  }

  async search(q: string): Promise<GeocodeResult[]> {
    this.assertConfigured();
    return this.remember(normaliseSearch(q), () => this.ask(collapseSpaces(q)));
  }

  /**
   * The place at a point, as its name (a street, a neighbourhood, a town: REVERSE_ZOOM), or null when the geocoder
   * knows none there (the open sea). The point is rounded to REVERSE_DECIMALS first: the provider learns no more than
   * a neighbourhood's block of where the person lives, and nearby points share one answer.
   */
  async reverse(lat: number, lng: number): Promise<GeocodeResult | null> {
    this.assertConfigured();
    const [rlat, rlng] = [roundTo(lat, REVERSE_DECIMALS), roundTo(lng, REVERSE_DECIMALS)];
    return this.remember(`@${rlat},${rlng}`, () => this.askReverse(rlat, rlng));
  }

  private assertConfigured() {
    if (!this.env.GEOCODER_URL) {
      throw new AppError(503, 'geocoder_not_configured', 'Address search is not set up on this server: type the coordinates as "latitude, longitude" instead.');
    }
  }

  /** The cached answer to `key`, or `ask`'s, kept for the next caller (and shared with those asking meanwhile). */
  private remember<T>(key: string, ask: () => Promise<T>): Promise<T> {
    const known = this.answers?.get(key);
    if (known) return known as Promise<T>;
    const answer = ask();
    this.answers?.set(key, answer);
    // A failure is not an answer: the next question asks again (unless a newer one has taken its place meanwhile).
    answer.catch(() => {
      if (this.answers?.peek(key) === answer) this.answers.delete(key);
    });
    return answer;
  }

  private async ask(q: string): Promise<GeocodeResult[]> {
    const url = new URL(this.env.GEOCODER_URL);
    url.searchParams.set('q', q);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', String(GEOCODE_LIMIT));
    const body = await this.fetchJson(url, 'address search');
    if (!Array.isArray(body)) throw this.unavailable('address search', 'the answer is not a list');
    return body
      .map(toPlace)
      .filter((p): p is GeocodeResult => p !== null)
      .slice(0, GEOCODE_LIMIT);
  }

  private async askReverse(lat: number, lng: number): Promise<GeocodeResult | null> {
    const url = new URL(this.env.reverseGeocoderUrl);
    url.searchParams.set('lat', String(lat));
    url.searchParams.set('lon', String(lng));
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('zoom', String(REVERSE_ZOOM));
    const body = await this.fetchJson(url, 'place lookup');
    if (body === null || typeof body !== 'object' || Array.isArray(body)) throw this.unavailable('place lookup', 'the answer is not a place');
    // Nominatim answers a point with nothing there as 200 {"error": "Unable to geocode"}.
    if ('error' in body) return null;
    return toPlace(body);
  }

  /** GET `url` through the provider's queue and the SSRF guard; its JSON, or 502 geocoder_unavailable. */
  private async fetchJson(url: URL, what: string): Promise<unknown> {
    await this.provider.turn();
    let res;
    try {
      res = await guardedRequest(url.toString(), {
        method: 'GET',
        headers: { accept: 'application/json', 'user-agent': 'Beacon address search' },
        timeoutMs: TIMEOUT_MS,
        maxBytes: MAX_BYTES,
        allowHosts: this.env.webhookAllowHosts,
      });
    } catch (e) {
      throw this.unavailable(what, (e as Error).message);
    }
    if (res.status !== 200) throw this.unavailable(what, `it answered ${res.status}`);
    if (res.truncated) throw this.unavailable(what, 'the answer is too large');
    try {
      return JSON.parse(res.text);
    } catch {
      throw this.unavailable(what, 'the answer is not JSON');
    }
  }

  private unavailable(what: string, why: string) {
    this.logger.warn(`${what} failed: ${why}`);
    return new AppError(
      502,
      'geocoder_unavailable',
      'The address search is not answering right now: try again, or type the coordinates as "latitude, longitude".',
    );
  }
}

/** A Nominatim place as {label, lat, lng}; null without a name or with coordinates out of range. */
function toPlace(p: { display_name?: unknown; lat?: unknown; lon?: unknown } | null): GeocodeResult | null {
  const place = {
    label: typeof p?.display_name === 'string' ? p.display_name.slice(0, 300) : '',
    lat: Number(p?.lat),
    lng: Number(p?.lon),
  };
  const valid = place.label && Number.isFinite(place.lat) && Number.isFinite(place.lng) && Math.abs(place.lat) <= 90 && Math.abs(place.lng) <= 180;
  return valid ? place : null;
}

const roundTo = (x: number, decimals: number) => Math.round(x * 10 ** decimals) / 10 ** decimals;

const collapseSpaces = (q: string) => q.trim().replace(/\s+/g, ' ');

/** What makes two searches the same question: case, Unicode forms and spacing do not change the places found. */
const normaliseSearch = (q: string) => collapseSpaces(q.normalize('NFKC').toLocaleLowerCase('en-US'));
