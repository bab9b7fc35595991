import { Type } from 'class-transformer';
import { IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';

export class PushKeysDto {
  /** The browser's P-256 public key, base64url (65 bytes uncompressed). */
  @IsString({ message: 'keys.p256dh is required' })
  @Matches(/^[A-Za-z0-9_-]{86,88}={0,2}$/, { message: 'keys.p256dh must be the subscription’s base64url P-256 key' })
  p256dh: string;

  /** The browser's 16-byte auth secret, base64url. */
  @IsString({ message: 'keys.auth is required' })
  @Matches(/^[A-Za-z0-9_-]{22}={0,2}$/, { message: 'keys.auth must be the subscription’s base64url auth secret' })
  auth: string;
}

/** PushSubscription.toJSON() as the browser gives it. */
export class PushSubscriptionDto {
  @IsString({ message: 'endpoint is required' })
  @MaxLength(2000, { message: 'endpoint is too long' })
  endpoint: string;

  @ValidateNested()
  @Type(() => PushKeysDto)
  keys: PushKeysDto;

  @IsOptional()
  expirationTime?: number | null;
}

export class RemovePushSubscriptionDto {
  @IsString({ message: 'endpoint is required' })
  @MaxLength(2000, { message: 'endpoint is too long' })
  endpoint: string;
}
