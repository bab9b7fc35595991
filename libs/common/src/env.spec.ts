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
      expect((e as Error).message).toBe(
        "Invalid configuration: SHUTDOWN_GRACE_SECONDS must be a whole number from 1 to 600 (got 'soon')",
      );
      expect((e as Error).message).not.toContain('\n');
    }
  });
});

describe('boolRule', () => {
  // eslint-disable-next-line @typescript-eslint/no-var-requires
  const { boolRule, Rules } = require('./env');
  class FlagEnv {
    @Rules(...boolRule('FLAG'))
    FLAG: boolean = true;
  }

  it.each([['false', false], ['0', false], ['no', false], ['true', true], ['1', true], ['YES', true]])('reads %s as %s', (raw, expected) => {
    expect(loadEnv(FlagEnv, { FLAG: raw }).FLAG).toBe(expected);
  });

  it('refuses anything else', () => {
    expect(() => loadEnv(FlagEnv, { FLAG: 'maybe' })).toThrow("FLAG must be true or false (got 'maybe')");
  });
});
