import type { AlertArea } from './alert-area';
import type { AlertTargetGroup, AudienceByTarget } from './contact-groups';
/**
 * The alert vocabulary, once. Beacon has ONE alert model (title, message, type, severity, category, location,
 * radius, expiry, channels, status, per-channel delivery summary). The spec's screens speak three dialects of
 * it: the wizard (severity + category), the admin single form (type + priority + web_push/sms channels) and
 * the preference screen (alert-type toggles, miles, notification methods). This file holds what is stored,
 * what each screen shows, and the mapping between them. Shared by services and the web app: no Node imports.
 */
import { isTranslationLanguage, type AlertTranslations, type Language, type TranslationLanguage } from './languages';
import { ALERT_CATEGORIES, SEVERITIES, type AlertCategory, type DeliveryChannel, type Severity } from './alert-vocabulary';

// ---------------------------------------------------------------- severity (stored) and priority (admin form)

/** 0 for low ... 3 for critical. */
export const severityRank = (s: Severity): number => SEVERITIES.indexOf(s);
/** True when `severity` is at or above `threshold` (equality counts). */
export const severityAtLeast = (severity: Severity, threshold: Severity): boolean => severityRank(severity) >= severityRank(threshold);

/** What a severity is called and means, in the words of the screens, the e-mails and the push texts. */
export interface SeverityInfo {
  label: string;
  description: string;
}

export const SEVERITY_INFO: Record<Severity, SeverityInfo> = {
  critical: { label: 'Critical', description: 'Immediate threat to life or safety: act now' },
  high: { label: 'High', description: 'Serious danger nearby: take precautions' },
  medium: { label: 'Medium', description: 'Be aware and stay alert' },
  low: { label: 'Low', description: 'For your information' },
};

/** The admin single form's priorities (spec: low, medium, high; default medium). */
export const PRIORITIES = ['low', 'medium', 'high'] as const;
export type Priority = (typeof PRIORITIES)[number];
export const DEFAULT_PRIORITY: Priority = 'medium';

/** The admin form's priority badge texts (their colours are the web app's, in its alert look). */
export const PRIORITY_LABELS: Record<Priority, string> = { low: 'LOW', medium: 'MEDIUM', high: 'HIGH' };

/**
 * What the console's priority badge and the history export say of an alert: its priority, except that a critical
 * alert (stored priority high) says CRITICAL, so that the most urgent alerts never read as merely high.
 */
export const LEVEL_LABELS: Record<Severity, string> = { ...PRIORITY_LABELS, critical: 'CRITICAL' };

/** A priority is stored as the severity of the same name. */
export const severityFromPriority = (p: Priority): Severity => p;
/** What the admin screens show for a stored severity: critical shows as the highest priority. */
export const priorityOfSeverity = (s: Severity): Priority => (s === 'critical' ? 'high' : s);

// ---------------------------------------------------------------- category (stored) and admin type

export const CATEGORY_LABELS: Record<AlertCategory, string> = {
  weather: 'Weather',
  traffic: 'Traffic',
  security: 'Security',
  public_safety: 'Public Safety',
  health: 'Health',
};

/** The admin single form's alert types (spec; default Emergency). */
export const ADMIN_ALERT_TYPES = ['Emergency', 'Weather', 'Amber Alert', 'Terror Alert', 'Traffic', 'Public Safety'] as const;
export type AdminAlertType = (typeof ADMIN_ALERT_TYPES)[number];
export const DEFAULT_ADMIN_ALERT_TYPE: AdminAlertType = 'Emergency';

/** The category an admin type is stored under (eligibility filters by category). */
export const ADMIN_TYPE_CATEGORY: Record<AdminAlertType, AlertCategory> = {
  Emergency: 'public_safety',
  Weather: 'weather',
  'Amber Alert': 'public_safety',
  'Terror Alert': 'security',
  Traffic: 'traffic',
  'Public Safety': 'public_safety',
};

/** The type shown for an alert created from a category alone (the wizard has no type field). */
export const CATEGORY_DEFAULT_TYPE: Record<AlertCategory, AdminAlertType> = {
  weather: 'Weather',
  traffic: 'Traffic',
  security: 'Terror Alert',
  public_safety: 'Public Safety',
  health: 'Emergency',
};

/** Any stored type string -> its category; unknown types (e.g. 'Test') fall back to public safety. */
export const categoryOfType = (type: string): AlertCategory => (ADMIN_TYPE_CATEGORY as Record<string, AlertCategory>)[type] ?? 'public_safety';

// ---------------------------------------------------------------- status

/**
 * `all_clear`: an admin gave the all-clear; the alert ended and everyone it reached was told. `scheduled`: it goes out
 * by itself at `sendAt`. `pending_approval`: the approval policy holds its send until a second person approves it.
 */
export const ALERT_STATUSES = ['draft', 'scheduled', 'pending_approval', 'active', 'expired', 'cancelled', 'all_clear'] as const;
export type AlertStatus = (typeof ALERT_STATUSES)[number];

export const ALERT_STATUS_LABELS: Record<AlertStatus, string> = {
  draft: 'Draft',
  scheduled: 'Scheduled',
  pending_approval: 'Awaiting approval',
  active: 'Active',
  expired: 'Expired',
  cancelled: 'Cancelled',
  all_clear: 'All Clear',
};

// ---------------------------------------------------------------- channels

export const CHANNEL_LABELS: Record<DeliveryChannel, string> = { push: 'Web Push', sms: 'SMS', email: 'Email', voice: 'Voice call' };

/** The admin single form's channel options (spec: web_push and sms; default web_push) and what they store. */
export const ADMIN_CHANNEL_OPTIONS = ['web_push', 'sms'] as const;
export type AdminChannelOption = (typeof ADMIN_CHANNEL_OPTIONS)[number];
export const ADMIN_CHANNEL_TO_CHANNEL: Record<AdminChannelOption, DeliveryChannel> = { web_push: 'push', sms: 'sms' };
export const DEFAULT_ADMIN_CHANNELS: AdminChannelOption[] = ['web_push'];

// ---------------------------------------------------------------- deliveries

/**
 * Stored delivery statuses. pending -> (sending) -> sent -> delivered -> read; or failed; or cancelled
 * (the alert was cancelled or expired before a held delivery went out). 'sending' is the dispatcher's
 * claim while a provider call is in flight; summaries count it as pending.
 */
export const DELIVERY_STATUSES = ['pending', 'sent', 'delivered', 'failed', 'read', 'cancelled'] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/**
 * A delivery's status in words (the delivery list, the per-recipient report). `sent` is only the provider's acceptance:
 * it reads "Sent to provider", never "Delivered", which only a receipt makes it (issue #39).
 */
export const DELIVERY_STATUS_LABELS: Record<DeliveryStatus, string> = {
  pending: 'Pending',
  sent: 'Sent to provider',
  delivered: 'Delivered',
  failed: 'Failed',
  read: 'Read',
  cancelled: 'Cancelled',
};

export type ChannelCounts = Record<DeliveryStatus, number> & {
  /**
   * Of the pending ones, those held until a later time (quiet hours, digest frequency, quiet weekend): counted
   * when the summary is read, since it drops as their time comes without any row changing. Pending minus held is
   * what is still on its way now. Absent where no summary was read (e.g. a screen's own placeholder).
   */
  held?: number;
  /**
   * Of the pending ones, those that failed transiently and wait for (or are in) their next attempt: not stuck either,
   * but not on their way yet. The operations view says when (AlertOperations). Absent like `held`.
   */
  retrying?: number;
};
/**
 * What a delivery carried (the per-recipient report, the delivery list): the alert itself, an update, the news that an
 * update moved the area away from the person, a reminder, the all-clear, or the alert sent by an operator's fallback
 * to someone nothing had reached.
 */
export const DELIVERY_MESSAGE_KINDS = ['alert', 'update', 'left_area', 'reminder', 'all_clear', 'fallback'] as const;
export type DeliveryMessageKind = (typeof DELIVERY_MESSAGE_KINDS)[number];

export const DELIVERY_MESSAGE_KIND_LABELS: Record<DeliveryMessageKind, string> = {
  alert: 'First message',
  update: 'Update',
  left_area: 'No longer in area',
  reminder: 'Reminder',
  all_clear: 'All-clear',
  fallback: 'Fallback',
};

/** Per-channel counts of one alert's deliveries; a channel with no deliveries is absent. */
export type DeliverySummary = Partial<Record<DeliveryChannel, ChannelCounts>>;

export const emptyCounts = (): ChannelCounts => ({ pending: 0, sent: 0, delivered: 0, failed: 0, read: 0, cancelled: 0 });

/** Deliveries that reached the provider (sent), the device (delivered) or the person (read). */
export const successfulCount = (c: ChannelCounts): number => c.sent + c.delivered + c.read;
/** Deliveries that were tried and have an outcome: successful or failed (pending and cancelled are not attempts). */
export const attemptedCount = (c: ChannelCounts): number => successfulCount(c) + c.failed;

export function totalCounts(summary: DeliverySummary | null | undefined): ChannelCounts {
  const total = emptyCounts();
  for (const counts of Object.values(summary ?? {})) {
    if (!counts) continue;
    for (const s of DELIVERY_STATUSES) total[s] += counts[s] ?? 0;
    total.held = (total.held ?? 0) + (counts.held ?? 0);
    total.retrying = (total.retrying ?? 0) + (counts.retrying ?? 0);
  }
  return total;
}

/**
 * Spec: successful deliveries over attempted deliveries across channels, times 100, rounded; 0 when none. Attempted
 * includes those that failed for now and wait for a retry (`retrying`): tried, not (yet) a success, so that a channel
 * whose every message is being retried never reads as a full success beside another that went through (issue #38).
 * Deliveries still on their way or held, never tried, count for nothing. Takes one alert's summary or the totals of many.
 */
export function successRate(countsOrSummary: ChannelCounts | DeliverySummary | null | undefined): number {
  const c = isCounts(countsOrSummary) ? countsOrSummary : totalCounts(countsOrSummary);
  const attempted = attemptedCount(c) + (c.retrying ?? 0);
  return attempted === 0 ? 0 : Math.round((successfulCount(c) / attempted) * 100);
}

/**
 * An alert's success rate (AdminAlert.successRate): successRate over every round of its deliveries, or null for an
 * alert that has not gone out (a draft, scheduled, awaiting approval, or ended before it was sent): it has no rate,
 * not a rate of 0.
 */
export function alertSuccessRate(summary: DeliverySummary | null | undefined, alert: { status: AlertStatus; sentAt: string | null }): number | null {
  if (alert.sentAt === null || alert.status === 'draft' || alert.status === 'scheduled' || alert.status === 'pending_approval') return null;
  return successRate(summary);
}

function isCounts(x: unknown): x is ChannelCounts {
  return !!x && typeof (x as ChannelCounts).pending === 'number';
}

/**
 * The admin screens' derived delivery label: the spec's Pending, All Delivered, Partial and Failed, and two it lacked
 * so that the label never claims a delivery that did not happen: Not Sent (a draft, an alert cancelled or expired
 * before it went out, or whose every delivery was called off) and No Recipients (sent, and nobody was concerned).
 */
export const DELIVERY_LABELS = ['Pending', 'All Delivered', 'Sent to provider', 'Partial', 'Failed', 'Not Sent', 'No Recipients'] as const;
export type DeliveryLabel = (typeof DELIVERY_LABELS)[number];

/**
 * The spec's rule generalised from "two channels" to per-delivery outcomes. Before the audience is known (recipients
 * null): Pending while the alert is active (its dispatch is under way), else Not Sent. Then: nobody concerned is No
 * Recipients; anything still pending (held ones included) is Pending; nothing succeeded is Failed when something
 * failed, else Not Sent (all cancelled); nothing failed is All Delivered when every success has a receipt (delivered,
 * read), else Sent to provider (some were only accepted by a provider); otherwise Partial.
 */
export function deliveryLabel(summary: DeliverySummary | null | undefined, alert: { status: AlertStatus; recipients: number | null }): DeliveryLabel {
  if (alert.recipients === null || alert.status === 'draft') return alert.status === 'active' ? 'Pending' : 'Not Sent';
  if (alert.recipients === 0) return 'No Recipients';
  const c = totalCounts(summary);
  if (c.pending > 0) return 'Pending';
  if (successfulCount(c) === 0) return c.failed > 0 ? 'Failed' : 'Not Sent';
  // Delivered only from a receipt (issue #39): a message a provider merely accepted is sent, never delivered.
  if (c.failed === 0) return c.sent > 0 ? 'Sent to provider' : 'All Delivered';
  return 'Partial';
}

// ---------------------------------------------------------------- audience before sending

/** One channel of an audience preview: whom it would reach, how many of them later (held), and whether it can send. */
export interface ChannelAudience {
  recipients: number;
  /** Of the recipients, those whose quiet hours, digest or quiet weekend hold the alert until later. */
  held: number;
  /** False when the channel cannot deliver now (e.g. no SMS webhook): `reason` says why and what to do. */
  configured: boolean;
  reason?: string;
}

/**
 * POST /api/alerts/audience: whom an alert would reach if sent now, by the dispatcher's own rule, with nothing
 * stored or sent. `recipients` is what the sent alert's recipients will read (people reached on at least one of its
 * channels); `concerned` counts everyone it concerns, reached or not.
 */
export interface AlertAudience {
  /**
   * Signed by the server for this action on this alert and body, with the counts it shows: sent back in the
   * Audience-Token header of the sending call, which answers 409 with fresh counts when the audience moved since.
   */
  token: string;
  concerned: number;
  recipients: number;
  held: number;
  channels: Partial<Record<DeliveryChannel, ChannelAudience>>;
  /**
   * The people it concerns whom none of its channels reaches (noChannel), and of them those with a reason of their
   * own: push on but no browser (noDevice), SMS on but their number replied STOP (smsStopped).
   */
  unreachable: {
    /** Concerned, but none of the alert's channels reaches them (none on in their preferences, or see below). */
    noChannel: number;
    /** Push on in their preferences but no browser subscribed (the alert's channels include push), and no other of its channels reaches them. */
    noDevice: number;
    /**
     * Of noChannel, those with SMS on whose number replied STOP (issue #39; no SMS goes to it until it replies START)
     * and whom no other of its channels reaches. Present when the alert's channels include SMS, else absent.
     */
    smsStopped?: number;
  };
  /**
   * An update's preview only (POST /api/alerts/:id/update/audience, issue #38): whom it tells what, in people. Those it
   * reached who are still concerned get the update, those it reached whom the new area leaves out are told so, those it
   * concerns now and never reached get the alert as new. `recipients` is their sum.
   */
  told?: { stillInArea: number; leftArea: number; newlyConcerned: number };
  /**
   * Issue #42: how many people each part of what it targets concerns (its area, each part of a multi-area, each
   * contact group). Present when it targets at least one group or an area of several parts.
   */
  byTarget?: AudienceByTarget;
}

// ---------------------------------------------------------------- user preferences

/** The preference screen's alert-type toggles (spec part 1) and their defaults. */
export const PREFERENCE_ALERT_TYPES = ['emergency', 'weather', 'traffic', 'crime', 'construction', 'events'] as const;
export type PreferenceAlertType = (typeof PREFERENCE_ALERT_TYPES)[number];
export const DEFAULT_PREFERENCE_ALERT_TYPES: PreferenceAlertType[] = ['emergency', 'weather', 'traffic', 'construction'];

export const PREFERENCE_ALERT_TYPE_LABELS: Record<PreferenceAlertType, string> = {
  emergency: 'Emergency',
  weather: 'Weather',
  traffic: 'Traffic',
  crime: 'Crime',
  construction: 'Construction',
  events: 'Events',
};

/**
 * Which stored alert categories each toggle subscribes to. Eligibility filters on categories, so the
 * categories a user receives are the union over the toggles they switched on. Road works are traffic
 * alerts; public events are announced as public-safety alerts; emergencies cover public safety and health.
 */
export const PREFERENCE_TYPE_CATEGORIES: Record<PreferenceAlertType, AlertCategory[]> = {
  emergency: ['public_safety', 'health'],
  weather: ['weather'],
  traffic: ['traffic'],
  crime: ['security'],
  construction: ['traffic'],
  events: ['public_safety'],
};

/** The stored categories for a set of enabled toggles, in the canonical category order. */
export function categoriesForAlertTypes(types: readonly PreferenceAlertType[]): AlertCategory[] {
  const wanted = new Set(types.flatMap((t) => PREFERENCE_TYPE_CATEGORIES[t] ?? []));
  return ALERT_CATEGORIES.filter((c) => wanted.has(c));
}

/** Frequency options (spec part 1), stored value -> label. */
export const FREQUENCIES = ['immediate', 'hourly', 'daily', 'weekly'] as const;
export type Frequency = (typeof FREQUENCIES)[number];
export const FREQUENCY_LABELS: Record<Frequency, string> = {
  immediate: 'Immediate',
  hourly: 'Hourly digest',
  daily: 'Daily summary',
  weekly: 'Weekly report',
};

/** Radius slider: 5 to 100 miles, default 25. Stored in kilometres. */
export const KM_PER_MILE = 1.609344;
export const milesToKm = (miles: number): number => miles * KM_PER_MILE;
export const kmToMiles = (km: number): number => km / KM_PER_MILE;
export const RADIUS_MILES = { min: 5, max: 100, default: 25 } as const;

/** A time of day 'HH:MM' (24 h). */
export type TimeOfDay = string;
export const TIME_OF_DAY_PATTERN = /^([01]\d|2[0-3]):[0-5]\d$/;

export interface QuietHours {
  enabled: boolean;
  start: TimeOfDay;
  end: TimeOfDay;
  /** IANA time zone the times are in, e.g. America/Phoenix. */
  timeZone: string;
}

/** The notification methods the preference screen shows, and the stored channel flags behind them. */
export interface NotificationMethods {
  /** Web push (spec default on). */
  push: boolean;
  /** Voice alerts: the web app reads arriving alerts aloud (spec default on); not a dispatcher channel. */
  voice: boolean;
  /** Email digest (spec default off): the email channel. */
  email: boolean;
  /** SMS to phoneNumber (not on the part-1 screen; the spec's user_preferences has it). */
  sms: boolean;
}

/** What GET/PUT /api/alerts/me/preferences carry. */
export interface AlertPreferences {
  alertTypes: PreferenceAlertType[];
  /** Derived from alertTypes; what eligibility uses. Read-only. */
  categories: AlertCategory[];
  severityThreshold: Severity;
  frequency: Frequency;
  radiusMiles: number;
  /** Stored value; radiusMiles is its display. */
  radiusKm: number;
  quietHours: QuietHours;
  weekendEnabled: boolean;
  methods: NotificationMethods;
  phoneNumber: string | null;
  /** Home location; null when not set (then location does not restrict eligibility). */
  home: HomeLocation | null;
  /**
   * The language alerts reach them in (push, SMS, e-mail, their feed), falling back to English for an alert without
   * it. Null until they choose one: the web app then proposes the browser's language and sends it with the first save.
   */
  language: Language | null;
}

/**
 * Where the person lives: the point eligibility uses, and the place's name as they chose it (an address or place
 * found through the geocoder, or the name of the place their device reported); null or absent when it has none.
 */
export interface HomeLocation {
  lat: number;
  lng: number;
  name?: string | null;
}

/**
 * "Email digest" (issue #40): with the e-mail method on, e-mails of alerts below critical are collected and sent as one
 * digest at this frequency when the person's frequency is Immediate (their own digest frequency otherwise); a
 * critical alert's e-mail goes at once.
 */
export const EMAIL_DIGEST_FREQUENCY: Frequency = 'hourly';

/** GET /api/alerts/me/alerts/unread-count: alerts in effect delivered to me that I have not read (ended ones never count). */
export interface UnreadCount {
  count: number;
}

export const DEFAULT_TIME_ZONE = 'America/Phoenix';

export const DEFAULT_PREFERENCES: AlertPreferences = {
  alertTypes: DEFAULT_PREFERENCE_ALERT_TYPES,
  categories: categoriesForAlertTypes(DEFAULT_PREFERENCE_ALERT_TYPES),
  severityThreshold: 'low',
  frequency: 'immediate',
  radiusMiles: RADIUS_MILES.default,
  radiusKm: milesToKm(RADIUS_MILES.default),
  quietHours: { enabled: false, start: '22:00', end: '07:00', timeZone: DEFAULT_TIME_ZONE },
  weekendEnabled: false,
  methods: { push: true, voice: true, email: false, sms: false },
  phoneNumber: null,
  home: null,
  language: null,
};

// ---------------------------------------------------------------- limits and texts

/** Push notifications (spec): alarm-emoji heading prefix, priority 10 for critical else 5, TTL 3600 s. */
export const PUSH_TITLE_PREFIX = '🚨 ';
export const PUSH_TTL_SECONDS = 3600;
export const pushPriority = (s: Severity): 10 | 5 => (s === 'critical' ? 10 : 5);
export const pushAndroidChannel = (s: Severity) => (s === 'critical' ? 'critical-alerts' : 'general-alerts');

/** The spec's relative age: Just now, Nm ago (under 60 minutes), Nh ago (under 24 hours), Nd ago. */
export function relativeAge(at: string | Date, now: Date = new Date()): string {
  const minutes = Math.floor((now.getTime() - new Date(at).getTime()) / 60000);
  if (minutes < 1) return 'Just now';
  if (minutes < 60) return `${minutes}m ago`;
  const hours = Math.floor(minutes / 60);
  if (hours < 24) return `${hours}h ago`;
  return `${Math.floor(hours / 24)}d ago`;
}

// ---------------------------------------------------------------- API shapes (what the services return)

export interface AlertSummary {
  id: string;
  title: string;
  message: string;
  severity: Severity;
  /** The admin-screen view of severity. */
  priority: Priority;
  category: AlertCategory;
  type: string;
  status: AlertStatus;
  locationName: string | null;
  lat: number | null;
  lng: number | null;
  /** A circle's radius; null for an alert without an area and for a polygon alert. */
  radiusKm: number | null;
  /**
   * Where the alert applies: a circle (lat, lng, radiusKm above), a drawn polygon, or null (everyone). For a polygon,
   * lat/lng above are its centroid (map centring, sorting), never a test of who it concerns.
   */
  area: AlertArea | null;
  channels: DeliveryChannel[];
  createdAt: string;
  expiresAt: string | null;
  /** 1 as sent; each update adds one (the all-clear too). */
  version: number;
  /**
   * When the all-clear was given, with its message; null otherwise. `translations`: its message in the alert's other
   * languages (issue #38), each reader getting theirs (AllClearTranslations); absent or {} when it was given in English only.
   */
  allClear: { at: string; message: string | null; translations?: AllClearTranslations } | null;
  /**
   * What the latest version changed for its readers (issue #40): an update's fields (and the severity it had
   * before), or the all-clear; null (or absent) for an alert that never changed. The service always fills it.
   */
  lastChange?: AlertChange | null;
}

/** The latest change of an alert in effect or ended: "Updated 2 min ago: severity raised to Critical", "All clear". */
export interface AlertChange {
  version: number;
  kind: 'update' | 'all_clear';
  at: string;
  /** The update's changed fields; [] for the all-clear. */
  fields: AlertUpdateField[];
  /** The severity before this version, when this version changed it; null otherwise. */
  severityFrom: Severity | null;
}

/** The all-clear's own words in other languages than English, by language code (POST /api/alerts/:id/all-clear). */
export type AllClearTranslations = Partial<Record<TranslationLanguage, { message: string }>>;

/**
 * The all-clear's words for a reader of `language` (the language the alert's own text reaches them in, so English
 * when the alert has no text in theirs): the admin's in that language; for English, the admin's message; null
 * otherwise, when Beacon's own words in that language say it (lifecycleWords(language).allClearDefault). Never the
 * English sentence under a title in another language (issue #38).
 */
export function allClearMessageIn(
  allClear: { message?: string | null; translations?: AllClearTranslations | null },
  language: string | null | undefined,
): string | null {
  // Looked up only by a known code, as textInLanguage does.
  if (isTranslationLanguage(language)) return allClear.translations?.[language]?.message ?? null;
  return allClear.message ?? null;
}

/** An alert as the admin screens see it. */
export interface AdminAlert extends AlertSummary {
  /** Its text in other languages than English (title and message are the English), by language code; {} when none. */
  translations: AlertTranslations;
  createdBy: string | null;
  updatedAt: string;
  /**
   * One more at every change of its text, area or status, drafts included (unlike `version`, which counts what went
   * out). An edit sends back the revision it was made on, so that it never overwrites a colleague's unseen.
   */
  revision: number;
  sentAt: string | null;
  /** Source: an admin form, or a verified incident (drafts). */
  source: 'admin' | 'incident' | 'test' | 'cap';
  /**
   * The people it was sent to in any round (its first message, those an update newly concerned, a fallback's): one per
   * person whatever the channels and rounds, as its delivery rows say. Null until the dispatcher has selected them.
   */
  recipients: number | null;
  /**
   * Everyone it concerned when it went out, reached by a channel or not (their open screens were told): those beyond
   * `recipients` had none of its channels on, or push on with no browser subscribed. After an update: its recipients
   * and those the alert concerns now whom no channel reaches (issue #38), so a fallback that reached them, or an area
   * moved away from them, takes them out of the difference. Null until known.
   */
  concerned: number | null;
  /** Every round's deliveries: the first message, updates, the all-clear, fallbacks and reminders. */
  summary: DeliverySummary;
  deliveryLabel: DeliveryLabel;
  /** alertSuccessRate: null while the alert has not gone out (issue #38; it was 0). */
  successRate: number | null;
  responses: AlertResponses;
  /** The escalation asked for when it was created: remind whoever has not answered; null when none was. */
  reminder: AlertReminder | null;
  /** The author's e-mail (`createdBy` is their id); null for Beacon itself (a CAP source, a test). */
  createdByEmail: string | null;
  /** When a scheduled send goes out (status scheduled, or awaiting approval for a time); null otherwise. */
  sendAt: string | null;
  /** The second pair of eyes the approval policy asked for before it went out; null when none was asked. */
  approval: AlertApproval | null;
  /** Sent without the approval the policy asked for, on its author's typed reason: flagged wherever it is shown. */
  breakGlass: { by: string | null; byEmail: string | null; reason: string; at: string } | null;
  /**
   * The contact groups it targets besides (or instead of) its area (issue #42), [] when none: their members get it
   * wherever they live and whatever their type and severity choices. A group deleted since is left out.
   */
  groups: AlertTargetGroup[];
}

// ---------------------------------------------------------------- sending: the audience guard, approval, schedule

/** The header a sending call carries its preview's token in (AlertAudience.token). */
export const AUDIENCE_TOKEN_HEADER = 'Audience-Token';

/** What a preview and its token are for: each sending path has its own. */
export const SEND_ACTIONS = ['create', 'send', 'update', 'all_clear', 'retry', 'fallback'] as const;
export type SendAction = (typeof SEND_ACTIONS)[number];

/**
 * How far the audience may move between the preview and the send before the sender is asked again: more than this
 * share of the previewed recipients (rounded down, so a change of one person in an audience under 20 is enough).
 */
export const AUDIENCE_CHANGE_MARGIN = 0.05;
/** A preview older than this is never sent on: the sender is shown the audience as it is now. */
export const AUDIENCE_TOKEN_TTL_SECONDS = 900;

/** Admin Settings' approval policy: when an alert's send waits for a second person. Off by default. */
export const APPROVAL_MODES = ['off', 'severity', 'all'] as const;
export type ApprovalMode = (typeof APPROVAL_MODES)[number];

export interface ApprovalPolicy {
  /** off: nothing waits; severity: alerts at or above `minSeverity`; all: every alert. */
  mode: ApprovalMode;
  minSeverity: Severity;
  /** A CAP source's automatic sends wait too, whatever the mode. */
  capAutomatic: boolean;
  updatedAt: string | null;
  updatedBy: string | null;
}

export const DEFAULT_APPROVAL_POLICY: ApprovalPolicy = { mode: 'off', minSeverity: 'high', capAutomatic: false, updatedAt: null, updatedBy: null };

/** Why an alert waits for approval: its severity, the every-alert policy, or a CAP source's automatic send. */
export type ApprovalReason = 'severity' | 'all' | 'cap';

export interface AlertApproval {
  reason: ApprovalReason;
  requestedBy: string | null;
  requestedByEmail: string | null;
  requestedAt: string;
  /** null while it waits. */
  decision: 'approved' | 'rejected' | null;
  decidedBy: string | null;
  decidedByEmail: string | null;
  decidedAt: string | null;
  /** A rejection's reason (required), or an approval's note (optional). */
  note: string | null;
}

/** A typed reason is what a break-glass send and a rejection leave in the record: at least this long. */
export const APPROVAL_REASON_LIMITS = { min: 10, max: 500 } as const;
/** How far ahead a send can be scheduled. */
export const SCHEDULE_MAX_DAYS = 30;

/** The delays an alert's escalation can be given, in minutes (the API takes any whole number from 5 to 1440). */
export const REMINDER_DELAYS = [10, 15, 30, 60] as const;
export const REMINDER_LIMITS = { min: 5, max: 1440 } as const;

/**
 * An alert's escalation: whoever it reached and has not answered ("I'm Safe" or a help request) `afterMinutes` after it
 * went out is sent it again, once, as a reminder, on the channels that reached them.
 */
export interface AlertReminder {
  afterMinutes: number;
  /** When it is due: null until the alert has gone out. */
  dueAt: string | null;
  /** When it went; null while it is due (or if the alert ended before). */
  sentAt: string | null;
  /** Reminder deliveries it made (0: everyone reached had answered). Null until sent. */
  deliveries: number | null;
}

/** The history's status column: the derived delivery label while an alert is active, else its own status (Draft, Cancelled, Expired). */
export function historyStatus(a: Pick<AdminAlert, 'status' | 'deliveryLabel'>): string {
  return a.status === 'active' ? a.deliveryLabel : ALERT_STATUS_LABELS[a.status];
}

/** What the people an alert reached answered: "I'm Safe", and help requests (those still open apart). */
export interface AlertResponses {
  safe: number;
  needHelp: number;
  helpOpen: number;
}

/** What an audit entry records of an alert: its creation, sending, end, and what operators did about its deliveries. */
export const ALERT_AUDIT_ACTIONS = [
  'created',
  'sent',
  'cancelled',
  'expired',
  'retried',
  'fallback',
  'reminded',
  'updated',
  'all_clear',
  'scheduled',
  'approval_requested',
  'approved',
  'rejected',
  'break_glass',
  // issue #39: a reply by SMS or a key pressed in a call, matched to the alert (details: { channel, intent }, no number)
  'reply_received',
] as const;
export type AlertAuditAction = (typeof ALERT_AUDIT_ACTIONS)[number];

/** GET /api/alerts/:id/audit: who did what to the alert and when (actor null: Beacon itself), oldest first. */
export interface AlertAuditEntry {
  action: AlertAuditAction;
  actorId: string | null;
  actorEmail: string | null;
  details: Record<string, unknown>;
  at: string;
}

// ---------------------------------------------------------------- versions (update, all-clear)

/** The fields an update can change; the area counts as one. */
export const ALERT_UPDATE_FIELDS = ['title', 'message', 'translations', 'severity', 'expiresAt', 'area'] as const;
export type AlertUpdateField = (typeof ALERT_UPDATE_FIELDS)[number];

export const ALL_CLEAR_MESSAGE_MAX = 500;

/**
 * One version of an alert (GET /api/alerts/:id/versions, oldest first): as it was sent (`original`), each update, and
 * the all-clear. `notified` counts the messages its fan-out queued (null while it is under way).
 */
export interface AlertVersion {
  version: number;
  kind: 'original' | 'update' | 'all_clear';
  title: string;
  message: string;
  severity: Severity;
  expiresAt: string | null;
  locationName: string | null;
  lat: number | null;
  lng: number | null;
  radiusKm: number | null;
  /** The area this version applied to (a drawn polygon or a circle); null: everywhere. */
  area: AlertArea | null;
  changed: AlertUpdateField[];
  actorEmail: string | null;
  at: string;
  notified: number | null;
}

/** A user's request for help from an alert (GET /api/alerts/admin/help-requests), newest first. */
export interface HelpRequest {
  id: string;
  alertId: string;
  alertTitle?: string;
  /** The place name the alert was sent with (issue #38); null when it named none. */
  alertLocationName?: string | null;
  userId: string;
  userEmail: string | null;
  /** The phone number on the person's preferences (staff only, like the whole list); null when they gave none. */
  phone?: string | null;
  /** '' when the user wrote nothing. */
  message: string;
  /** The location they shared with the request; null when they shared none. */
  lat: number | null;
  lng: number | null;
  /**
   * Where to find them: the location they shared, else their home as it was when they asked (the place the alert was
   * sent to them for); null when neither is known (no home set: the alert reached them wherever they were).
   */
  place?: HelpRequestPlace | null;
  status: 'open' | 'resolved';
  createdAt: string;
  /** Who resolved it, when, and their note; null while open (and for requests resolved before notes existed: note ''). */
  resolution?: HelpRequestResolution | null;
}

export interface HelpRequestPlace {
  source: 'shared' | 'home';
  lat: number;
  lng: number;
}

export interface HelpRequestResolution {
  note: string;
  by: string | null;
  byEmail: string | null;
  at: string | null;
}

/** POST /api/alerts/admin/help-requests/:id/resolve: what was done, in a note (required). */
export const RESOLUTION_NOTE_LIMITS = { min: 1, max: 500 } as const;

/** `title` and `message` are in the user's language (their preference) when the alert has it, else English. */
export interface UserAlert extends AlertSummary {
  /** The language title and message are in. */
  language: Language;
  read: boolean;
  readAt: string | null;
}

export interface AlertProgress {
  alertId: string;
  /** Recipients chosen by eligibility; null until the dispatcher has selected them. */
  recipients: number | null;
  channels: DeliverySummary;
  /** True when eligibility has run and no delivery is pending any more. */
  done: boolean;
  responses: AlertResponses;
  at: string;
}

/** One channel of an alert's live operations: how fast it is going, when it will be done, and what waits for a retry. */
export interface ChannelOperations {
  /** Successful deliveries per second over the last OPERATIONS_RATE_WINDOW_SECONDS: failures and retries are no pace (issue #38). */
  ratePerSecond: number;
  /** Every outcome (successes, failures, failures to be retried) per second over the same window: how fast the queue moves. */
  attemptsPerSecond?: number;
  /**
   * Seconds until the deliveries on their way now (pending, less held and retrying) are done at the pace the queue
   * moves (attemptsPerSecond); null when none are, or nothing moves.
   */
  etaSeconds: number | null;
  /** Deliveries that failed transiently and wait for their next attempt (or are in it). */
  retrying: number;
  /** The earliest next attempt among them; null when none waits. */
  nextAttemptAt: string | null;
  /** Deliveries held for the recipients' quiet hours, digests or quiet weekends, and when the first of them goes out. */
  held: number;
  heldUntil: string | null;
}

/** Deliveries of one channel that failed for one reason: for good (`failed`), or for now and to be retried (`retrying`). */
export interface FailureReason {
  channel: DeliveryChannel;
  reason: string;
  failed: number;
  retrying: number;
}

/** Outcomes of one channel in one OPERATIONS_BUCKET_SECONDS bucket (`at`: its start). `retried`: failed, to be retried. */
export interface OperationsBucket {
  at: string;
  channel: DeliveryChannel;
  succeeded: number;
  failed: number;
  retried: number;
}

export const OPERATIONS_BUCKET_SECONDS = 5;
export const OPERATIONS_RATE_WINDOW_SECONDS = 30;
/** The chart covers the first minutes of a dispatch: this many from its start. */
export const OPERATIONS_CHART_MINUTES = 10;

/**
 * GET /api/alerts/:id/operations: an alert's delivery as it happens, for the live operations view. The counts
 * themselves are the alert's summary (AdminAlert, AlertProgress); this adds their pace, the failures' reasons and the
 * retries' times, and the outcomes over the first OPERATIONS_CHART_MINUTES.
 */
export interface AlertOperations {
  alertId: string;
  dispatchedAt: string | null;
  channels: Partial<Record<DeliveryChannel, ChannelOperations>>;
  /** Most frequent first. */
  failures: FailureReason[];
  timeline: OperationsBucket[];
  /** The server's clock when read: times above are relative to it. */
  at: string;
}

export interface Page<T> {
  items: T[];
  total: number;
  page: number;
  pageSize: number;
  totalPages: number;
}
