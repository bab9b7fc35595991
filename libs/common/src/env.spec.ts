import { BaseEnv, ConfigError, loadEnv } from './env';

describe('loadEnv', () => {
  it('fills defaults when nothing is set', () => {
    const env = loadEnv(BaseEnv, {});
    expect(env.DATABASE_URL).toBe('postgres://postgres@127.0.0.1:5432/beacon');
    expect(env.SHUTDOWN_GRACE_SECONDS).toBe(25);
  });

  it('converts numbers and treats empty strings as unset', () => {
    const env = loadEnv(BaseEnv, { SHUTDOWN_GRACE_SECONDS: '40', REDIS_URL: '' });
    expect(env.SHUTDOWN_GRACE_SECONDS).toBe(40);
    expect(env.REDIS_URL).toBe('redis://127.0.0.1:6379');
  });

  it('names the variable, the rule and the bad value in one line', () => {
    expect(() => loadEnv(BaseEnv, { DATABASE_URL: 'mysql://db' })).toThrow(ConfigError);
    try {
      loadEnv(BaseEnv, { SHUTDOWN_GRACE_SECONDS: 'soon' });
    } catch (e) {
      expect((e as Error).message).toBe("Invalid configuration: SHUTDOWN_GRACE_SECONDS must be a whole number from 1 to 600 (got 'soon')");
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

describe('loadEnv error messages and secrets', () => {
  const { Rules } = require('./env');
  const { Matches } = require('class-validator');
  class SecretEnv extends BaseEnv {
    @Rules(Matches(/^[A-Za-z0-9+/]{43}=$/, { message: 'DEMO_DATA_KEY must be 32 bytes in base64' }))
    DEMO_DATA_KEY?: string;
  }

  it('never prints the value of a secret variable, even a wrong one', () => {
    const key = 'a'.repeat(64);
    expect(() => loadEnv(SecretEnv, { DEMO_DATA_KEY: key })).toThrow('DEMO_DATA_KEY must be 32 bytes in base64 (got a value of 64 characters, not shown)');
    try {
      loadEnv(SecretEnv, { DEMO_DATA_KEY: key });
    } catch (e) {
      expect((e as Error).message).not.toContain('aaaa');
    }
  });

  it('hides the password of a rejected URL', () => {
    try {
      loadEnv(BaseEnv, { DATABASE_URL: 'mysql://beacon:hunter2@db:3306/beacon' });
      throw new Error('accepted');
    } catch (e) {
      expect((e as Error).message).toContain("got 'mysql://beacon:***@db:3306/beacon'");
      expect((e as Error).message).not.toContain('hunter2');
    }
  });
});

describe('boolRule', () => {
  const { boolRule, Rules } = require('./env');
  class FlagEnv {
    @Rules(...boolRule('FLAG'))
    FLAG: boolean = true;
  }

  it.each([
    ['false', false],
    ['0', false],
    ['no', false],
    ['true', true],
    ['1', true],
    ['YES', true],
  ])('reads %s as %s', (raw, expected) => {
    expect(loadEnv(FlagEnv, { FLAG: raw }).FLAG).toBe(expected);
  });

  it('refuses anything else', () => {
    expect(() => loadEnv(FlagEnv, { FLAG: 'maybe' })).toThrow("FLAG must be true or false (got 'maybe')");
  });
});
