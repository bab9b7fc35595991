import { Transform } from 'class-transformer';
import { IsBoolean, IsEmail, IsOptional, IsString, Matches, ValidateIf } from 'class-validator';
import { BaseEnv, csv, intRule, portRule, RateRule, Rules } from '@beacon/common';
import { DATA_KEY_HINT, DATA_KEY_PATTERN } from '../common/data-key';

/**
 * true/false/1/0/yes/no. Reads the raw string from the source object: with implicit conversion on, the value
 * handed to @Transform is already Boolean('false') === true (which is why libs/common's boolRule is not used here).
 */
function envBool(name: string): PropertyDecorator[] {
  const words: Record<string, boolean> = { true: true, '1': true, yes: true, false: false, '0': false, no: false };
  return [
    Transform(({ obj, key }) => {
      const raw = (obj as Record<string, unknown>)[key];
      return typeof raw === 'string' ? (words[raw.trim().toLowerCase()] ?? raw) : raw;
    }),
    IsBoolean({ message: `${name} must be true or false` }),
  ];
}

/** The longest an access token may live (IDENTITY_JWT_EXPIRY_SECONDS' bound): a revocation kept this long outlives any. */
export const MAX_JWT_EXPIRY_SECONDS = 86400;

/** A rate limit written as `<requests>/<seconds>`, e.g. `10/900`: the format every service's limits use (libs/common). */
const rate = RateRule;

export class IdentityEnv extends BaseEnv {
  @Rules(...portRule('IDENTITY_PORT'))
  IDENTITY_PORT: number = 3001;

  /** Lifetime of access tokens. */
  @Rules(...intRule('IDENTITY_JWT_EXPIRY_SECONDS', 30, MAX_JWT_EXPIRY_SECONDS))
  IDENTITY_JWT_EXPIRY_SECONDS: number = 3600;

  /** A PKCS#8 PEM EC P-256 private key to sign with; without it a key is generated once and kept in the database. */
  @IsOptional()
  @Matches(/-----BEGIN PRIVATE KEY-----[\s\S]+-----END PRIVATE KEY-----/, {
    message: 'IDENTITY_SIGNING_KEY_PEM must be a PKCS#8 PEM private key (-----BEGIN PRIVATE KEY-----)',
  })
  IDENTITY_SIGNING_KEY_PEM?: string;

  /** Days a generated signing key signs before it is replaced (0: never). Not applied to IDENTITY_SIGNING_KEY_PEM. */
  @Rules(...intRule('IDENTITY_KEY_ROTATION_DAYS', 0, 3650))
  IDENTITY_KEY_ROTATION_DAYS: number = 90;

  /**
   * Encrypts TOTP secrets and generated signing keys in the database. Required in production: without it a
   * database dump or backup holds everything needed to pass MFA and to sign tokens for any account.
   */
  @ValidateIf((env: IdentityEnv) => env.IDENTITY_DATA_KEY !== undefined || env.NODE_ENV === 'production')
  @Matches(DATA_KEY_PATTERN, { message: `${DATA_KEY_HINT}; it is required when NODE_ENV=production` })
  IDENTITY_DATA_KEY?: string;

  /** Sign-ups are confirmed at once (no mail). Defaults to true outside production. */
  @IsOptional()
  @Rules(...envBool('IDENTITY_AUTOCONFIRM'))
  IDENTITY_AUTOCONFIRM?: boolean;

  /** How long a rotated refresh token may still be presented (two tabs refreshing at once) and get the current pair. */
  @Rules(...intRule('IDENTITY_REFRESH_REUSE_SECONDS', 0, 300))
  IDENTITY_REFRESH_REUSE_SECONDS: number = 10;

  /** Lifetime of the links in confirmation, recovery and email-change mails (at most one hour). */
  @Rules(...intRule('IDENTITY_MAIL_LINK_TTL_SECONDS', 60, 3600))
  IDENTITY_MAIL_LINK_TTL_SECONDS: number = 3600;

  /** At most one mail of each kind per address in this many seconds. */
  @Rules(...intRule('IDENTITY_MAIL_INTERVAL_SECONDS', 1, 3600))
  IDENTITY_MAIL_INTERVAL_SECONDS: number = 60;

  /** Extra redirect targets allowed after PUBLIC_URL's origin, comma-separated URLs (origin plus optional path prefix). */
  @IsOptional()
  @IsString()
  IDENTITY_REDIRECT_ALLOW_LIST?: string;

  /** Emails that get the admin role when they sign up or sign in, comma-separated. */
  @IsOptional()
  @IsString()
  ADMIN_EMAILS?: string;

  /** smtp(s)://user:pass@host:port; without it mails are written to the log outside production. */
  @IsOptional()
  @Matches(/^smtps?:\/\/\S+$/, { message: 'SMTP_URL must be an smtp:// or smtps:// URL' })
  SMTP_URL?: string;

  @IsEmail({ allow_display_name: true }, { message: 'MAIL_FROM must be an email address, e.g. Beacon <no-reply@example.org>' })
  MAIL_FROM = 'Beacon <no-reply@beacon.local>';

  @rate('IDENTITY_RATE_PASSWORD_IP') IDENTITY_RATE_PASSWORD_IP = '60/300';
  /** Wrong passwords for one account from one address; the right one clears it. */
  @rate('IDENTITY_RATE_PASSWORD_ACCOUNT') IDENTITY_RATE_PASSWORD_ACCOUNT = '10/900';
  /** Wrong passwords for one account from anywhere: past it, attempts on the account are slowed, never refused. */
  @rate('IDENTITY_RATE_PASSWORD_ACCOUNT_CEILING') IDENTITY_RATE_PASSWORD_ACCOUNT_CEILING = '100/3600';
  @rate('IDENTITY_RATE_REFRESH_IP') IDENTITY_RATE_REFRESH_IP = '300/300';
  @rate('IDENTITY_RATE_SIGNUP_IP') IDENTITY_RATE_SIGNUP_IP = '30/3600';
  @rate('IDENTITY_RATE_SIGNUP_ACCOUNT') IDENTITY_RATE_SIGNUP_ACCOUNT = '5/3600';
  @rate('IDENTITY_RATE_RECOVER_IP') IDENTITY_RATE_RECOVER_IP = '30/3600';
  @rate('IDENTITY_RATE_VERIFY_IP') IDENTITY_RATE_VERIFY_IP = '30/300';
  @rate('IDENTITY_RATE_MFA_IP') IDENTITY_RATE_MFA_IP = '30/300';
  /** Wrong TOTP codes for one account from anywhere (correct ones are not counted and clear it). */
  @rate('IDENTITY_RATE_MFA_ACCOUNT') IDENTITY_RATE_MFA_ACCOUNT = '10/300';
}

/** Settings derived from the env once, so services don't re-parse strings. */
export function identitySettings(env: IdentityEnv) {
  const publicUrl = new URL(env.PUBLIC_URL);
  return {
    issuer: `${env.PUBLIC_URL.replace(/\/+$/, '')}/auth/v1`,
    apiUrl: `${env.PUBLIC_URL.replace(/\/+$/, '')}/auth/v1`,
    siteUrl: publicUrl.origin,
    autoconfirm: env.IDENTITY_AUTOCONFIRM ?? env.NODE_ENV !== 'production',
    adminEmails: new Set(csv(env.ADMIN_EMAILS).map((e) => e.toLowerCase())),
    redirectAllowList: csv(env.IDENTITY_REDIRECT_ALLOW_LIST),
  };
}
