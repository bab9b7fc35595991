import { ConfigError, loadEnv, parseRate } from '@beacon/common';
import { incidentsRateLimits } from '../common/rate-limits';
import { IncidentsEnv } from './env.dto';

describe('IncidentsEnv', () => {
  it('defaults to a limit for every action, per user and per address', () => {
    const { rules } = incidentsRateLimits(loadEnv(IncidentsEnv, {}));
    expect(Object.keys(rules).sort()).toEqual(['comments', 'likes', 'posts', 'reports', 'uploads']);
    for (const rule of Object.values(rules)) {
      const user = parseRate(rule.user!);
      const ip = parseRate(rule.ip!);
      // many people can share one address, so it never allows less than one person
      expect(ip.points / ip.seconds).toBeGreaterThanOrEqual(user.points / user.seconds);
    }
    // liking while scrolling: a like every few seconds for minutes is fine
    const likes = parseRate(rules.likes.user!);
    expect(likes.points / likes.seconds).toBeGreaterThanOrEqual(1 / 10);
  });

  it('takes limits as <requests>/<seconds> and refuses anything else, naming the variable', () => {
    expect(loadEnv(IncidentsEnv, { INCIDENTS_RATE_LIKES_USER: '5/60' }).INCIDENTS_RATE_LIKES_USER).toBe('5/60');
    expect(() => loadEnv(IncidentsEnv, { INCIDENTS_RATE_LIKES_USER: 'lots' })).toThrow(ConfigError);
    expect(() => loadEnv(IncidentsEnv, { INCIDENTS_RATE_REPORTS_IP: '10 per hour' })).toThrow(/INCIDENTS_RATE_REPORTS_IP must be <requests>\/<seconds>/);
  });

  it('takes a photo URL key of at least 32 bytes in base64, and a TTL in range', () => {
    expect(loadEnv(IncidentsEnv, { INCIDENTS_PHOTO_URL_KEY: Buffer.alloc(32, 7).toString('base64') }).INCIDENTS_PHOTO_URL_KEY).toBeDefined();
    expect(() => loadEnv(IncidentsEnv, { INCIDENTS_PHOTO_URL_KEY: 'c2hvcnQ=' })).toThrow(/INCIDENTS_PHOTO_URL_KEY/);
    expect(() => loadEnv(IncidentsEnv, { INCIDENTS_PHOTO_URL_TTL_SECONDS: '5' })).toThrow(/INCIDENTS_PHOTO_URL_TTL_SECONDS/);
  });
});
