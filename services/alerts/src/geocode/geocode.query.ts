import { Transform, Type } from 'class-transformer';
import { IsNumber, IsString, Max, MaxLength, Min, MinLength } from 'class-validator';

export class GeocodeQuery {
  @Transform(({ value }) => (typeof value === 'string' ? value.trim() : value))
  @IsString({ message: 'Type an address or place to search for' })
  @MinLength(2, { message: 'Type an address or place to search for' })
  @MaxLength(200, { message: 'The search text must be at most 200 characters' })
  q: string;
}

/** GET /api/alerts/me/places/reverse: a point, as the device reports it. */
export class ReverseGeocodeQuery {
  @Type(() => Number)
  @IsNumber({}, { message: 'Latitude must be a number between -90 and 90' })
  @Min(-90, { message: 'Latitude must be a number between -90 and 90' })
  @Max(90, { message: 'Latitude must be a number between -90 and 90' })
  lat: number;

  @Type(() => Number)
  @IsNumber({}, { message: 'Longitude must be a number between -180 and 180' })
  @Min(-180, { message: 'Longitude must be a number between -180 and 180' })
  @Max(180, { message: 'Longitude must be a number between -180 and 180' })
  lng: number;
}
