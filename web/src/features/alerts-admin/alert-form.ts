import {
  ADMIN_ALERT_TYPES,
  ALERT_CATEGORIES,
  ALERT_LIMITS,
  DEFAULT_ADMIN_ALERT_TYPE,
  DEFAULT_ADMIN_CHANNELS,
  DEFAULT_PRIORITY,
  PRIORITIES,
  SEVERITIES,
  CATEGORY_DEFAULT_TYPE,
  LANGUAGE_LABELS,
  TRANSLATION_LANGUAGES,
  categoryOfType,
  priorityOfSeverity,
  severityFromPriority,
  type AdminAlertType,
  type AdminChannelOption,
  type AlertCategory,
  type AlertTemplate,
  type AlertText,
  type AlertTranslations,
  type TranslationLanguage,
  type DeliveryChannel,
  type Priority,
  type Severity,
  polygonProblem,
  SCHEDULE_MAX_DAYS,
} from '@beacon/contracts';
import { serverNow } from '@/common/server-clock';

/**
 * The rules of both create-alert screens (spec part 2, section 5), with the spec's exact messages. Pure
 * functions: the forms call them on Next / Send, and their tests call them through the forms.
 */
export type FieldErrors = Partial<Record<string, string>>;
export const hasErrors = (errors: FieldErrors) => Object.values(errors).some(Boolean);

export const MESSAGES = {
  titleShort: 'Title must be at least 5 characters',
  titleLong: 'Title too long',
  messageShort: 'Message must be at least 10 characters',
  messageLong: 'Message too long',
  typeRequired: 'Alert type is required',
  channelsRequired: 'Select at least one channel',
  severity: 'Choose a severity',
  category: 'Choose a category',
  priority: 'Choose a priority',
  radius: `Radius must be between ${ALERT_LIMITS.radiusKmMin} and ${ALERT_LIMITS.radiusKmMax} km`,
  expiresPast: 'Expiry must be in the future',
  expiresInvalid: 'Enter a valid date and time',
  location: 'Latitude must be between -90 and 90 and longitude between -180 and 180',
  // issue #38: the server's own words for area_required, so the field says the same whichever side refused it
  areaRequired: 'Choose where this alert applies, or choose to send it to everyone',
  everyoneUnconfirmed: 'Tick the box to confirm that this alert goes to everyone, everywhere',
  sendAtRequired: 'Choose when to send it',
  sendAtPast: 'The send time is in the past: choose a later time',
  sendAtTooFar: `A send can be scheduled at most ${SCHEDULE_MAX_DAYS} days ahead`,
  expiresBeforeSend: 'Expiry must be after the send time',
} as const;

export function titleError(title: string): string | undefined {
  const n = title.trim().length;
  if (n < ALERT_LIMITS.titleMin) return MESSAGES.titleShort;
  if (n > ALERT_LIMITS.titleMax) return MESSAGES.titleLong;
  return undefined;
}

export function messageError(message: string): string | undefined {
  const n = message.trim().length;
  if (n < ALERT_LIMITS.messageMin) return MESSAGES.messageShort;
  if (n > ALERT_LIMITS.messageMax) return MESSAGES.messageLong;
  return undefined;
}

// ---------------------------------------------------------------- where an alert applies (wizard and Quick Send)

/**
 * Where the alert applies: a circle, a drawn polygon, or (issue #38) everyone, everywhere: never by default, only
 * when chosen and its own box ticked.
 */
export type AreaType = 'circle' | 'polygon' | 'everyone';

export interface AreaValues {
  areaType: AreaType;
  /** The polygon's corners as [lat, lng], in drawing order (closed by the server). */
  points: [number, number][];
  /** Both null, or both set: the centre of the alert's area. */
  lat: number | null;
  lng: number | null;
  /** Kept as typed so a half-typed number can be corrected; parsed on validation. */
  radiusKm: string;
  /** "I understand this goes to everyone, everywhere", ticked: only then does `everyone` send. */
  everyoneConfirmed: boolean;
}

export const AREA_DEFAULTS: AreaValues = {
  areaType: 'circle',
  points: [],
  lat: null,
  lng: null,
  radiusKm: String(ALERT_LIMITS.radiusKmDefault),
  everyoneConfirmed: false,
};

/** The area's errors: `area` (none chosen, a bad polygon), `location`, `radiusKm`, `everyone` (box not ticked). */
export function areaErrors(v: AreaValues): FieldErrors {
  const errors: FieldErrors = {};
  if (v.areaType === 'everyone') {
    if (!v.everyoneConfirmed) errors.everyone = MESSAGES.everyoneUnconfirmed;
  } else if (v.areaType === 'polygon') {
    errors.area = v.points.length === 0 ? MESSAGES.areaRequired : polygonProblem(v.points)?.message;
  } else {
    const radius = parseRadius(v.radiusKm);
    if (v.radiusKm.trim() !== '' && radius === null) errors.radiusKm = MESSAGES.radius;
    if (v.lat === null || v.lng === null) errors.area = MESSAGES.areaRequired;
    else if (v.lat < -90 || v.lat > 90 || v.lng < -180 || v.lng > 180) errors.location = MESSAGES.location;
  }
  return errors;
}

/** What the request says of the area: the polygon, the circle, or `everyone: true`; never an area with everyone. */
export function areaBody(v: AreaValues): {
  area?: { type: 'polygon'; points: [number, number][] };
  lat?: number;
  lng?: number;
  radiusKm?: number;
  everyone?: true;
} {
  if (v.areaType === 'everyone') return { everyone: true };
  if (v.areaType === 'polygon') return { area: { type: 'polygon', points: v.points } };
  // An area is a centre AND a radius, or nothing (the server then refuses it: area_required).
  return v.lat !== null && v.lng !== null ? { lat: v.lat, lng: v.lng, radiusKm: parseRadius(v.radiusKm) ?? ALERT_LIMITS.radiusKmDefault } : {};
}

const AREA_KEYS: readonly string[] = ['areaType', 'points', 'lat', 'lng', 'radiusKm', 'everyoneConfirmed'];

/** The messages a change to `key` answers: its own, and those of the area or the schedule it is part of. */
export function errorsClearedBy(key: string): FieldErrors {
  const cleared: FieldErrors = { [key]: undefined };
  if (AREA_KEYS.includes(key)) Object.assign(cleared, { area: undefined, location: undefined, everyone: undefined });
  if (key === 'when') cleared.sendAt = undefined;
  return cleared;
}

/** The server's 400s that belong to a field of the area or the schedule (issue #38), by error code. */
export const FIELD_OF_CODE: Partial<Record<string, string>> = {
  area_required: 'area',
  area_and_everyone: 'area',
  send_at_in_past: 'sendAt',
  send_at_too_far: 'sendAt',
};

// ---------------------------------------------------------------- when it goes out

/** The admin's time zone (the browser's), as the schedule names it: "America/Phoenix (GMT-7)", its offset at `at`. */
export function localTimeZone(at: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  const offset = new Intl.DateTimeFormat('en-US', { timeZoneName: 'shortOffset' }).formatToParts(at).find((p) => p.type === 'timeZoneName')?.value;
  return offset && offset !== zone ? `${zone} (${offset})` : zone;
}

/** A `datetime-local` value checked as a send time; `now` is the server's clock (it decides). */
export function sendAtError(sendAt: string, now: Date = serverNow()): string | undefined {
  if (!sendAt) return MESSAGES.sendAtRequired;
  const at = new Date(sendAt);
  if (Number.isNaN(at.getTime())) return MESSAGES.expiresInvalid;
  if (at.getTime() <= now.getTime()) return MESSAGES.sendAtPast;
  if (at.getTime() > now.getTime() + SCHEDULE_MAX_DAYS * 86_400_000) return MESSAGES.sendAtTooFar;
  return undefined;
}

// ---------------------------------------------------------------- the four-step wizard

export const WIZARD_STEPS = ['Alert Details', 'Classification', 'Location & Timing', 'Review & Send'] as const;

export interface WizardValues extends AreaValues {
  title: string;
  message: string;
  severity: Severity;
  category: AlertCategory;
  channels: DeliveryChannel[];
  locationName: string;
  /** Send now, or at `sendAt` (scheduled). */
  when: 'now' | 'later';
  /** A `datetime-local` value in the browser's time zone, or ''. */
  sendAt: string;
  /** A `datetime-local` value in the browser's time zone, or ''. */
  expiresAt: string;
  /** The escalation's delay in minutes (one of REMINDER_DELAYS), or '' for none. */
  remindAfterMinutes: string;
  /** The text in the other languages the admin added (each as typed). */
  translations: FormTranslations;
}

export const WIZARD_DEFAULTS: WizardValues = {
  title: '',
  message: '',
  severity: 'medium',
  category: 'public_safety',
  channels: ['push'],
  locationName: '',
  ...AREA_DEFAULTS,
  when: 'now',
  sendAt: '',
  expiresAt: '',
  remindAfterMinutes: '',
  translations: {},
};

/** The errors that keep the wizard on step `step` (0-based). Step 4 (review) re-checks everything. */
export function validateWizardStep(step: number, v: WizardValues, now: Date = serverNow()): FieldErrors {
  const errors: FieldErrors = {};
  if (step === 0 || step === 3) {
    errors.title = titleError(v.title);
    errors.message = messageError(v.message);
    Object.assign(errors, translationErrors(v.translations));
  }
  if (step === 1 || step === 3) {
    if (!SEVERITIES.includes(v.severity)) errors.severity = MESSAGES.severity;
    if (!ALERT_CATEGORIES.includes(v.category)) errors.category = MESSAGES.category;
    if (v.channels.length === 0) errors.channels = MESSAGES.channelsRequired;
  }
  if (step === 2 || step === 3) {
    Object.assign(errors, areaErrors(v));
    if (v.when === 'later') errors.sendAt = sendAtError(v.sendAt, now);
    if (v.expiresAt) {
      const at = new Date(v.expiresAt);
      const sendAt = v.when === 'later' && !errors.sendAt ? new Date(v.sendAt) : null;
      if (Number.isNaN(at.getTime())) errors.expiresAt = MESSAGES.expiresInvalid;
      else if (at.getTime() <= now.getTime()) errors.expiresAt = MESSAGES.expiresPast;
      else if (sendAt && at.getTime() <= sendAt.getTime()) errors.expiresAt = MESSAGES.expiresBeforeSend;
    }
  }
  return Object.fromEntries(Object.entries(errors).filter(([, m]) => m)) as FieldErrors;
}

/** "33.45, -112.07" (or with a space, or a semicolon) as a point, or null when the text is not a coordinate pair in range. */
export function parseLatLng(text: string): { lat: number; lng: number } | null {
  const m = /^\s*(-?\d+(?:\.\d+)?)\s*[,; ]\s*(-?\d+(?:\.\d+)?)\s*$/.exec(text);
  if (!m) return null;
  const lat = Number(m[1]);
  const lng = Number(m[2]);
  return Math.abs(lat) <= 90 && Math.abs(lng) <= 180 ? { lat, lng } : null;
}

/** 1 to 1000 km, or null when out of range or not a number. An empty field means the default. */
export function parseRadius(text: string): number | null {
  if (text.trim() === '') return ALERT_LIMITS.radiusKmDefault;
  const n = Number(text);
  if (!Number.isFinite(n) || n < ALERT_LIMITS.radiusKmMin || n > ALERT_LIMITS.radiusKmMax) return null;
  return n;
}

/** The `min` of the expiry input: now, as a `datetime-local` value in the browser's zone. */
export function localDateTimeValue(d: Date): string {
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${d.getFullYear()}-${pad(d.getMonth() + 1)}-${pad(d.getDate())}T${pad(d.getHours())}:${pad(d.getMinutes())}`;
}

// ---------------------------------------------------------------- the single quick-send form

export interface QuickSendValues extends AreaValues {
  type: AdminAlertType | '';
  title: string;
  message: string;
  priority: Priority;
  channels: AdminChannelOption[];
  translations: FormTranslations;
}

export const QUICK_SEND_DEFAULTS: QuickSendValues = {
  type: DEFAULT_ADMIN_ALERT_TYPE,
  title: '',
  message: '',
  priority: DEFAULT_PRIORITY,
  channels: [...DEFAULT_ADMIN_CHANNELS],
  translations: {},
  ...AREA_DEFAULTS,
};

export function validateQuickSend(v: QuickSendValues): FieldErrors {
  const errors: FieldErrors = {
    type: v.type && (ADMIN_ALERT_TYPES as readonly string[]).includes(v.type) ? undefined : MESSAGES.typeRequired,
    title: titleError(v.title),
    message: messageError(v.message),
    priority: PRIORITIES.includes(v.priority) ? undefined : MESSAGES.priority,
    channels: v.channels.length > 0 ? undefined : MESSAGES.channelsRequired,
    ...translationErrors(v.translations),
    ...areaErrors(v),
  };
  return Object.fromEntries(Object.entries(errors).filter(([, m]) => m)) as FieldErrors;
}

// ---------------------------------------------------------------- other languages

/** The form's texts in other languages than English, as typed. */
export type FormTranslations = Partial<Record<TranslationLanguage, AlertText>>;

/** A language's name without its own spelling: "Spanish". */
export const languageName = (l: TranslationLanguage) => LANGUAGE_LABELS[l].replace(/ \(.*\)$/, '');

/** The error key of one language's title or message: `translations.es.title`. */
export const translationKey = (l: TranslationLanguage, field: keyof AlertText) => `translations.${l}.${field}`;

/** Each added language's title and message, checked like the English, the message naming the language. */
export function translationErrors(t: FormTranslations): FieldErrors {
  const errors: FieldErrors = {};
  for (const l of TRANSLATION_LANGUAGES) {
    const text = t[l];
    if (!text) continue;
    const name = languageName(l);
    const title = titleError(text.title);
    const message = messageError(text.message);
    if (title) errors[translationKey(l, 'title')] = `${name} ${title.charAt(0).toLowerCase()}${title.slice(1)}`;
    if (message) errors[translationKey(l, 'message')] = `${name} ${message.charAt(0).toLowerCase()}${message.slice(1)}`;
  }
  return errors;
}

/** The translations a request carries: trimmed, in the languages added; undefined when none. */
export function translationsBody(t: FormTranslations): AlertTranslations | undefined {
  const out: AlertTranslations = {};
  for (const l of TRANSLATION_LANGUAGES) {
    const text = t[l];
    if (text) out[l] = { title: text.title.trim(), message: text.message.trim() };
  }
  return Object.keys(out).length ? out : undefined;
}

// ---------------------------------------------------------------- templates

/** The wizard's values started from a template: its kind, severity, texts, channels and radius; the rest kept. */
export function wizardFromTemplate(v: WizardValues, t: AlertTemplate): WizardValues {
  return {
    ...v,
    title: t.title,
    message: t.message,
    translations: { ...t.translations },
    severity: t.severity,
    category: t.category,
    channels: [...t.channels],
    radiusKm: t.radiusKm === null ? v.radiusKm : String(t.radiusKm),
  };
}

/** Quick Send's values started from a template (its channels as the form offers them: push and SMS). */
export function quickSendFromTemplate(v: QuickSendValues, t: AlertTemplate): QuickSendValues {
  const type = (ADMIN_ALERT_TYPES as readonly string[]).includes(t.type) ? (t.type as AdminAlertType) : CATEGORY_DEFAULT_TYPE[t.category];
  const channels = t.channels.flatMap((c): AdminChannelOption[] => (c === 'push' ? ['web_push'] : c === 'sms' ? ['sms'] : []));
  return {
    ...v,
    type,
    title: t.title,
    message: t.message,
    translations: { ...t.translations },
    priority: priorityOfSeverity(t.severity),
    channels: channels.length ? channels : v.channels,
  };
}

/** What "Save as template" stores of the wizard's values. */
export function templateFromWizard(name: string, v: WizardValues) {
  const radius = parseRadius(v.radiusKm);
  return {
    name: name.trim(),
    type: CATEGORY_DEFAULT_TYPE[v.category],
    category: v.category,
    severity: v.severity,
    title: v.title.trim(),
    message: v.message.trim(),
    translations: translationsBody(v.translations) ?? {},
    channels: v.channels,
    ...(radius !== null ? { radiusKm: radius } : {}),
  };
}

/** What "Save as template" stores of Quick Send's values. */
export function templateFromQuickSend(name: string, v: QuickSendValues) {
  const type = v.type || DEFAULT_ADMIN_ALERT_TYPE;
  return {
    name: name.trim(),
    type,
    category: categoryOfType(type),
    severity: severityFromPriority(v.priority),
    title: v.title.trim(),
    message: v.message.trim(),
    translations: translationsBody(v.translations) ?? {},
    channels: v.channels.map((c) => (c === 'web_push' ? ('push' as const) : ('sms' as const))),
  };
}
