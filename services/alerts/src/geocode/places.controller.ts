import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { ApiErrors, ApiOperation, ApiReturns, RateLimitExceeded } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import { GeocodeQuery, ReverseGeocodeQuery } from './geocode.query';
import { GeocoderService } from './geocoder.service';

/**
 * A signed-in person's places (issue #40): their home found by address or place name, and the name of the place their
 * device reported. The console's geocoder (GeocoderService: its queue, cache and SSRF guard), with a limit per person.
 */
@Controller('me/places')
export class PlacesController {
  constructor(private readonly geocoder: GeocoderService) {}

  @Get()
  @RateLimited('places')
  @ApiReturns('GeocodeResults')
  @ApiOperation('places.search', 'Search a place', 'Up to five places for an address or place name, from the configured geocoder: where to set the home.')
  // 429 also when the provider's queue is full (ProviderQueue), not only over the person's own limit
  @ApiErrors({ 429: ['rate_limited'], 502: ['geocoder_unavailable'], 503: ['geocoder_not_configured'] })
  search(@Query() query: GeocodeQuery, @Res({ passthrough: true }) res: Response) {
    return withRetryAfter(res, () => this.geocoder.search(query.q));
  }

  @Get('reverse')
  @RateLimited('places')
  @ApiReturns('GeocodePlace')
  @ApiOperation(
    'places.reverse',
    'Name the place at a point',
    "The place at a latitude and longitude (the device's location), named at street level; null when the geocoder knows no place there.",
  )
  @ApiErrors({ 429: ['rate_limited'], 502: ['geocoder_unavailable'], 503: ['geocoder_not_configured'] })
  reverse(@Query() query: ReverseGeocodeQuery, @Res({ passthrough: true }) res: Response) {
    return withRetryAfter(res, () => this.geocoder.reverse(query.lat, query.lng));
  }
}

/** The provider's queue is full: the same answer as a caller over their own limit, with its Retry-After. */
async function withRetryAfter<T>(res: Response, ask: () => Promise<T>): Promise<T> {
  try {
    return await ask();
  } catch (e) {
    if (e instanceof RateLimitExceeded) res.setHeader('Retry-After', String(e.retryAfter));
    throw e;
  }
}
