/** Every Socket.IO event, typed on both ends (gateway and web). */
import type { AlertProgress, AlertSummary } from './alerts';
import type { Language } from './languages';

/** Redis key (under the service's key prefix) of an alert's latest progress, for admins who start watching late. */
export const progressCacheKey = (alertId: string) => `alert-progress:${alertId}`;

export const Rooms = {
  user: (id: string) => `user:${id}`,
  admins: 'admins',
  public: 'public',
} as const;

/**
 * The Socket.IO Redis adapter/emitter key (channel prefix). The gateway's adapter and every emitter MUST
 * use it: pub/sub channels do not get ioredis' keyPrefix.
 */
export const socketIoKey = (redisPrefix: string) => `${redisPrefix}:socket.io`;

export interface CommunityPostEvent {
  id: string;
  title: string;
  category: string;
  userId: string;
  createdAt: string;
}

export interface CommunityCommentEvent {
  id: string;
  postId: string;
  parentId: string | null;
  userId: string;
  content: string;
  createdAt: string;
}

/**
 * An alert as a user's screen is told of it: its title, message and all-clear in the language of the user's
 * preferences when it has one (`language` says which; absent on the admins' events, which carry the English).
 */
export type ReaderAlertEvent = AlertSummary & { language?: Language };

/** The alert:new payload: the alert, and whether its messages to this user are held. */
export type NewAlertEvent = ReaderAlertEvent & { held?: boolean };

/** Server to client. */
export interface ServerToClientEvents {
  /**
   * A new active alert that concerns this user (user room) or any new alert (admins room). `held` is true when
   * every message of it to this user waits (quiet hours, digest frequency, quiet weekend): the open screen lists it
   * but neither notifies nor speaks it.
   */
  'alert:new': (alert: NewAlertEvent) => void;
  /** Alert status changed (cancelled, expired). */
  'alert:updated': (alert: ReaderAlertEvent) => void;
  /** Aggregated delivery progress of one alert, a few times a second while it dispatches (admins room). */
  'alert:progress': (progress: AlertProgress) => void;
  /** A verified incident for the public map (public room). */
  'incident:verified': (incident: { id: string; type: string; lat: number; lng: number; createdAt: string }) => void;
  /** A new incident report waiting for moderation (admins room). */
  'incident:reported': (incident: { id: string; type: string; status: string; createdAt: string }) => void;
  'community:post': (post: CommunityPostEvent) => void;
  'community:comment': (comment: CommunityCommentEvent) => void;
}

/** Client to server. */
export interface ClientToServerEvents {
  /** Ask to watch one alert's progress (admins only). */
  'alert:watch': (alertId: string) => void;
}
