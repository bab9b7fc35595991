import { Injectable, Logger } from '@nestjs/common';
import type { GeocodeResult } from '@beacon/contracts';
import { AppError, guardedRequest } from '@beacon/common';
import { AlertsEnv } from '../config/env.dto';

/** Places the address search offers at most. */
export const GEOCODE_LIMIT = 5;
const TIMEOUT_MS = 5000;
const MAX_BYTES = 256 * 1024;

/**
 * The wizard's address search: asks the Nominatim-compatible search endpoint at GEOCODER_URL (`?q=...&format=jsonv2`)
 * through the SSRF-guarded client every configured URL goes through (guardedRequest: public addresses only, checked
 * at connect time, no redirects, size and time capped; WEBHOOK_ALLOW_HOSTS lets a local one through), and answers a
 * short list of places. Off unless GEOCODER_URL is set: then 503 `geocoder_not_configured`, which the wizard shows.
 */
@Injectable()
export class GeocoderService {
  private readonly logger = new Logger(GeocoderService.name);

  constructor(private readonly env: AlertsEnv) {}

  async search(q: string): Promise<GeocodeResult[]> {
    if (!this.env.GEOCODER_URL) {
      throw new AppError(503, 'geocoder_not_configured', 'Address search is not set up on this server: type the coordinates as "latitude, longitude" instead.');
    }
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
