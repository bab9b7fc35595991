import type { DeliveryChannel } from '@beacon/contracts';
import { ValidateBy } from 'class-validator';
import { boolRule, intRule, portRule, Rules } from '@beacon/common';
import { AlertsDeliveryEnv } from './delivery-env';

/**
 * On top of the longest channel job before its deliveries count as stranded: the reads before a batch's sends start
 * and the write of their outcomes after they stop.
 */
export const REDRIVE_MARGIN_SECONDS = 5;

/** Time to close connections after the last job, on top of the longest channel job. */
const SHUTDOWN_MARGIN_SECONDS = 10;

export class DispatcherEnv extends AlertsDeliveryEnv {
  @Rules(...portRule('DISPATCHER_PORT'))
  DISPATCHER_PORT: number = 3006;

  /** SMTP connections each worker process keeps open (pooled), and so the e-mails it sends at once. */
  @Rules(...intRule('EMAIL_MAX_CONNECTIONS', 1, 100))
  EMAIL_MAX_CONNECTIONS: number = 5;

  /**
   * Deliveries per channel job. SMS batches are also the recipients of one webhook call. Push: 500 took the 1M benchmark
   * from 41-44 s to 37-38 s against 250 (fewer claims, look-ups and jobs for the same sends); 750 and 1,000 gained nothing more.
   */
  @Rules(...intRule('PUSH_BATCH_SIZE', 1, 5000))
  PUSH_BATCH_SIZE: number = 500;

  @Rules(...intRule('SMS_BATCH_SIZE', 1, 5000))
  SMS_BATCH_SIZE: number = 500;

  @Rules(...intRule('EMAIL_BATCH_SIZE', 1, 1000))
  EMAIL_BATCH_SIZE: number = 50;

  /** Phone calls per voice job: one provider call each, so smaller batches spread a large audience over the workers. */
  @Rules(...intRule('VOICE_BATCH_SIZE', 1, 1000))
  VOICE_BATCH_SIZE: number = 50;

  /**
   * The batch sizes a dispatch plans with: `recorded` (the sizes an alert's dispatch used, alerts.batch_sizes) where it
   * has them, so a re-plan cuts the same batches, and this process's own for channels it lacks (voice, before #39).
   */
  batchSizes(recorded?: Partial<Record<DeliveryChannel, number>> | null): Record<DeliveryChannel, number> {
    return { push: this.PUSH_BATCH_SIZE, sms: this.SMS_BATCH_SIZE, email: this.EMAIL_BATCH_SIZE, voice: this.VOICE_BATCH_SIZE, ...recorded };
  }

  /** Concurrent statements (database connections) that write one alert's delivery rows, each for a range of users. */
  @Rules(...intRule('DISPATCH_INSERT_PARTS', 1, 8))
  DISPATCH_INSERT_PARTS: number = 2;

  /** Channel jobs each worker process runs at once, per queue. */
  @Rules(...intRule('CHANNEL_CONCURRENCY', 1, 256))
  CHANNEL_CONCURRENCY: number = 8;

  /**
   * A push endpoint that failed this many times in a row (no success between), the first failure at least
   * PUSH_RETIRE_HOURS ago, is removed: a browser long gone should not cost every alert a request.
   */
  @Rules(...intRule('PUSH_RETIRE_FAILURES', 1, 1000))
  PUSH_RETIRE_FAILURES: number = 5;

  @Rules(...intRule('PUSH_RETIRE_HOURS', 1, 720))
  PUSH_RETIRE_HOURS: number = 24;

  /** Push requests in flight per push job (keep-alive connections are reused across them). */
  @Rules(...intRule('PUSH_REQUEST_CONCURRENCY', 1, 1000))
  PUSH_REQUEST_CONCURRENCY: number = 64;

  /**
   * Keep-alive connections each worker process opens to one push service (requests beyond wait for a free one).
   * Over HTTP/2 one session carries many streams; another is opened only when the server's stream limit is reached.
   */
  @Rules(...intRule('PUSH_MAX_SOCKETS', 1, 4096))
  PUSH_MAX_SOCKETS: number = 128;

  /** HTTP/2 to https push services that offer it (about half the CPU per request of HTTP/1.1 over TLS); false keeps HTTP/1.1 everywhere. */
  @Rules(...boolRule('PUSH_HTTP2'))
  PUSH_HTTP2: boolean = true;

  @Rules(...intRule('PUSH_TIMEOUT_MS', 100, 120000))
  PUSH_TIMEOUT_MS: number = 10000;

  /** How long a job's lock lasts; a killed worker's jobs are taken over after about this long. */
  @Rules(...intRule('JOB_LOCK_MS', 1000, 600000))
  JOB_LOCK_MS: number = 30000;

  /**
   * How long one channel batch may keep starting sends. Past it, the batch's deliveries not yet started stay
   * pending (not failed, no attempt counted) and the job is re-queued for them; a send already started gets
   * CHANNEL_SEND_GRACE_SECONDS more, then counts as a transient failure with an unknown outcome (retried under
   * the same idempotency key). So the longest channel job is about the sum, 60 + 30 = 90 s with the defaults,
   * within the deployment's SHUTDOWN_GRACE_SECONDS (120): without it an email batch of 50 over 5 connections
   * with 30 s socket time-outs could run some 300 s.
   */
  @Rules(...intRule('CHANNEL_BATCH_DEADLINE_SECONDS', 1, 600))
  CHANNEL_BATCH_DEADLINE_SECONDS: number = 60;

  /** See CHANNEL_BATCH_DEADLINE_SECONDS; at least the SMTP socket time-out (30 s) and the SMS webhook time-out (30 s). */
  @Rules(...intRule('CHANNEL_SEND_GRACE_SECONDS', 1, 300))
  CHANNEL_SEND_GRACE_SECONDS: number = 30;

  /**
   * A worker told to stop finishes the channel job it is running (at most CHANNEL_BATCH_DEADLINE_SECONDS +
   * CHANNEL_SEND_GRACE_SECONDS) before it exits; cut short, that job is taken over and its sends in flight repeated.
   * So the dispatcher's grace is longer than other services' and must outlast that bound.
   */
  @OutlastsChannelJob('SHUTDOWN_GRACE_SECONDS', SHUTDOWN_MARGIN_SECONDS, 'so a worker told to stop finishes its channel job')
  override SHUTDOWN_GRACE_SECONDS: number = 120;

  /**
   * A delivery that failed transiently (provider down, network) is retried for as long as its alert is in effect,
   * but no longer than this after its batch came due; then it fails for good and an operator may send it again.
   */
  @Rules(...intRule('CHANNEL_RETRY_WINDOW_MINUTES', 1, 10080))
  CHANNEL_RETRY_WINDOW_MINUTES: number = 1440;

  /** The first retry's delay; each next one doubles, up to CHANNEL_RETRY_MAX_DELAY_SECONDS (a provider's Retry-After wins). */
  @Rules(...intRule('CHANNEL_RETRY_BASE_MS', 10, 60000))
  CHANNEL_RETRY_BASE_MS: number = 1000;

  @Rules(...intRule('CHANNEL_RETRY_MAX_DELAY_SECONDS', 1, 3600))
  CHANNEL_RETRY_MAX_DELAY_SECONDS: number = 300;

  /**
   * Seconds between sweeps that expire alerts and re-queue dispatches and deliveries whose jobs were lost. Each
   * dispatcher also checks this often that the sweep's scheduler is still in Redis (see JobSchedules).
   */
  @Rules(...intRule('SWEEP_INTERVAL_SECONDS', 1, 3600))
  SWEEP_INTERVAL_SECONDS: number = 30;

  /**
   * A delivery of an active, dispatched alert still pending (and due) or sending with no change for this long has
   * lost its channel job (a Redis that lost its data, a dead worker): the sweep queues its batch again (see
   * StrandedDeliveries). Longer than the longest channel job, so rows a live worker is sending are never taken from it.
   */
  @OutlastsChannelJob('REDRIVE_AFTER_SECONDS', REDRIVE_MARGIN_SECONDS, 'so deliveries a live worker is sending are not queued again')
  @Rules(...intRule('REDRIVE_AFTER_SECONDS', 1, 86400))
  REDRIVE_AFTER_SECONDS: number = 300;
}

/** The longest a channel job runs (see CHANNEL_BATCH_DEADLINE_SECONDS). */
export const channelJobBoundSeconds = (env: Pick<DispatcherEnv, 'CHANNEL_BATCH_DEADLINE_SECONDS' | 'CHANNEL_SEND_GRACE_SECONDS'>) =>
  env.CHANNEL_BATCH_DEADLINE_SECONDS + env.CHANNEL_SEND_GRACE_SECONDS;

/** The variable must be at least the longest channel job plus `margin` seconds, and the message says why. */
function OutlastsChannelJob(name: string, margin: number, why: string): PropertyDecorator {
  const least = (env: object) => channelJobBoundSeconds(env as DispatcherEnv) + margin;
  return ValidateBy({
    name: `outlastsChannelJob:${name}`,
    validator: {
      validate: (value: unknown, args) => typeof value === 'number' && value >= least(args!.object),
      defaultMessage: (args) =>
        `${name} must be at least CHANNEL_BATCH_DEADLINE_SECONDS + CHANNEL_SEND_GRACE_SECONDS + ${margin} (${least(args!.object)}), ${why}`,
    },
  });
}
