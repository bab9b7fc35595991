import { ArrayMaxSize, ArrayMinSize, IsArray, IsBoolean, IsIn, IsInt, IsOptional, IsString, Matches, Max, MaxLength, Min, MinLength } from 'class-validator';
import { CAP_INGEST_CATEGORIES, CAP_INGEST_SEVERITIES, CAP_SOURCE_MODES, CapSourceMode, DELIVERY_CHANNELS, DeliveryChannel } from '@beacon/contracts';

/** A CAP source as the admin settings' form sends it (create and edit take the whole source). */
export class CapSourceDto {
  @IsString({ message: 'Name is required' })
  @MinLength(1, { message: 'Name is required' })
  @MaxLength(100, { message: 'Name is at most 100 characters' })
  name: string;

  @IsString({ message: 'Feed URL must be an http(s) URL' })
  @MaxLength(2000, { message: 'Feed URL is at most 2000 characters' })
  @Matches(/^https?:\/\/\S+$/, { message: 'Feed URL must be an http(s) URL' })
  url: string;

  @IsInt({ message: 'Polling interval must be a whole number of seconds from 30 to 86400' })
  @Min(30, { message: 'Polling interval must be a whole number of seconds from 30 to 86400' })
  @Max(86400, { message: 'Polling interval must be a whole number of seconds from 30 to 86400' })
  intervalSeconds: number;

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CAP_INGEST_CATEGORIES.length)
  @IsIn(CAP_INGEST_CATEGORIES as unknown as string[], { each: true, message: `Categories must be among ${CAP_INGEST_CATEGORIES.join(', ')}` })
  categories: string[] = [];

  @IsOptional()
  @IsArray()
  @ArrayMaxSize(CAP_INGEST_SEVERITIES.length)
  @IsIn(CAP_INGEST_SEVERITIES as unknown as string[], { each: true, message: `Severities must be among ${CAP_INGEST_SEVERITIES.join(', ')}` })
  severities: string[] = [];

  @IsIn(CAP_SOURCE_MODES as unknown as string[], { message: `Mode must be one of ${CAP_SOURCE_MODES.join(', ')}` })
  mode: CapSourceMode;

  @IsArray({ message: 'Choose at least one channel' })
  @ArrayMinSize(1, { message: 'Choose at least one channel' })
  @IsIn(DELIVERY_CHANNELS as unknown as string[], { each: true, message: `Channels must be among ${DELIVERY_CHANNELS.join(', ')}` })
  channels: DeliveryChannel[];

  @IsOptional()
  @IsBoolean()
  enabled: boolean = true;
}
