import { ChannelBatch, DeliveryChannel, JobIds, JobName, RETRY_BACKOFF } from '@beacon/contracts';
import { TypedJob } from '@beacon/common';
import type { DispatcherEnv } from '../config/dispatcher-env.dto';
import type { BatchPlan } from './deliveries.repository';

const CHANNEL_JOB: Record<DeliveryChannel, JobName.PushSend | JobName.SmsSend | JobName.EmailSend | JobName.VoiceSend> = {
  push: JobName.PushSend,
  sms: JobName.SmsSend,
  email: JobName.EmailSend,
  voice: JobName.VoiceSend,
};

/**
 * Attempts of a channel job: in effect no limit. How long a delivery is retried is decided by its alert (an ended
 * alert's deliveries are cancelled) and by CHANNEL_RETRY_WINDOW_MINUTES (ChannelBatchRunner), not by a count that
 * ran out after half a minute of a provider outage.
 */
const CHANNEL_JOB_ATTEMPTS = 1_000_000;

/** The retry policy of every channel batch job, however it was queued (dispatch, release of held deliveries, recovery). */
const channelJobOptions = (env: Pick<DispatcherEnv, 'CHANNEL_RETRY_BASE_MS'>) => ({
  attempts: CHANNEL_JOB_ATTEMPTS,
  backoff: { type: RETRY_BACKOFF, delay: env.CHANNEL_RETRY_BASE_MS },
});

/**
 * The channel job of one planned batch, under the batch's deterministic id: held rows go out at their release
 * (delayed until then, and marked held so they gather the user's other due deliveries into a digest). The dispatch,
 * a version's fan-out, an operator's actions and the sweep's re-drive of stranded deliveries build it here, so a
 * batch is the same job whoever queues it, and an add while that job exists is a no-op.
 */
export function channelBatchJob(alertId: string, b: BatchPlan, env: Pick<DispatcherEnv, 'CHANNEL_RETRY_BASE_MS'>, now = Date.now()): TypedJob {
  const data: ChannelBatch = { alertId, channel: b.channel, batch: b.batch, deliveryIds: b.ids, ...(b.notBefore ? { held: true } : {}) };
  const delay = b.notBefore ? Math.max(0, new Date(b.notBefore).getTime() - now) : 0;
  return { name: CHANNEL_JOB[b.channel], data, opts: { ...channelJobOptions(env), jobId: JobIds.channelBatch(b.channel, alertId, b.batch), delay } };
}
