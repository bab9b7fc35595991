import { Transform } from 'class-transformer';
import { IsString, MaxLength, MinLength } from 'class-validator';
import { GeoPointDto } from '../preferences/dto/update-preferences.dto';

export class GeocodeQuery {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'Type an address or place to search for' })
  @MinLength(2, { message: 'Type an address or place to search for' })
  @MaxLength(200, { message: 'The search text must be at most 200 characters' })
  q: string;
}

/** GET /api/alerts/me/places/reverse: a point, as the device reports it, checked as a home's point is. */
export class ReverseGeocodeQuery extends GeoPointDto {}
