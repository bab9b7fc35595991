import { RETRY_BACKOFF } from '@beacon/contracts';
import type { DispatcherEnv } from '../config/dispatcher-env.dto';

/**
 * Attempts of a channel job: in effect no limit. How long a delivery is retried is decided by its alert (an ended
 * alert's deliveries are cancelled) and by CHANNEL_RETRY_WINDOW_MINUTES (ChannelBatchRunner), not by a count that
 * ran out after half a minute of a provider outage.
 */
const CHANNEL_JOB_ATTEMPTS = 1_000_000;

/** The retry policy of every channel batch job, however it was queued (dispatch, release of held deliveries, recovery). */
export const channelJobOptions = (env: Pick<DispatcherEnv, 'CHANNEL_RETRY_BASE_MS'>) => ({
  attempts: CHANNEL_JOB_ATTEMPTS,
  backoff: { type: RETRY_BACKOFF, delay: env.CHANNEL_RETRY_BASE_MS },
});
