import { Controller, Get, Query } from '@nestjs/common';
import { Roles } from '@beacon/auth';
import { ApiReturns } from '@beacon/common';
import { GeocodeQuery } from './geocode.query';
import { GeocoderService } from './geocoder.service';

/** Admin: GET /api/alerts/geocode?q=... — the wizard's address search, to centre the map. Before /:id (app.module). */
@Controller('geocode')
@Roles('admin')
export class GeocodeController {
  constructor(private readonly geocoder: GeocoderService) {}

  @Get()
  @ApiReturns('GeocodeResults')
  search(@Query() query: GeocodeQuery) {
    return this.geocoder.search(query.q);
  }
}
