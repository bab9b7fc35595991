import { randomUUID } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import Redis from 'ioredis';
import { AdminAlert } from '@beacon/contracts';
import { SessionRevocations } from '@beacon/auth';
import { waitFor } from '@beacon/testing';
import { QUICK_RECOVERY_DISPATCHER } from './testing/compiled-worker';
import { ownRedisDispatchStack } from './testing/own-redis-stack';

const USERS = 6;
/** Short, so the spec sees the bound pass within the outage. */
const STALENESS_SECONDS = 6;
const OUTAGE_MS = 20_000;

jest.setTimeout(180_000);

/**
 * Redis stopped for 20 s (and back empty, as a restart without persistence leaves it). An admin whose token this
 * service checked just before keeps sending for REVOCATION_STALENESS_SECONDS from the last known revocation state;
 * the alert is committed with its dispatch intent and queued as soon as Redis answers. Past the bound, admin routes
 * fail closed again; a revocation heard before the outage is honoured throughout.
 */
describe('sending an alert while Redis is briefly unavailable', () => {
  const { redis, stack, call, startDispatcher } = ownRedisDispatchStack({ REVOCATION_STALENESS_SECONDS: String(STALENESS_SECONDS) });
  const { push, sms } = stack;

  async function revoke(userId: string) {
    const client = new Redis(redis.url, { keyPrefix: `${stack.redis.prefix}:` });
    try {
      await new SessionRevocations(client).revoke({ userIds: [userId] }, 3600);
    } finally {
      client.disconnect();
    }
  }

  it('answers 201 during the outage, delivers once soon after it, and fails closed past the staleness bound', async () => {
    const users = await stack.pushAndSmsPeople(call, USERS, { tag: 'outage-send', phonePrefix: '530555', alertTypes: ['weather'] });
    const admin = await stack.identity.token({ role: 'admin' });
    const revokedId = randomUUID();
    const revokedAdmin = await stack.identity.token({ id: revokedId, role: 'admin' });
    const worker = startDispatcher({ ...QUICK_RECOVERY_DISPATCHER, REDRIVE_AFTER_SECONDS: '300' });
    await worker.ready;

    // Both admins checked while Redis answers; then one is demoted, and the service hears it on the stream.
    expect((await call('GET', '', admin)).status).toBe(200);
    expect((await call('GET', '', revokedAdmin)).status).toBe(200);
    await sleep(1500); // the token's second must be within the cut-off
    await revoke(revokedId);
    await waitFor('the revocation heard', async () => (await call('GET', '', revokedAdmin)).status === 401);

    await redis.kill();
    const stoppedAt = Date.now();
    await sleep(2000);
    const requestId = `outage-${randomUUID()}`;
    const posted = await call<AdminAlert>(
      'POST',
      '',
      admin,
      {
        title: 'Flash flood on the Salt River',
        message: 'Leave the riverbed now and move to higher ground.',
        category: 'weather',
        severity: 'high',
        channels: ['push', 'sms'],
        everyone: true,
      },
      { 'x-request-id': requestId },
    );
    expect(posted.status).toBe(201);
    const alert = posted.body;
    const [intent] = await stack.db.query(`SELECT count(*)::int AS n FROM alerts.dispatch_outbox WHERE alert_id = $1`, [alert.id]);
    expect(intent.n).toBe(1);
    // The revocation heard before the outage stands, whatever the age of what is known.
    expect((await call('GET', '', revokedAdmin)).body).toMatchObject({ code: 'session_revoked' });

    // Past the bound, an admin route is refused again: a revocation made meanwhile could not be known.
    await sleep(Math.max(0, stoppedAt + (STALENESS_SECONDS + 2) * 1000 - Date.now()));
    const refused = await call('GET', '', admin);
    expect(refused.status).toBe(503);
    expect(refused.body).toMatchObject({ code: 'session_check_unavailable' });
    expect((await call('GET', '', revokedAdmin)).status).toBe(401);

    await sleep(Math.max(0, stoppedAt + OUTAGE_MS - Date.now()));
    await redis.start();
    const backAt = Date.now();

    const pushesOf = () => push.received.filter((r) => r.payload?.alertId === alert.id && r.status === 201);
    const smsOf = () => sms.received.filter((c) => c.idempotencyKey?.startsWith(`sms:${alert.id}:`));
    await waitFor(
      'every delivery to be sent',
      async () => {
        const [{ n }] = await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [alert.id]);
        return n === USERS * 2;
      },
      30_000,
    );
    // "Within seconds": generously, well before the sweep's re-drive (60 s for an undispatched alert, 300 s for deliveries).
    expect(Date.now() - backAt).toBeLessThan(25_000);
    expect((await call('GET', '', admin)).status).toBe(200);

    // Exactly once at the providers: one push per subscriber, each phone in one call.
    expect(
      pushesOf()
        .map((r) => r.subscriptionId)
        .sort(),
    ).toEqual(users.map((u) => u.subscriptionId).sort());
    expect(
      smsOf()
        .flatMap((c) => c.body.recipients)
        .sort(),
    ).toEqual(users.map((u) => u.phone).sort());
    const [left] = await stack.db.query(`SELECT count(*)::int AS n FROM alerts.dispatch_outbox`);
    expect(left.n).toBe(0);
    // The job the relay queued after the outage still carries the request that sent the alert.
    const [dispatched] = await stack.db.query(`SELECT dispatch_request_id FROM alerts.alerts WHERE id = $1`, [alert.id]);
    expect(dispatched.dispatch_request_id).toBe(requestId);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
