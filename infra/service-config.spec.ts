import { ConfigError, loadEnv } from '@beacon/common';
import { SERVICE_DEFINITIONS } from './service-definitions';

describe.each(SERVICE_DEFINITIONS.map((def) => [def.name, def] as const))('%s configuration', (name, def) => {
  const portVar = `${name.toUpperCase()}_PORT`;

  it('starts from defaults', () => {
    const env = loadEnv(def.envClass, {});
    expect(def.port(env)).toBeGreaterThan(0);
  });

  it('refuses a bad port with one line naming the variable', () => {
    expect(() => loadEnv(def.envClass, { [portVar]: 'eighty' })).toThrow(
      new ConfigError(`Invalid configuration: ${portVar} must be a port number between 1 and 65535 (got 'eighty')`),
    );
  });

  it('refuses a database URL that is not postgres://', () => {
    expect(() => loadEnv(def.envClass, { DATABASE_URL: 'mysql://db/beacon' })).toThrow(/^Invalid configuration: DATABASE_URL must be a postgres:\/\/ URL/);
  });

  it('refuses a Redis URL that is not redis://', () => {
    expect(() => loadEnv(def.envClass, { REDIS_URL: 'http://redis' })).toThrow(/REDIS_URL must be a redis:\/\/ URL/);
  });
});
