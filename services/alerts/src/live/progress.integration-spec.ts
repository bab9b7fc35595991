import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { io, Socket } from 'socket.io-client';
import { AlertProgress, progressCacheKey } from '@beacon/contracts';
import { createTestDatabase, RunningService, startTestIdentity, startTestService, TestDatabase, TestIdentity, testRedisPrefix } from '@beacon/testing';
import { gatewayService } from '../../../gateway/src/service';
import { alertsDatabase } from '../database';
import { alertsService } from '../service';
import { ProgressPublisher } from './progress.publisher';

describe('alert progress', () => {
  let db: TestDatabase;
  let identity: TestIdentity;
  const redisNs = testRedisPrefix();
  let alerts: RunningService<unknown>;
  let gateway: RunningService<unknown>;
  let admin: Socket;
  const seen: AlertProgress[] = [];
  const userId = randomUUID();
  const alertId = randomUUID();

  beforeAll(async () => {
    db = await createTestDatabase([alertsDatabase]);
    identity = await startTestIdentity();
    const vars = { DATABASE_URL: db.url, REDIS_URL: redisNs.url, REDIS_PREFIX: redisNs.prefix, JWKS_URL: identity.jwksUrl, SWEEP_INTERVAL_SECONDS: '3600' };
    alerts = await startTestService(alertsService, vars);
    gateway = await startTestService(gatewayService, vars);
    // an alert already dispatched to one user by SMS
    await db.query(
      `INSERT INTO alerts.alerts (id, title, message, type, severity, category, channels, status, recipients, dispatched_at)
       VALUES ($1, 'Wrong-way driver on I-10', 'A driver is heading west in the eastbound lanes.', 'Traffic', 'critical', 'traffic', '{sms}', 'active', 1, now())`,
      [alertId],
    );
    await db.query(`INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel, status, sent_at) VALUES ($1, $2, 'sms', 'sent', now())`, [
      alertId,
      userId,
    ]);
    const token = await identity.token({ role: 'admin' });
    admin = io(gateway.origin, { path: '/socket.io', auth: { token }, transports: ['websocket'], reconnection: false });
    admin.on('alert:progress', (p: AlertProgress) => seen.push(p));
    await new Promise<void>((resolve, reject) => {
      admin.once('connect', () => resolve());
      admin.once('connect_error', reject);
    });
  });

  afterAll(async () => {
    admin?.disconnect();
    await gateway?.close();
    await alerts?.close();
    await identity?.close();
    await db?.drop();
    await redisNs.cleanup();
  });

  it("reaches admins when a user marks an alert read (I'm Safe)", async () => {
    const token = await identity.token({ id: userId });
    const res = await fetch(`${alerts.url}/me/alerts/${alertId}/read`, { method: 'POST', headers: { Authorization: `Bearer ${token}` } });
    expect(res.status).toBe(200);
    for (let i = 0; i < 100 && !seen.some((p) => p.channels.sms?.read === 1); i++) await new Promise((r) => setTimeout(r, 50));
    const last = seen[seen.length - 1];
    expect(last).toMatchObject({ alertId, recipients: 1, done: true });
    expect(last.channels.sms).toMatchObject({ read: 1, sent: 0 });
  });

  it('never lets an older snapshot replace or follow a newer one', async () => {
    const publisher = alerts.app.get(ProgressPublisher);
    const raw = new Redis(redisNs.url);
    const key = `${redisNs.prefix}:${progressCacheKey(alertId)}`;
    try {
      // a snapshot stamped in the future stands for another worker's later one
      const later = { alertId, recipients: 1, channels: {}, done: true, at: '2999-01-01T00:00:00.000000Z' };
      await raw.set(key, JSON.stringify(later));
      const before = seen.length;
      await publisher.publish(alertId);
      expect(JSON.parse((await raw.get(key))!)).toEqual(later);
      await new Promise((r) => setTimeout(r, 300)); // room for an (unwanted) event to arrive
      expect(seen.length).toBe(before);

      await raw.del(key);
      await publisher.publish(alertId);
      expect(JSON.parse((await raw.get(key))!).at < later.at).toBe(true);
    } finally {
      raw.disconnect();
    }
  });
});
