import { Controller, Get, Query } from '@nestjs/common';
import { Roles } from '@beacon/auth';
import { ApiErrors, ApiOperation, ApiReturns } from '@beacon/common';
import { GeocodeQuery } from './geocode.query';
import { GeocoderService } from './geocoder.service';

/** Admin: GET /api/alerts/geocode?q=... — the wizard's address search, to centre the map. Before /:id (app.module). */
@Controller('geocode')
@Roles('admin')
export class GeocodeController {
  constructor(private readonly geocoder: GeocoderService) {}

  @Get()
  @ApiReturns('GeocodeResults')
  @ApiOperation('geocode.search', 'Search an address', "The alert wizard's address search: up to five places for the text, from the configured geocoder.")
  @ApiErrors({ 502: ['geocoder_unavailable'], 503: ['geocoder_not_configured'] })
  search(@Query() query: GeocodeQuery) {
    return this.geocoder.search(query.q);
  }
}
