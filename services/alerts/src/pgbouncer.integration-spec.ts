import { ChildProcess, spawn } from 'node:child_process';
import { join } from 'node:path';
import { AdminAlert } from '@beacon/contracts';
import { PGBOUNCER_BINARY, PGBOUNCER_PATHS, RunningService, startTestService, jsonClient, TestPgBouncer, waitFor } from '@beacon/testing';
import { alertsService } from './service';
import { assertCompiledDispatcher, QUICK_RECOVERY_DISPATCHER, startCompiledDispatcher } from './testing/compiled-worker';
import { DispatchStack } from './testing/dispatch-stack';

const USERS = 18;
const MIGRATE = join(__dirname, '..', '..', '..', 'dist', 'infra', 'migrate.js');
const MIGRATION_LOCK_KEY = 0x62656163; // infra/migrate.ts

jest.setTimeout(150_000);

/** Runs the compiled migrator (what the `migrate` initContainer runs) with `vars`; resolves its exit code and output. */
function migrate(vars: Record<string, string>): Promise<{ code: number | null; out: string }> {
  const child = spawn(process.execPath, [MIGRATE], { env: { ...process.env, ...vars }, stdio: ['ignore', 'pipe', 'pipe'] });
  let out = '';
  child.stdout.on('data', (d) => (out += d));
  child.stderr.on('data', (d) => (out += d));
  return new Promise((r) => child.on('exit', (code) => r({ code, out })));
}

/*
 * A developer's machine may lack pgbouncer: the suite is skipped there, and says so on stderr. CI installs it (.ci/run),
 * so under CI=true a missing binary fails instead of passing silently.
 */
const MISSING = `no pgbouncer binary (looked for ${PGBOUNCER_PATHS.join(' and ')}): install it with \`sudo apt-get install pgbouncer\``;
const suite = PGBOUNCER_BINARY ? describe : describe.skip;
if (!PGBOUNCER_BINARY) {
  if (process.env.CI === 'true') {
    it('has pgbouncer to run against (CI installs it)', () => {
      throw new Error(`pgbouncer.integration-spec cannot run: ${MISSING}`);
    });
  } else console.warn(`pgbouncer.integration-spec SKIPPED: ${MISSING}`);
}

/**
 * Debian's PgBouncer in transaction mode in front of PostgreSQL, with fewer server connections (3) than the services'
 * pools ask for. The migrator goes to PostgreSQL directly (DATABASE_DIRECT_URL: its lock is a session lock); the alerts
 * service and the compiled dispatcher only through PgBouncer (every statement parameterised, i.e. extended-protocol
 * unnamed prepared statements; transaction-scoped advisory locks; the CSV export's cursor inside its transaction).
 * PgBouncer is killed and restarted in the middle of a fan-out: every transaction in flight aborts, and the alert must
 * still complete with nothing lost and repeats bounded.
 */
suite('behind PgBouncer in transaction mode', () => {
  const bouncer = new TestPgBouncer({ poolSize: 3 });
  const stack = new DispatchStack();
  const { push, sms } = stack;
  let alerts: RunningService<unknown> | undefined;
  let pooled = '';
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    assertCompiledDispatcher();
    await stack.start();
    await bouncer.start();
    pooled = bouncer.urlFor(stack.db.url);
  });

  afterAll(async () => {
    for (const c of children) if (c.exitCode === null && c.signalCode === null) c.kill('SIGKILL');
    await alerts?.close();
    await bouncer.stop(); // it holds server connections to the database the stack drops
    await stack.close();
  });

  const call = jsonClient(() => alerts!.url);
  const sentCount = async (alertId: string) =>
    (await stack.db.query(`SELECT count(*)::int AS n FROM alerts.alert_deliveries WHERE alert_id = $1 AND status = 'sent'`, [alertId]))[0].n as number;

  it('migrates over the direct URL: two migrators at once, every schema, and the lock released', async () => {
    const vars = { DATABASE_URL: pooled, DATABASE_DIRECT_URL: stack.db.url };
    const [a, b] = await Promise.all([migrate(vars), migrate(vars)]);
    expect([a.code, b.code]).toEqual([0, 0]);
    expect(a.out + b.out).toMatch(/identity: (applied|up to date)/);
    const schemas = await stack.db.query<{ s: string }>(`SELECT table_schema AS s FROM information_schema.tables WHERE table_name = 'migrations' ORDER BY 1`);
    expect(schemas.map((r) => r.s)).toEqual(['alerts', 'identity', 'incidents', 'store', 'traffic']);
    const [{ n }] = await stack.db.query(
      `SELECT count(*)::int AS n FROM pg_locks l JOIN pg_database d ON d.oid = l.database
       WHERE l.locktype = 'advisory' AND d.datname = $1 AND l.objid = $2`,
      [stack.db.name, MIGRATION_LOCK_KEY],
    );
    expect(n).toBe(0);
  });

  it('sends an alert through PgBouncer, killed and restarted mid fan-out: nothing lost, repeats bounded; the CSV cursor streams', async () => {
    const vars = { ...stack.vars, DATABASE_URL: pooled };
    alerts = await startTestService(alertsService, vars);
    const users = await stack.pushAndSmsPeople(call, USERS, { tag: 'pgbouncer', phonePrefix: '520557', alertTypes: ['weather'] });
    const admin = await stack.identity.token({ role: 'admin' });

    const worker = startCompiledDispatcher({
      ...vars,
      ...QUICK_RECOVERY_DISPATCHER,
      CHANNEL_CONCURRENCY: '2',
      CHANNEL_RETRY_BASE_MS: '200',
    });
    children.push(worker.child);
    await worker.ready;

    push.delayMs = 150;
    const { status, body: alert } = await call<AdminAlert>('POST', '', admin, {
      title: 'Flash flood warning',
      message: 'Avoid the washes along Tanque Verde Road.',
      category: 'weather',
      severity: 'high',
      channels: ['push', 'sms'],
      everyone: true,
    });
    expect(status).toBe(201);
    const pushesOf = () => push.received.filter((r) => r.payload?.alertId === alert.id);
    await waitFor('the fan-out to be under way', async () => pushesOf().length >= 4);

    await bouncer.restart();
    expect(await sentCount(alert.id)).toBeLessThan(USERS * 2); // really interrupted mid fan-out

    await waitFor('every delivery to be sent', async () => (await sentCount(alert.id)) === USERS * 2, 90_000);
    const rows = await stack.db.query<{ id: string; channel: string; status: string }>(
      `SELECT id, channel, status FROM alerts.alert_deliveries WHERE alert_id = $1`,
      [alert.id],
    );
    expect(rows).toHaveLength(USERS * 2);

    // every subscriber pushed under its delivery's key; a repeat only for a batch whose outcome the abort lost
    const byKey = new Map<string, string[]>();
    for (const r of pushesOf().filter((x) => x.status === 201)) byKey.set(r.idempotencyKey!, [...(byKey.get(r.idempotencyKey!) ?? []), r.subscriptionId]);
    expect([...byKey.keys()].sort()).toEqual(
      rows
        .filter((r) => r.channel === 'push')
        .map((r) => r.id)
        .sort(),
    );
    expect(new Set([...byKey.values()].flat())).toEqual(new Set(users.map((u) => u.subscriptionId)));
    const pushRepeats = [...byKey.values()].reduce((n, subs) => n + subs.length - 1, 0);
    expect(pushRepeats).toBeLessThanOrEqual(2 * 3); // at most the batches in flight (CHANNEL_CONCURRENCY x PUSH_BATCH_SIZE)
    const phones = sms.received.filter((c) => c.idempotencyKey?.startsWith(`sms:${alert.id}:`)).flatMap((c) => c.body.recipients as string[]);
    expect([...new Set(phones)].sort()).toEqual(users.map((u) => u.phone).sort());
    expect(phones.length - new Set(phones).size).toBeLessThanOrEqual(2 * 3);

    // the per-recipient report streams through a cursor inside its transaction, through PgBouncer
    const csv = await fetch(`${alerts!.url}/${alert.id}/deliveries.csv`, { headers: { authorization: `Bearer ${admin}` } });
    expect(csv.status).toBe(200);
    const lines = (await csv.text()).trim().split(/\r?\n/);
    expect(lines).toHaveLength(1 + USERS * 2);

    worker.child.kill('SIGTERM');
    expect(await worker.exited).toBe(0);
  });
});
