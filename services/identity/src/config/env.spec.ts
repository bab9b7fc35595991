import { ConfigError, loadEnv } from '@beacon/common';
import { IdentityEnv, identitySettings } from './env.dto';

describe('IdentityEnv', () => {
  it('has defaults that work locally', () => {
    const env = loadEnv(IdentityEnv, {});
    expect(env.IDENTITY_JWT_EXPIRY_SECONDS).toBe(3600);
    expect(env.IDENTITY_REFRESH_REUSE_SECONDS).toBe(10);
    expect(identitySettings(env)).toMatchObject({ autoconfirm: true, issuer: 'http://localhost:8080/auth/v1' });
  });

  it.each([['false', false], ['0', false], ['no', false], ['true', true], ['YES', true]])('reads IDENTITY_AUTOCONFIRM=%s', (raw, expected) => {
    expect(identitySettings(loadEnv(IdentityEnv, { IDENTITY_AUTOCONFIRM: raw })).autoconfirm).toBe(expected);
  });

  it('defaults autoconfirm off in production', () => {
    expect(identitySettings(loadEnv(IdentityEnv, { NODE_ENV: 'production' })).autoconfirm).toBe(false);
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
  ])('refuses %j', (vars, message) => {
    expect(() => loadEnv(IdentityEnv, vars as Record<string, string>)).toThrow(ConfigError);
    expect(() => loadEnv(IdentityEnv, vars as Record<string, string>)).toThrow(message);
  });
});
