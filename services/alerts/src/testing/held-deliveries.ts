import { Queue } from 'bullmq';
import { DeliveryChannel, JOB_QUEUE, JobName, queuePrefix } from '@beacon/contracts';
import { waitFor } from '@beacon/testing';
import type { DispatchStack } from './dispatch-stack';

const CHANNEL_JOB: Record<DeliveryChannel, JobName> = { push: JobName.PushSend, sms: JobName.SmsSend, email: JobName.EmailSend, voice: JobName.VoiceSend };

/**
 * Brings the release time of the alerts' held deliveries on `channels` forward to now, as the hour would: waits until
 * the dispatch (and every version's fan-out) has written them and queued their delayed jobs, makes them due and runs
 * those jobs at once. For the specs of something else than holds that send e-mail below critical, which the e-mail
 * digest (issue #40, EMAIL_DIGEST_FREQUENCY) holds to the next hour. Returns how many deliveries it released.
 */
export async function sendHeldNow(stack: DispatchStack, alertIds: string[], channels: DeliveryChannel[] = ['email']): Promise<number> {
  await waitFor('the alerts dispatched, every version fanned out', async () => {
    const [{ n }] = await stack.db.query<{ n: number }>(
      `SELECT count(*)::int AS n FROM alerts.alerts a WHERE a.id = ANY($1::uuid[]) AND a.dispatched_at IS NOT NULL
         AND NOT EXISTS (SELECT 1 FROM alerts.alert_versions v WHERE v.alert_id = a.id AND v.kind <> 'original' AND v.dispatched_at IS NULL)`,
      [alertIds],
    );
    return n === new Set(alertIds).size ? true : null;
  });
  const held = await stack.db.query<{ id: string }>(
    `SELECT id FROM alerts.alert_deliveries WHERE alert_id = ANY($1::uuid[]) AND channel = ANY($2::text[]) AND status = 'pending' AND not_before > now()`,
    [alertIds, channels],
  );
  if (!held.length) return 0;
  const ids = new Set(held.map((r) => r.id));
  const connection = { url: stack.redis.url } as never;
  const queues = [...new Set(channels.map((c) => JOB_QUEUE[CHANNEL_JOB[c]]))].map(
    (name) => new Queue(name, { connection, prefix: queuePrefix(stack.redis.prefix) }),
  );
  try {
    const jobs = await waitFor('their delayed jobs queued', async () => {
      const delayed = (await Promise.all(queues.map((q) => q.getDelayed()))).flat().filter((j) => (j.data.deliveryIds as string[]).some((id) => ids.has(id)));
      const covered = new Set(delayed.flatMap((j) => j.data.deliveryIds as string[]));
      return [...ids].every((id) => covered.has(id)) ? delayed : null;
    });
    await stack.db.query(`UPDATE alerts.alert_deliveries SET not_before = now() WHERE id = ANY($1::uuid[])`, [[...ids]]);
    // (a job another promotion, or its own time, has already started is left to run)
    for (const job of jobs) await job.promote().catch(() => undefined);
  } finally {
    await Promise.all(queues.map((q) => q.close()));
  }
  return ids.size;
}
