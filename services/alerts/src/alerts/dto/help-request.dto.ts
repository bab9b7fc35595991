import { Type } from 'class-transformer';
import { IsNumber, IsOptional, IsString, Max, MaxLength, Min } from 'class-validator';

export class HelpRequestDto {
  @IsOptional()
  @IsString({ message: 'Message must be text' })
  @MaxLength(1000, { message: 'Message must be at most 1000 characters' })
  message?: string;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'Latitude must be a number between -90 and 90' })
  @Min(-90, { message: 'Latitude must be a number between -90 and 90' })
  @Max(90, { message: 'Latitude must be a number between -90 and 90' })
  lat?: number;

  @IsOptional()
  @Type(() => Number)
  @IsNumber({}, { message: 'Longitude must be a number between -180 and 180' })
  @Min(-180, { message: 'Longitude must be a number between -180 and 180' })
  @Max(180, { message: 'Longitude must be a number between -180 and 180' })
  lng?: number;
}

export class ReceiptDto {
  @IsString({ message: 'token is required' })
  @MaxLength(64)
  token: string;

  @IsString()
  @MaxLength(16)
  event: 'delivered' | 'ack';
}
