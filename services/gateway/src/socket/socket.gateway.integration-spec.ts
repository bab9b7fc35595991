import { randomUUID } from 'node:crypto';
import Redis from 'ioredis';
import { io, Socket } from 'socket.io-client';
import { AlertProgress, AlertSummary } from '@beacon/contracts';
import { LiveEvents } from '@beacon/common';
import { RunningService, startTestIdentity, startTestService, TestIdentity, testRedisPrefix, waitFor } from '@beacon/testing';
import { gatewayService } from '../service';

jest.setTimeout(30_000);

const summary = (id: string): AlertSummary => ({
  id,
  title: 'Flash flood warning',
  message: 'Move to higher ground now.',
  severity: 'critical',
  priority: 'high',
  category: 'weather',
  type: 'Weather',
  status: 'active',
  locationName: null,
  lat: null,
  lng: null,
  radiusKm: null,
  area: null,
  channels: ['push'],
  createdAt: new Date().toISOString(),
  expiresAt: null,
  version: 1,
  allClear: null,
});

describe('gateway rooms', () => {
  const redis = testRedisPrefix();
  let identity: TestIdentity;
  let gateway: RunningService<unknown>;
  let live: LiveEvents;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    identity = await startTestIdentity();
    gateway = await startTestService(gatewayService, { REDIS_URL: redis.url, REDIS_PREFIX: redis.prefix, JWKS_URL: identity.jwksUrl });
    live = new LiveEvents({ redisUrl: redis.url, redisPrefix: redis.prefix });
  });

  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await live?.onApplicationShutdown();
    await gateway?.close();
    await identity?.close();
    await redis.cleanup();
  });

  function connect(token?: string): Promise<{ socket: Socket; events: { name: string; args: unknown[] }[] }> {
    const socket = io(gateway.origin, { path: '/socket.io', auth: token ? { token } : {}, transports: ['websocket'], reconnection: false });
    sockets.push(socket);
    const events: { name: string; args: unknown[] }[] = [];
    socket.onAny((name, ...args) => events.push({ name, args }));
    return new Promise((resolve, reject) => {
      socket.on('connect', () => resolve({ socket, events }));
      socket.on('connect_error', reject);
    });
  }

  it('refuses a bad token with a machine-readable code', async () => {
    await expect(connect('not-a-jwt')).rejects.toMatchObject({ message: 'Invalid access token', data: { code: 'token_invalid' } });
  });

  it('puts each socket in its own rooms only: user, admins, public', async () => {
    const aliceId = randomUUID();
    const alice = await connect(await identity.token({ id: aliceId }));
    const bob = await connect(await identity.token({}));
    const admin = await connect(await identity.token({ role: 'admin' }));
    const anonymous = await connect();

    const alertId = randomUUID();
    live.toUsers([aliceId], 'alert:new', summary(alertId));
    const progress: AlertProgress = {
      alertId,
      recipients: 1,
      channels: {},
      done: false,
      responses: { safe: 0, needHelp: 0, helpOpen: 0 },
      at: new Date().toISOString(),
    };
    live.toAdmins('alert:progress', progress);

    await waitFor('alice to get the alert', () => alice.events.some((e) => e.name === 'alert:new'));
    await waitFor('the admin to get progress', () => admin.events.some((e) => e.name === 'alert:progress'));
    // A marker to every room proves the others had every chance to receive what they must not.
    live.toAdmins('alert:updated', summary(alertId));
    live.toUsers([aliceId], 'alert:updated', summary(alertId));
    await waitFor('the markers', () => admin.events.some((e) => e.name === 'alert:updated') && alice.events.some((e) => e.name === 'alert:updated'));

    expect(alice.events.map((e) => e.name)).toEqual(['alert:new', 'alert:updated']);
    expect(admin.events.map((e) => e.name)).toEqual(['alert:progress', 'alert:updated']);
    expect(bob.events).toEqual([]);
    expect(anonymous.events).toEqual([]);
  });

  /** An alert's latest progress where the dispatcher keeps it, for a socket that starts watching late. */
  async function storeProgress(alertId: string, recipients: number, done: boolean): Promise<AlertProgress> {
    const snapshot: AlertProgress = { alertId, recipients, channels: {}, done, responses: { safe: 0, needHelp: 0, helpOpen: 0 }, at: new Date().toISOString() };
    const client = new Redis(redis.url, { keyPrefix: `${redis.prefix}:` });
    await client.set(`alert-progress:${alertId}`, JSON.stringify(snapshot));
    client.disconnect();
    return snapshot;
  }

  it('puts every staff role in the admins room, so each console gets the live view (issue #38)', async () => {
    const staff = await Promise.all((['viewer', 'publisher', 'approver'] as const).map(async (role) => connect(await identity.token({ role }))));
    const user = await connect(await identity.token({ role: 'user' }));
    const alertId = randomUUID();
    live.toAdmins('alert:updated', summary(alertId));
    await waitFor('every staff socket to hear it', () => staff.every((s) => s.events.some((e) => e.name === 'alert:updated')));
    // a viewer may watch a running alert as well
    await storeProgress(alertId, 2, false);
    staff[0].socket.emit('alert:watch', alertId);
    user.socket.emit('alert:watch', alertId);
    await waitFor("the viewer's snapshot", () => staff[0].events.some((e) => e.name === 'alert:progress'));
    // the marker to the admins room reached the staff long ago: the user socket had every chance to hear it
    live.toAdmins('alert:updated', summary(randomUUID()));
    await waitFor('a second marker', () => staff[0].events.filter((e) => e.name === 'alert:updated').length === 2);
    expect(user.events).toEqual([]);
  });

  it('gives an admin who watches an alert its last progress; ignores non-admins', async () => {
    const alertId = randomUUID();
    const snapshot = await storeProgress(alertId, 3, true);

    const user = await connect(await identity.token({}));
    const admin = await connect(await identity.token({ role: 'admin' }));
    user.socket.emit('alert:watch', alertId);
    admin.socket.emit('alert:watch', alertId);
    await waitFor('the snapshot', () => admin.events.find((e) => e.name === 'alert:progress'));
    expect(admin.events[0].args[0]).toEqual(snapshot);
    expect(user.events).toEqual([]);
  });
});
