import { Type } from 'class-transformer';
import { IsBoolean, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';

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

export class EmailSettingsDto {
  @IsOptional() @IsBoolean({ message: 'email.enabled must be true or false' }) enabled?: boolean;
  /** smtp:// or smtps://, with user and password if the relay needs them. Omit (or send the masked one back) to keep the saved URL. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'email.url must be an smtp:// or smtps:// URL, e.g. smtps://user:password@smtp.example.org:465' })
  @MaxLength(2000, { message: 'email.url is too long' })
  url?: string;
  @IsOptional()
  @IsString({ message: 'email.from must be an address' })
  @Matches(/^.{3,200}$/, { message: 'email.from must be an address, e.g. Beacon Alerts <alerts@example.org>' })
  from?: string;
}

export class UpdateSettingsDto {
  @IsOptional() @ValidateNested() @Type(() => PushSettingsDto) push?: PushSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => WebhookSettingsDto) webhook?: WebhookSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => EmailSettingsDto) email?: EmailSettingsDto;
}

export class TestEmailDto {
  /** Test a relay before saving it; the saved one when omitted. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'url must be an smtp:// or smtps:// URL' })
  @MaxLength(2000, { message: 'url is too long' })
  url?: string;
}

export class SendTestEmailDto extends TestEmailDto {
  /** Send from this address before saving it; the saved one when omitted. */
  @IsOptional()
  @IsString({ message: 'from must be an address' })
  @Matches(/^.{3,200}$/, { message: 'from must be an address, e.g. Beacon Alerts <alerts@example.org>' })
  from?: string;
}

export class TestWebhookDto {
  /** Test a URL before saving it; the saved one when omitted. */
  @IsOptional() @IsString({ message: 'url must be a URL' }) @MaxLength(2000, { message: 'url is too long' }) url?: string;
}

export class TestConnectionDto {
  @IsOptional() @IsString() @MaxLength(200) username?: string;
  @IsOptional() @IsString() @MaxLength(500) apiKey?: string;
}
