import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, MaxLength, ValidateNested } from 'class-validator';

export class PushSettingsDto {
  @IsOptional() @IsBoolean({ message: 'push.enabled must be true or false' }) enabled?: boolean;
  @IsOptional() @IsString({ message: 'push.username must be text' }) @MaxLength(200, { message: 'push.username is too long' }) username?: string;
  /** Omit to keep the saved key; '' clears it. Never returned in clear. */
  @IsOptional() @IsString({ message: 'push.apiKey must be text' }) @MaxLength(500, { message: 'push.apiKey is too long' }) apiKey?: string;
}

export class WebhookSettingsDto {
  @IsOptional() @IsBoolean({ message: 'webhook.enabled must be true or false' }) enabled?: boolean;
  @IsOptional() @IsString({ message: 'webhook.url must be a URL' }) @MaxLength(2000, { message: 'webhook.url is too long' }) url?: string;
}

export class UpdateSettingsDto {
  @IsOptional() @ValidateNested() @Type(() => PushSettingsDto) push?: PushSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => WebhookSettingsDto) webhook?: WebhookSettingsDto;
}

export class TestWebhookDto {
  /** Test a URL before saving it; the saved one when omitted. */
  @IsOptional() @IsString({ message: 'url must be a URL' }) @MaxLength(2000, { message: 'url is too long' }) url?: string;
}

export class TestConnectionDto {
  @IsOptional() @IsString() @MaxLength(200) username?: string;
  @IsOptional() @IsString() @MaxLength(500) apiKey?: string;
}
