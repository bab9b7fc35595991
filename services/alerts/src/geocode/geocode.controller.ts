import { Controller, Get, Query, Res } from '@nestjs/common';
import type { Response } from 'express';
import { MinRole } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns, RateLimitExceeded } from '@beacon/common';
import { RateLimited } from '../config/rate-limits';
import { GeocodeQuery } from './geocode.query';
import { GeocoderService } from './geocoder.service';

/** Admin: GET /api/alerts/geocode?q=... — the wizard's address search, to centre the map. Before /:id (app.module). */
@Controller('geocode')
@MinRole('publisher')
export class GeocodeController {
  constructor(private readonly geocoder: GeocoderService) {}

  @Get()
  @RateLimited('geocode')
  @ApiReturns('GeocodeResults')
  @ApiOperation('geocode.search', 'Search an address', "The alert wizard's address search: up to five places for the text, from the configured geocoder.")
  // 429 also when the provider's queue is full (ProviderQueue), not only over the admin's own limit
  @ApiErrors({ 429: ['rate_limited'], 502: ['geocoder_unavailable'], 503: ['geocoder_not_configured'] })
  async search(@Query() query: GeocodeQuery, @Res({ passthrough: true }) res: Response) {
    try {
      return await this.geocoder.search(query.q);
    } catch (e) {
      // The provider's queue is full: the same answer as a caller over their own limit.
      if (e instanceof RateLimitExceeded) res.setHeader('Retry-After', String(e.retryAfter));
      throw e;
    }
  }
}
