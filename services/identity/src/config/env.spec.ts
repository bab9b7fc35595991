import { ConfigError, loadEnv } from '@beacon/common';
import { IdentityEnv, identitySettings } from './env.dto';

const DATA_KEY = Buffer.alloc(32, 7).toString('base64');

describe('IdentityEnv', () => {
  it('has defaults that work locally', () => {
    const env = loadEnv(IdentityEnv, {});
    expect(env.IDENTITY_JWT_EXPIRY_SECONDS).toBe(3600);
    expect(env.IDENTITY_REFRESH_REUSE_SECONDS).toBe(10);
    expect(identitySettings(env)).toMatchObject({ autoconfirm: true, issuer: 'http://localhost:8080/auth/v1' });
  });

  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['true', true],
    ['YES', true],
  ])('reads IDENTITY_AUTOCONFIRM=%s', (raw, expected) => {
    expect(identitySettings(loadEnv(IdentityEnv, { IDENTITY_AUTOCONFIRM: raw })).autoconfirm).toBe(expected);
  });

  it('defaults autoconfirm off in production', () => {
    expect(identitySettings(loadEnv(IdentityEnv, { NODE_ENV: 'production', IDENTITY_DATA_KEY: DATA_KEY })).autoconfirm).toBe(false);
  });

  it('requires IDENTITY_DATA_KEY in production only', () => {
    expect(loadEnv(IdentityEnv, {}).IDENTITY_DATA_KEY).toBeUndefined();
    expect(loadEnv(IdentityEnv, { NODE_ENV: 'production', IDENTITY_DATA_KEY: DATA_KEY }).IDENTITY_DATA_KEY).toBe(DATA_KEY);
    expect(() => loadEnv(IdentityEnv, { NODE_ENV: 'production' })).toThrow(
      'Invalid configuration: IDENTITY_DATA_KEY must be 32 random bytes in base64 (44 characters, e.g. from `openssl rand -base64 32`); it is required when NODE_ENV=production (it is missing)',
    );
  });

  it('reads IDENTITY_KEY_ROTATION_DAYS (default 90, 0 turns rotation off)', () => {
    expect(loadEnv(IdentityEnv, {}).IDENTITY_KEY_ROTATION_DAYS).toBe(90);
    expect(loadEnv(IdentityEnv, { IDENTITY_KEY_ROTATION_DAYS: '0' }).IDENTITY_KEY_ROTATION_DAYS).toBe(0);
  });

  it('parses the admin list case-insensitively', () => {
    expect([...identitySettings(loadEnv(IdentityEnv, { ADMIN_EMAILS: ' Chief@Example.org, b@x.io ' })).adminEmails]).toEqual(['chief@example.org', 'b@x.io']);
  });

  it.each([
    [{ IDENTITY_AUTOCONFIRM: 'maybe' }, 'IDENTITY_AUTOCONFIRM must be true or false'],
    [{ IDENTITY_RATE_PASSWORD_IP: '10 per minute' }, 'IDENTITY_RATE_PASSWORD_IP must be <requests>/<seconds>'],
    [{ SMTP_URL: 'http://mail' }, 'SMTP_URL must be an smtp:// or smtps:// URL'],
    [{ IDENTITY_JWT_EXPIRY_SECONDS: '5' }, 'IDENTITY_JWT_EXPIRY_SECONDS must be a whole number from 30 to 86400'],
    [{ IDENTITY_MAIL_LINK_TTL_SECONDS: '7200' }, 'IDENTITY_MAIL_LINK_TTL_SECONDS must be a whole number from 60 to 3600'],
    [{ IDENTITY_DATA_KEY: Buffer.alloc(16).toString('base64') }, 'IDENTITY_DATA_KEY must be 32 random bytes in base64'],
    [{ IDENTITY_DATA_KEY: Buffer.alloc(32).toString('hex') }, 'IDENTITY_DATA_KEY must be 32 random bytes in base64'],
    [{ IDENTITY_KEY_ROTATION_DAYS: '3651' }, 'IDENTITY_KEY_ROTATION_DAYS must be a whole number from 0 to 3650'],
    [{ IDENTITY_KEY_ROTATION_DAYS: '1.5' }, 'IDENTITY_KEY_ROTATION_DAYS must be a whole number from 0 to 3650'],
  ])('refuses %j', (vars, message) => {
    expect(() => loadEnv(IdentityEnv, vars as Record<string, string>)).toThrow(ConfigError);
    expect(() => loadEnv(IdentityEnv, vars as Record<string, string>)).toThrow(message);
  });
});
