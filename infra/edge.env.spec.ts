import 'reflect-metadata';
import { ConfigError, loadEnv } from '@beacon/common';
import { EdgeEnv, trustProxySetting } from './edge.env';

describe('EdgeEnv TRUSTED_PROXY', () => {
  it.each(['loopback', 'loopback, 10.0.0.0/8', '10.0.0.0/8,172.16.0.0/12', 'uniquelocal , 203.0.113.7'])('accepts %s (Express trust proxy syntax)', (value) => {
    const env = loadEnv(EdgeEnv, { TRUSTED_PROXY: value });
    expect(trustProxySetting(env.TRUSTED_PROXY)).toEqual(value.split(',').map((s) => s.trim()));
  });

  it('trusts nobody when unset', () => {
    expect(trustProxySetting(loadEnv(EdgeEnv, {}).TRUSTED_PROXY)).toBe(false);
  });

  it.each(['loopbak', '10.0.0.0/33', 'true', 'loopback 10.0.0.1'])('refuses %s at start with one line naming the variable', (value) => {
    expect(() => loadEnv(EdgeEnv, { TRUSTED_PROXY: value })).toThrow(ConfigError);
    expect(() => loadEnv(EdgeEnv, { TRUSTED_PROXY: value })).toThrow(/TRUSTED_PROXY/);
  });
});
