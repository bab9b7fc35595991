import { Type } from 'class-transformer';
import { Equals, IsBoolean, IsIn, IsOptional, IsString, Matches, MaxLength, ValidateNested } from 'class-validator';
import { SMS_PROVIDERS, type SmsProvider } from '@beacon/contracts';

export class PushSettingsDto {
  @IsOptional() @IsBoolean({ message: 'push.enabled must be true or false' }) enabled?: boolean;
  @IsOptional() @IsString({ message: 'push.username must be text' }) @MaxLength(200, { message: 'push.username is too long' }) username?: string;
  /** Omit to keep the saved key; '' clears it. Never returned in clear. */
  @IsOptional() @IsString({ message: 'push.apiKey must be text' }) @MaxLength(500, { message: 'push.apiKey is too long' }) apiKey?: string;
}

export class WebhookSettingsDto {
  @IsOptional() @IsBoolean({ message: 'webhook.enabled must be true or false' }) enabled?: boolean;
  @IsOptional() @IsString({ message: 'webhook.url must be a URL' }) @MaxLength(2000, { message: 'webhook.url is too long' }) url?: string;
  /**
   * true: Beacon generates a new receipt secret (32 random bytes), saves it and shows it once, in this answer's
   * `webhook.newSecret`; the webhook's receipts and replies signed with the old one are refused from then on.
   */
  @IsOptional() @Equals(true, { message: 'webhook.rotateSecret can only be true (omit it to keep the secret)' }) rotateSecret?: boolean;
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
  /** The relay's event-webhook signing key (bounces, complaints): omit to keep the saved one, '' clears it. Never returned. */
  @IsOptional() @IsString({ message: 'email.eventsKey must be text' }) @MaxLength(500, { message: 'email.eventsKey is too long' }) eventsKey?: string;
}

export class SmsSettingsDto {
  @IsOptional()
  @IsIn(SMS_PROVIDERS as unknown as string[], { message: `sms.provider must be one of ${SMS_PROVIDERS.join(', ')}` })
  provider?: SmsProvider;
}

/**
 * The Twilio-compatible account. The formats are checked by the service (codes invalid_twilio_sid, invalid_phone_number);
 * here only that each is text. '' clears a value; the auth token is write-only (omit keeps the saved one).
 */
export class TwilioSettingsDto {
  @IsOptional() @IsString({ message: 'twilio.accountSid must be text' }) @MaxLength(100, { message: 'twilio.accountSid is too long' }) accountSid?: string;
  @IsOptional() @IsString({ message: 'twilio.authToken must be text' }) @MaxLength(200, { message: 'twilio.authToken is too long' }) authToken?: string;
  @IsOptional() @IsString({ message: 'twilio.fromNumber must be text' }) @MaxLength(40, { message: 'twilio.fromNumber is too long' }) fromNumber?: string;
}

export class VoiceSettingsDto {
  @IsOptional() @IsBoolean({ message: 'voice.enabled must be true or false' }) enabled?: boolean;
}

export class UpdateSettingsDto {
  @IsOptional() @ValidateNested() @Type(() => PushSettingsDto) push?: PushSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => WebhookSettingsDto) webhook?: WebhookSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => EmailSettingsDto) email?: EmailSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => SmsSettingsDto) sms?: SmsSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => TwilioSettingsDto) twilio?: TwilioSettingsDto;
  @IsOptional() @ValidateNested() @Type(() => VoiceSettingsDto) voice?: VoiceSettingsDto;
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

/** Test the Twilio-compatible account typed before saving it; the saved sid and token where omitted. */
export class TestTwilioDto {
  @IsOptional() @IsString({ message: 'accountSid must be text' }) @MaxLength(100, { message: 'accountSid is too long' }) accountSid?: string;
  @IsOptional() @IsString({ message: 'authToken must be text' }) @MaxLength(200, { message: 'authToken is too long' }) authToken?: string;
}
