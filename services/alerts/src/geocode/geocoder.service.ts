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
const MAX_BYTES = 256 * 1024;

/**
 * The wizard's address search: asks the Nominatim-compatible search endpoint at GEOCODER_URL (`?q=...&format=jsonv2`)
 * through the SSRF-guarded client every configured URL goes through (guardedRequest: public addresses only, checked
 * at connect time, no redirects, size and time capped; WEBHOOK_ALLOW_HOSTS lets a local one through), and answers a
 * short list of places. Off unless GEOCODER_URL is set: then 503 `geocoder_not_configured`, which the wizard shows.
 * The provider is asked at most GEOCODER_RATE, across replicas (ProviderQueue), and only about text not answered
 * in the last GEOCODER_CACHE_TTL_SECONDS: answers, and searches still on their way, are shared by normalised text.
 */
@Injectable()
export class GeocoderService {
  private readonly logger = new Logger(GeocoderService.name);
  /** Null when GEOCODER_CACHE_SIZE is 0. */
  private readonly answers: LRUCache<string, Promise<GeocodeResult[]>> | null;
  private readonly provider: ProviderQueue;

  constructor(
    private readonly env: AlertsEnv,
    @InjectRedis() redis: Redis,
  ) {
    this.answers = env.GEOCODER_CACHE_SIZE ? new LRUCache({ max: env.GEOCODER_CACHE_SIZE, ttl: env.GEOCODER_CACHE_TTL_SECONDS * 1000 }) : null;
    this.provider = new ProviderQueue(redis, 'rl:alerts:geocoder-provider', parseRate(env.GEOCODER_RATE), env.GEOCODER_QUEUE_SIZE);
  }

  async search(q: string): Promise<GeocodeResult[]> {
    if (!this.env.GEOCODER_URL) {
      throw new AppError(503, 'geocoder_not_configured', 'Address search is not set up on this server: type the coordinates as "latitude, longitude" instead.');
    }
    const key = normaliseSearch(q);
    const known = this.answers?.get(key);
    if (known) return known;
    const answer = this.ask(collapseSpaces(q));
    this.answers?.set(key, answer);
    // A failure is not an answer: the next search asks again (unless a newer one has taken its place meanwhile).
    answer.catch(() => {
      if (this.answers?.peek(key) === answer) this.answers.delete(key);
    });
    return answer;
  }

  private async ask(q: string): Promise<GeocodeResult[]> {
    await this.provider.turn();
    const url = new URL(this.env.GEOCODER_URL);
    url.searchParams.set('q', q);
    url.searchParams.set('format', 'jsonv2');
    url.searchParams.set('limit', String(GEOCODE_LIMIT));
    const unavailable = (why: string) => {
      this.logger.warn(`address search failed: ${why}`);
      return new AppError(
        502,
        'geocoder_unavailable',
        'The address search is not answering right now: try again, or type the coordinates as "latitude, longitude".',
      );
    };
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
      throw unavailable((e as Error).message);
    }
    if (res.status !== 200) throw unavailable(`it answered ${res.status}`);
    if (res.truncated) throw unavailable('the answer is too large');
    let body: unknown;
    try {
      body = JSON.parse(res.text);
    } catch {
      throw unavailable('the answer is not JSON');
    }
    if (!Array.isArray(body)) throw unavailable('the answer is not a list');
    return body
      .map((p: { display_name?: unknown; lat?: unknown; lon?: unknown }) => ({
        label: typeof p?.display_name === 'string' ? p.display_name.slice(0, 300) : '',
        lat: Number(p?.lat),
        lng: Number(p?.lon),
      }))
      .filter((p) => p.label && Number.isFinite(p.lat) && Number.isFinite(p.lng) && Math.abs(p.lat) <= 90 && Math.abs(p.lng) <= 180)
      .slice(0, GEOCODE_LIMIT);
  }
}

const collapseSpaces = (q: string) => q.trim().replace(/\s+/g, ' ');

/** What makes two searches the same question: case, Unicode forms and spacing do not change the places found. */
const normaliseSearch = (q: string) => collapseSpaces(q.normalize('NFKC').toLocaleLowerCase('en-US'));
