import { ChannelBatch, DeliveryChannel, JobIds, JobName } from '@beacon/contracts';
import { TypedJob } from '@beacon/common';
import type { BatchPlan } from '../deliveries/deliveries.repository';
import { channelJobOptions } from '../channels/channel-jobs';
import type { DispatcherEnv } from '../config/dispatcher-env.dto';

const CHANNEL_JOB: Record<DeliveryChannel, JobName.PushSend | JobName.SmsSend | JobName.EmailSend> = {
  push: JobName.PushSend,
  sms: JobName.SmsSend,
  email: JobName.EmailSend,
};

/**
 * The channel job of one planned batch, under the batch's deterministic id: held rows go out at their release
 * (delayed until then, and marked held so they gather the user's other due deliveries into a digest). The dispatch
 * and the sweep's re-drive of stranded deliveries build it here, so a batch is the same job whoever queues it, and
 * an add while that job exists is a no-op.
 */
export function channelBatchJob(alertId: string, b: BatchPlan, env: Pick<DispatcherEnv, 'CHANNEL_RETRY_BASE_MS'>, now = Date.now()): TypedJob {
  const data: ChannelBatch = { alertId, channel: b.channel, batch: b.batch, deliveryIds: b.ids, ...(b.notBefore ? { held: true } : {}) };
  const delay = b.notBefore ? Math.max(0, new Date(b.notBefore).getTime() - now) : 0;
  return { name: CHANNEL_JOB[b.channel], data, opts: { ...channelJobOptions(env), jobId: JobIds.channelBatch(b.channel, alertId, b.batch), delay } };
}
