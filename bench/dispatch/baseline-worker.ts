/**
 * The naive baseline the benchmark compares Beacon's dispatch with, as a straightforward first version would
 * be written: load every preference row and filter in JavaScript, one queue job per delivery, the web-push
 * library with its defaults (a VAPID JWT signed, and a key pair made, for every message; https.globalAgent),
 * one SMS webhook call per recipient, one Twilio Calls request per voice recipient, and one UPDATE per delivery. It runs as separate worker processes on the
 * same queue system, database and fake providers as Beacon, over the same data.
 * Not production code: it exists to be measured against.
 */
import { Job, Queue, Worker } from 'bullmq';
import { Pool } from 'pg';
import webpush from 'web-push';
import { priorityOfSeverity, queuePrefix } from '@beacon/contracts';
import { isEligible } from '@beacon/geo';

export const BASELINE_QUEUE = 'bench-naive';
export const BASELINE_JOB_OPTIONS = { attempts: 3, backoff: { type: 'exponential' as const, delay: 1000 }, removeOnComplete: true, removeOnFail: 1000 };

/** A structured line the benchmark reads from stdout. */
const log = (msg: string, extra: Record<string, unknown> = {}) => process.stdout.write(`${JSON.stringify({ time: Date.now(), msg, ...extra })}\n`);

async function main() {
  const env = process.env;
  const pool = new Pool({ connectionString: env.DATABASE_URL, max: 20 });
  const connection = { url: env.REDIS_URL, maxRetriesPerRequest: null } as never;
  const prefix = queuePrefix(env.REDIS_PREFIX!);
  const queue = new Queue(BASELINE_QUEUE, { connection, prefix });
  const [keys] = (await pool.query(`SELECT vapid_public_key, vapid_private_key FROM alerts.server_keys WHERE id = 1`)).rows;
  const vapidDetails = { subject: env.VAPID_SUBJECT ?? 'mailto:alerts@beacon.local', publicKey: keys.vapid_public_key, privateKey: keys.vapid_private_key };
  const [twilio] = (await pool.query(`SELECT twilio_account_sid, twilio_auth_token, twilio_from FROM alerts.admin_settings WHERE id = 1`)).rows;

  async function dispatch(alertId: string) {
    const t0 = Date.now();
    const [alert] = (await pool.query(`SELECT * FROM alerts.alerts WHERE id = $1`, [alertId])).rows;
    const prefs = (await pool.query(`SELECT * FROM alerts.user_preferences`)).rows;
    const subscribed = new Set((await pool.query(`SELECT user_id FROM alerts.push_subscriptions`)).rows.map((r) => r.user_id));
    const t1 = Date.now();
    const users: string[] = [];
    const channels: string[] = [];
    for (const p of prefs) {
      const eligible = isEligible(
        { severity: alert.severity, category: alert.category, lat: alert.lat, lng: alert.lng, radiusKm: alert.radius_km },
        { severityThreshold: p.severity_threshold, categories: p.categories, lat: p.lat, lng: p.lng, radiusKm: p.radius_km },
      );
      if (!eligible) continue;
      if (alert.channels.includes('push') && p.push_enabled && subscribed.has(p.user_id)) (users.push(p.user_id), channels.push('push'));
      if (alert.channels.includes('sms') && p.sms_enabled && p.phone_number) (users.push(p.user_id), channels.push('sms'));
      if (alert.channels.includes('voice') && p.voice_enabled && p.phone_number) (users.push(p.user_id), channels.push('voice'));
    }
    const t2 = Date.now();
    log('baseline filtered', { alertId, loadMs: t1 - t0, filterMs: t2 - t1, deliveries: users.length, preferenceRows: prefs.length });
    let first = 0;
    for (let i = 0; i < users.length; i += 1000) {
      const ids = (
        await pool.query(
          `INSERT INTO alerts.alert_deliveries (alert_id, user_id, channel) SELECT $1, u, c FROM unnest($2::uuid[], $3::text[]) AS x(u, c) RETURNING id`,
          [alertId, users.slice(i, i + 1000), channels.slice(i, i + 1000)],
        )
      ).rows;
      await queue.addBulk(ids.map((r) => ({ name: 'deliver', data: { deliveryId: r.id }, opts: BASELINE_JOB_OPTIONS })));
      if (!first) first = Date.now();
    }
    await pool.query(
      `UPDATE alerts.alerts SET dispatched_at = now(), recipients = (SELECT count(DISTINCT user_id) FROM alerts.alert_deliveries WHERE alert_id = $1) WHERE id = $1`,
      [alertId],
    );
    log('baseline queued', { alertId, firstQueuedMs: first - t0, queuedMs: Date.now() - t2 });
  }

  async function deliver(deliveryId: string) {
    const [d] = (
      await pool.query(
        `SELECT d.id, d.user_id, d.channel, a.id AS alert_id, a.title, a.message, a.type, a.severity, a.location_name, a.created_at
       FROM alerts.alert_deliveries d JOIN alerts.alerts a ON a.id = d.alert_id WHERE d.id = $1`,
        [deliveryId],
      )
    ).rows;
    if (d.channel === 'push') {
      const subs = (await pool.query(`SELECT endpoint, p256dh, auth FROM alerts.push_subscriptions WHERE user_id = $1`, [d.user_id])).rows;
      for (const s of subs) {
        await webpush.sendNotification(
          { endpoint: s.endpoint, keys: { p256dh: s.p256dh, auth: s.auth } },
          JSON.stringify({ alertId: d.alert_id, deliveryId: d.id, title: d.title, body: d.message, severity: d.severity }),
          { vapidDetails, TTL: 3600 },
        );
      }
    } else if (d.channel === 'voice') {
      const [p] = (await pool.query(`SELECT phone_number FROM alerts.user_preferences WHERE user_id = $1`, [d.user_id])).rows;
      const say = `${d.title}. ${d.message}. Location: ${d.location_name}.`.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;');
      const res = await fetch(`${env.TWILIO_API_URL}/2010-04-01/Accounts/${twilio.twilio_account_sid}/Calls.json`, {
        method: 'POST',
        headers: {
          authorization: `Basic ${Buffer.from(`${twilio.twilio_account_sid}:${twilio.twilio_auth_token}`).toString('base64')}`,
          'content-type': 'application/x-www-form-urlencoded',
        },
        body: new URLSearchParams({
          To: p.phone_number,
          From: twilio.twilio_from,
          Twiml: `<Response><Say>${say}</Say><Say>${say}</Say></Response>`,
        }).toString(),
      });
      await res.text();
      if (!res.ok) throw new Error(`Twilio answered ${res.status}`);
    } else {
      const [p] = (await pool.query(`SELECT phone_number FROM alerts.user_preferences WHERE user_id = $1`, [d.user_id])).rows;
      const res = await fetch(env.SMS_WEBHOOK_URL!, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          type: d.type,
          title: d.title,
          message: d.message,
          priority: priorityOfSeverity(d.severity),
          recipients: [p.phone_number],
          timestamp: new Date(d.created_at).toISOString(),
          source: 'beacon',
        }),
      });
      await res.text();
      if (!res.ok) throw new Error(`SMS webhook answered ${res.status}`);
    }
    await pool.query(`UPDATE alerts.alert_deliveries SET status = 'sent', attempts = attempts + 1, sent_at = now(), updated_at = now() WHERE id = $1`, [
      deliveryId,
    ]);
  }

  const worker = new Worker(BASELINE_QUEUE, (job: Job) => (job.name === 'dispatch' ? dispatch(job.data.alertId) : deliver(job.data.deliveryId)), {
    connection,
    prefix,
    concurrency: Number(env.BASELINE_CONCURRENCY ?? 50),
  });
  worker.on('failed', (job, err) => log('baseline job failed', { job: job?.id, error: err.message }));
  await worker.waitUntilReady();
  log('baseline worker listening on http://127.0.0.1/ (queue only)');
  const stop = async () => {
    await worker.close();
    await queue.close();
    await pool.end();
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

if (require.main === module) {
  void main().catch((e) => {
    log(`baseline worker failed: ${(e as Error).stack}`);
    process.exit(1);
  });
}
