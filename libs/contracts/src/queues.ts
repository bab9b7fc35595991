/**
 * The one typed job map. Enqueue only through these names and payloads.
 * Queue name VALUES never change once shipped: jobs in flight under an old name would stall.
 */
import type { DeliveryChannel } from './alert-vocabulary';

export enum QueueName {
  /** alert.dispatch: eligibility + fan-out of one alert */
  AlertDispatch = 'alert-dispatch',
  /** push.send: one batch of web-push deliveries */
  Push = 'channel-push',
  /** sms.send: one batch of SMS recipients, one webhook call */
  Sms = 'channel-sms',
  /** email.send: one batch of e-mails */
  Email = 'channel-email',
  /** voice.send: one batch of phone calls (issue #39) */
  Voice = 'channel-voice',
  /** Domain events the alerts service consumes (incident.verified creates a draft alert). */
  AlertsInbox = 'alerts-inbox',
  /** Domain events the incidents service consumes (points, moderation). */
  IncidentsInbox = 'incidents-inbox',
  /** Scheduled pulls from the 511-style traffic source. */
  TrafficIngest = 'traffic-ingest',
}

export enum JobName {
  AlertDispatch = 'alert.dispatch',
  /** The fan-out of an alert's new version (an update, or the all-clear) to the people concerned. */
  AlertRevise = 'alert.revise',
  AlertExpire = 'alert.expire',
  PushSend = 'push.send',
  SmsSend = 'sms.send',
  EmailSend = 'email.send',
  VoiceSend = 'voice.send',
  IncidentCreated = 'incident.created',
  IncidentVerified = 'incident.verified',
  PostCreated = 'post.created',
  CommentCreated = 'comment.created',
  PostLiked = 'post.liked',
  TrafficIngest = 'traffic.ingest',
  /** One poll of one CAP source whose fetch is due (issue 23). */
  CapSourcePoll = 'cap-source.poll',
}

export interface ChannelBatch {
  alertId: string;
  channel: DeliveryChannel;
  /** Deterministic batch number: the job id is `<channel>:<alertId>:<batch>`. */
  batch: number;
  /** Delivery row ids in this batch. */
  deliveryIds: string[];
  /**
   * The rows were held (quiet hours or a digest frequency) and go out now, at their release time: the same
   * users' other held deliveries on this channel that are due join them in one digest message per user.
   */
  held?: boolean;
}

export interface IncidentEvent {
  incidentId: string;
  type: string;
  reportedBy: string;
  lat: number;
  lng: number;
  locationName?: string | null;
  description: string;
  occurredAt: string;
}

/** Payload of each job, by job name. */
export interface JobPayloads {
  [JobName.AlertDispatch]: { alertId: string; requestedAt: string };
  [JobName.AlertRevise]: { alertId: string; version: number };
  [JobName.AlertExpire]: Record<string, never>;
  [JobName.PushSend]: ChannelBatch;
  [JobName.SmsSend]: ChannelBatch;
  [JobName.EmailSend]: ChannelBatch;
  [JobName.VoiceSend]: ChannelBatch;
  [JobName.IncidentCreated]: IncidentEvent;
  [JobName.IncidentVerified]: IncidentEvent & { verifiedBy: string | null; autoApproved: boolean }; // verifiedBy null: auto-approved
  [JobName.PostCreated]: { postId: string; userId: string };
  [JobName.CommentCreated]: { commentId: string; postId: string; userId: string; postAuthorId: string };
  [JobName.PostLiked]: { postId: string; userId: string; postAuthorId: string; liked: boolean };
  [JobName.TrafficIngest]: { reason: 'schedule' | 'manual' };
  [JobName.CapSourcePoll]: { sourceId: string };
}

/** Which queue carries each job. */
export const JOB_QUEUE: { [J in JobName]: QueueName } = {
  [JobName.AlertDispatch]: QueueName.AlertDispatch,
  [JobName.AlertRevise]: QueueName.AlertDispatch,
  [JobName.AlertExpire]: QueueName.AlertDispatch,
  [JobName.PushSend]: QueueName.Push,
  [JobName.SmsSend]: QueueName.Sms,
  [JobName.EmailSend]: QueueName.Email,
  [JobName.VoiceSend]: QueueName.Voice,
  [JobName.IncidentCreated]: QueueName.IncidentsInbox,
  [JobName.IncidentVerified]: QueueName.AlertsInbox,
  [JobName.PostCreated]: QueueName.IncidentsInbox,
  [JobName.CommentCreated]: QueueName.IncidentsInbox,
  [JobName.PostLiked]: QueueName.IncidentsInbox,
  [JobName.TrafficIngest]: QueueName.TrafficIngest,
  [JobName.CapSourcePoll]: QueueName.AlertsInbox,
};

/**
 * BullMQ key prefix for every queue. Producers and workers MUST use it (BullMQ ignores ioredis keyPrefix),
 * or jobs go to keys nobody watches.
 */
export const queuePrefix = (redisPrefix: string) => `${redisPrefix}:bull`;

/**
 * The same on a Redis Cluster: a hash tag (`{beacon}:bull`), because BullMQ's scripts touch several keys of a queue at
 * once, which a cluster allows only within one hash slot.
 */
export const clusterQueuePrefix = (redisPrefix: string) => queuePrefix(`{${redisPrefix}}`);

/**
 * Deterministic job ids where a duplicate would be harmful: adding a job whose id exists is a no-op.
 * (BullMQ refuses custom ids with exactly one ':' — hence `dispatch-<alertId>` — but accepts three parts.)
 */
export const JobIds = {
  dispatch: (alertId: string) => `dispatch-${alertId}`,
  revise: (alertId: string, version: number) => `revise-${alertId}-${version}`,
  channelBatch: (channel: DeliveryChannel, alertId: string, batch: number) => `${channel}:${alertId}:${batch}`,
  /** A voice delivery dialled again after no answer or busy: one job per delivery and attempt. */
  voiceRedial: (alertId: string, deliveryId: string, attempt: number) => `voice:${alertId}:redial-${deliveryId}-${attempt}`,
  /** One poll per source and due time: every replica's scheduler may add it, one runs. */
  capPoll: (sourceId: string, dueAt: Date) => `cap-poll-${sourceId}-${dueAt.getTime()}`,
};

export type JobItem = { [J in JobName]: { name: J; data: JobPayloads[J] } }[JobName];

/** The custom backoff type of DEFAULT_JOB_OPTIONS, computed by retryDelayMs (workers register it as settings.backoffStrategy). */
export const RETRY_BACKOFF = 'retry-after';

/** A provider's Retry-After is honoured up to this; a longer one is treated as this long. */
export const RETRY_AFTER_MAX_MS = 10 * 60_000;

/** The exponential delay stops growing here, unless a worker sets its own cap (the dispatcher's is configurable). */
export const RETRY_DELAY_MAX_MS = 5 * 60_000;

/**
 * The delay before retry `attemptsMade` (1 for the first retry): what the failure asked for when it carries a
 * provider's Retry-After (`retryAfterMs`, capped at RETRY_AFTER_MAX_MS), else exponential from `baseDelayMs`
 * (1 s, 2 s, 4 s, ...), as BullMQ's own 'exponential', up to `maxDelayMs`.
 */
export function retryDelayMs(attemptsMade: number, err: unknown, baseDelayMs: number, maxDelayMs = RETRY_DELAY_MAX_MS): number {
  const asked = (err as { retryAfterMs?: unknown } | null | undefined)?.retryAfterMs;
  if (typeof asked === 'number' && Number.isFinite(asked) && asked >= 0) return Math.min(asked, RETRY_AFTER_MAX_MS);
  return Math.min(Math.round(2 ** Math.min(30, Math.max(0, attemptsMade - 1)) * baseDelayMs), maxDelayMs);
}

/** One retry policy for every queue: exponential backoff or the provider's Retry-After, finished jobs removed, failed ones kept a while. */
export const DEFAULT_JOB_OPTIONS = {
  attempts: 6,
  backoff: { type: RETRY_BACKOFF, delay: 1000 },
  removeOnComplete: true,
  removeOnFail: { age: 7 * 24 * 3600, count: 10000 },
};
