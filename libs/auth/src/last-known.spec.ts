import type Redis from 'ioredis';
import { checkSessionLive } from './guards';
import { revokedUserKey, SessionRevocations } from './revocation';
import { AuthUser } from './token';

const admin = (over: Partial<AuthUser> = {}): AuthUser => ({
  id: 'a1',
  email: 'a@example.org',
  role: 'admin',
  sessionId: 's1',
  aal: 'aal1',
  issuedAt: 1000,
  ...over,
});

/** A Redis that answers MGET from a map until `down` is set, then refuses. */
function flakyRedis(values: Record<string, string>) {
  const state = { down: false };
  const redis = {
    options: { keyPrefix: 'env:' },
    mget: (...keys: string[]) => (state.down ? Promise.reject(new Error('ECONNREFUSED')) : Promise.resolve(keys.map((k) => values[k] ?? null))),
  };
  return { redis: redis as unknown as Redis, state };
}

describe('the last known revocation state while Redis is down (REVOCATION_STALENESS_SECONDS)', () => {
  afterEach(() => jest.useRealTimers());

  it('lets an admin checked before the outage through within the bound, and fails closed with 503 after it', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { redis, state } = flakyRedis({});
    const revocations = new SessionRevocations(redis, { stalenessSeconds: 60 });
    await expect(checkSessionLive(revocations, admin(), true)).resolves.toBeUndefined();

    state.down = true;
    jest.setSystemTime(1_000_000 + 59_000);
    await expect(checkSessionLive(revocations, admin(), true)).resolves.toBeUndefined();
    jest.setSystemTime(1_000_000 + 61_000);
    await expect(checkSessionLive(revocations, admin(), true)).rejects.toMatchObject({ status: 503, code: 'session_check_unavailable' });
  });

  it('counts the bound from the last answer of Redis, not from the read, while the stream followed', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { redis, state } = flakyRedis({});
    const revocations = new SessionRevocations(redis, { stalenessSeconds: 60 });
    (revocations as unknown as { known: { streamUp(now?: number): void } }).known.streamUp(999_000);
    await revocations.isRevoked(admin());
    jest.setSystemTime(1_050_000);
    await revocations.isRevoked(admin({ id: 'other', sessionId: 's9' })); // Redis still answered here
    state.down = true;
    jest.setSystemTime(1_100_000);
    await expect(revocations.isRevoked(admin())).resolves.toBe(false);
    jest.setSystemTime(1_111_000);
    await expect(revocations.isRevoked(admin())).rejects.toThrow();
  });

  it('keeps refusing a token read as revoked, and one revoked on the stream, whatever the age', async () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const { redis, state } = flakyRedis({ [revokedUserKey('a1')]: '2000' });
    const revocations = new SessionRevocations(redis, { stalenessSeconds: 60 });
    await expect(revocations.isRevoked(admin())).resolves.toBe(true);
    (revocations as unknown as { heard(m: string): void }).heard(JSON.stringify({ sessionIds: ['s2'], users: [] }));
    state.down = true;
    await expect(checkSessionLive(revocations, admin(), true)).rejects.toMatchObject({ status: 401, code: 'session_revoked' });
    jest.setSystemTime(1_000_000 + 3600_000 - 1);
    await expect(checkSessionLive(revocations, admin({ id: 'a2', sessionId: 's2' }), true)).rejects.toMatchObject({ status: 401 });
  });

  it('refuses an admin never checked before the outage, and refuses at once with a bound of 0', async () => {
    const { redis, state } = flakyRedis({});
    const unknown = new SessionRevocations(redis, { stalenessSeconds: 60 });
    const strict = new SessionRevocations(redis, { stalenessSeconds: 0 });
    await strict.isRevoked(admin());
    state.down = true;
    await expect(checkSessionLive(unknown, admin(), true)).rejects.toMatchObject({ status: 503 });
    await expect(checkSessionLive(strict, admin(), true)).rejects.toMatchObject({ status: 503 });
  });
});
