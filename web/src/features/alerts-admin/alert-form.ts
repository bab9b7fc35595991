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
  areaProblem,
  openRing,
  areaParts,
  SCHEDULE_MAX_DAYS,
  type AlertArea,
  type AlertAreaPart,
  type AlertTargetGroup,
} from '@beacon/contracts';
import type { IntlShape } from 'react-intl';
import { serverNow } from '@/common/server-clock';
import { currentIntl } from '@/i18n';
import { GROUP_WORDS, groupsProblem } from './target-groups';

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
 * when chosen and its own box ticked. With several parts (issue #42), the shape of the part being edited.
 */
export type AreaType = 'circle' | 'polygon' | 'everyone';

/** One part of the area as the form holds it (issue #42): a circle or a polygon, and its optional name (CAP's areaDesc). */
export interface AreaPartValues {
  shape: 'circle' | 'polygon';
  points: [number, number][];
  lat: number | null;
  lng: number | null;
  radiusKm: string;
  description: string;
}

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
  /** The name of the part being edited ("Kings County"), optional. */
  areaDescription: string;
  /**
   * Every part of the area in order (issue #42), or empty while it has only one. The part being edited, `editing`,
   * is the one the fields above hold (areaType, points, lat, lng, radiusKm, areaDescription): its entry here is stale,
   * so that the map and inputs of the one part drawn today draw any part unchanged. Read them with areaPartsOf.
   */
  parts: AreaPartValues[];
  editing: number;
}

export const AREA_DEFAULTS: AreaValues = {
  areaType: 'circle',
  points: [],
  lat: null,
  lng: null,
  radiusKm: String(ALERT_LIMITS.radiusKmDefault),
  everyoneConfirmed: false,
  areaDescription: '',
  parts: [],
  editing: 0,
};

const newPart = (shape: AreaPartValues['shape']): AreaPartValues => ({
  shape,
  points: [],
  lat: null,
  lng: null,
  radiusKm: String(ALERT_LIMITS.radiusKmDefault),
  description: '',
});

/** The part being edited, as the fields hold it. */
const editedPart = (v: AreaValues): AreaPartValues => ({
  shape: v.areaType === 'polygon' ? 'polygon' : 'circle',
  points: v.points,
  lat: v.lat,
  lng: v.lng,
  radiusKm: v.radiusKm,
  description: v.areaDescription,
});

/** Every part of the area, in order, the one being edited as its fields hold it. */
export const areaPartsOf = (v: AreaValues): AreaPartValues[] =>
  v.parts.length ? v.parts.map((p, i) => (i === v.editing ? editedPart(v) : p)) : [editedPart(v)];

/** The area's fields that change when `parts` becomes the area and part `index` the one edited. */
type AreaPatch = Pick<AreaValues, 'areaType' | 'points' | 'lat' | 'lng' | 'radiusKm' | 'areaDescription' | 'parts' | 'editing'>;

function editing(parts: AreaPartValues[], index: number): AreaPatch {
  if (parts.length === 0) return editing([newPart('circle')], 0);
  const p = parts[index];
  return {
    areaType: p.shape,
    points: p.points,
    lat: p.lat,
    lng: p.lng,
    radiusKm: p.radiusKm,
    areaDescription: p.description,
    parts: parts.length > 1 ? parts : [],
    editing: parts.length > 1 ? index : 0,
  };
}

/** A new empty part of `shape` after the others, and edited. */
export const addPart = (v: AreaValues, shape: AreaPartValues['shape']): AreaPatch => {
  const parts = [...areaPartsOf(v), newPart(shape)];
  return editing(parts, parts.length - 1);
};

/** Part `index` edited, the one edited before kept as it was left. */
export const editPart = (v: AreaValues, index: number): AreaPatch => editing(areaPartsOf(v), index);

/** Part `index` gone; the one edited stays edited (the next one, when it was the one removed). */
export function removePart(v: AreaValues, index: number): AreaPatch {
  const parts = areaPartsOf(v).filter((_, i) => i !== index);
  const current = v.parts.length ? v.editing : 0;
  const next = current === index ? Math.min(index, parts.length - 1) : current > index ? current - 1 : current;
  return editing(parts, next);
}

/** Part `index` named (its description), whichever part is edited. */
export function renamePart(v: AreaValues, index: number, description: string): Partial<AreaPatch> {
  const current = v.parts.length ? v.editing : 0;
  if (index === current) return { areaDescription: description };
  return { parts: v.parts.map((p, i) => (i === index ? { ...p, description } : p)) };
}

/** The area of a saved alert as the form holds it, its first part edited (the update and edit-draft forms). */
export function areaValuesOf(area: AlertArea): AreaValues {
  const parts = (area.type === 'multi' ? area.parts : [area]).map((p): AreaPartValues =>
    p.type === 'polygon'
      ? { ...newPart('polygon'), points: openRing(p.points), description: p.description ?? '' }
      : { ...newPart('circle'), lat: p.lat, lng: p.lng, radiusKm: String(p.radiusKm), description: p.description ?? '' },
  );
  return { ...AREA_DEFAULTS, ...editing(parts, 0) };
}

/** The names of a saved area's parts in order ('' for one without), as the audience's counts by part name them. */
export const partNamesOf = (area: AlertArea | null): string[] => (area ? areaParts(area).map((p) => p.description?.trim() ?? '') : []);

/** A part's name as the console shows it: its description, or "Part 2". */
export const partName = (p: AreaPartValues, index: number) => p.description.trim() || `Part ${index + 1}`;

/** A part in words: "Circle, 5 km around 33.4, -112" or "Polygon with 3 corners". */
export function partSummary(p: AreaPartValues): string {
  if (p.shape === 'polygon')
    return p.points.length ? `Polygon with ${p.points.length} ${p.points.length === 1 ? 'corner' : 'corners'}` : 'Polygon, no corners yet';
  const radius = parseRadius(p.radiusKm);
  const size = radius === null ? 'Circle' : `Circle, ${radius} km`;
  return p.lat === null || p.lng === null ? `${size}, no centre yet` : `${size} around ${p.lat}, ${p.lng}`;
}

/** A part as the API takes it, or null while it is not complete (no centre). */
function partBody(p: AreaPartValues): AlertAreaPart | null {
  const description = p.description.trim() ? { description: p.description.trim() } : {};
  if (p.shape === 'polygon') return { type: 'polygon', points: p.points, ...description };
  if (p.lat === null || p.lng === null) return null;
  return { type: 'circle', lat: p.lat, lng: p.lng, radiusKm: parseRadius(p.radiusKm) ?? ALERT_LIMITS.radiusKmDefault, ...description };
}

/** The area the form's parts make: one part as itself, several as `multi`; null while none is complete. */
export function areaOfParts(parts: AreaPartValues[]): AlertArea | null {
  const complete = parts.map(partBody).filter((p): p is AlertAreaPart => p !== null);
  if (complete.length === 0) return null;
  return complete.length === 1 ? complete[0] : { type: 'multi', parts: complete };
}

/**
 * What is wrong with one part of several, for the list of parts and the form's check: nothing drawn yet, a radius
 * out of range, or the API's own rule (areaProblem): crossing edges, too few corners, too large.
 */
export function partProblem(p: AreaPartValues): string | undefined {
  if (p.shape === 'polygon' && p.points.length === 0) return 'No corners yet: click the map to draw this polygon';
  if (p.shape === 'circle') {
    if (p.lat === null || p.lng === null) return 'No centre yet: click the map to place this circle';
    if (parseRadius(p.radiusKm) === null) return MESSAGES.radius;
  }
  const body = partBody(p);
  return body ? areaProblem(body)?.message : undefined;
}

/** The area's errors: `area` (none chosen, a bad polygon, a bad part), `location`, `radiusKm`, `everyone` (box not ticked). */
export function areaErrors(v: AreaValues): FieldErrors {
  const errors: FieldErrors = {};
  if (v.areaType === 'everyone') {
    if (!v.everyoneConfirmed) errors.everyone = MESSAGES.everyoneUnconfirmed;
    return errors;
  }
  const radius = parseRadius(v.radiusKm);
  if (v.areaType === 'circle' && v.radiusKm.trim() !== '' && radius === null) errors.radiusKm = MESSAGES.radius;
  const parts = areaPartsOf(v);
  if (parts.length > 1) {
    // The radius field says its own; each other problem is named by its part, as the server names it.
    const current = v.parts.length ? v.editing : 0;
    const problems = parts.map((p, i) => (i === current && errors.radiusKm ? undefined : partProblem(p)));
    const first = problems.findIndex(Boolean);
    if (first >= 0) errors.area = `Area part ${first + 1}: ${problems[first]}`;
    else if (!errors.radiusKm) errors.area = areaProblem(areaOfParts(parts))?.message;
    return errors;
  }
  if (v.areaType === 'polygon') {
    errors.area = v.points.length === 0 ? MESSAGES.areaRequired : polygonProblem(v.points)?.message;
  } else {
    if (v.lat === null || v.lng === null) errors.area = MESSAGES.areaRequired;
    else if (v.lat < -90 || v.lat > 90 || v.lng < -180 || v.lng > 180) errors.location = MESSAGES.location;
  }
  return errors;
}

/** Nothing drawn: one part, a circle without a centre or a polygon without a corner (issue #42: no area, groups only). */
export function areaIsEmpty(v: AreaValues): boolean {
  if (v.areaType === 'everyone') return false;
  const parts = areaPartsOf(v);
  if (parts.length > 1) return false;
  const [p] = parts;
  return p.shape === 'polygon' ? p.points.length === 0 : p.lat === null || p.lng === null;
}

/** Where the wizard's alert goes (issue #42): its area, its contact groups, or both; or everyone, everywhere. */
export interface TargetValues extends AreaValues {
  /** The contact groups chosen, as their chips show them; [] for none. */
  groups: AlertTargetGroup[];
}

/**
 * The errors of where the alert goes: with a contact group chosen, an area is optional (nothing drawn is no area, but
 * anything drawn must be a valid area); without one, the area's own rules, whose "choose an area" now also offers the
 * groups. Everyone and groups never go together; at most ALERT_GROUPS_MAX groups. The groups' errors are `groups`.
 */
export function targetErrors(v: TargetValues, intl: IntlShape = currentIntl()): FieldErrors {
  const groups = groupsProblem(intl, v.groups, v.areaType === 'everyone');
  const errors: FieldErrors = v.groups.length > 0 && areaIsEmpty(v) ? {} : areaErrors(v);
  if (errors.area === MESSAGES.areaRequired) errors.area = intl.formatMessage(GROUP_WORDS.areaOrGroup);
  if (groups) errors.groups = groups;
  return errors;
}

/**
 * What the request says of the area: the circle as lat/lng/radiusKm, the polygon, several parts as `multi` (a named
 * part always as `area`, which carries its name), or `everyone: true`; never an area with everyone. Nothing drawn
 * says nothing (an alert to contact groups only, issue #42).
 */
export function areaBody(v: AreaValues): {
  area?: AlertArea;
  lat?: number;
  lng?: number;
  radiusKm?: number;
  everyone?: true;
} {
  if (v.areaType === 'everyone') return { everyone: true };
  if (areaIsEmpty(v)) return {};
  const area = areaOfParts(areaPartsOf(v));
  // An area is a centre AND a radius, or nothing (the server then refuses it: area_required).
  if (!area) return {};
  if (area.type === 'circle' && !area.description) return { lat: area.lat, lng: area.lng, radiusKm: area.radiusKm };
  return { area };
}

const AREA_KEYS: readonly string[] = ['areaType', 'points', 'lat', 'lng', 'radiusKm', 'everyoneConfirmed', 'areaDescription', 'parts', 'editing'];

/**
 * The messages a change to `key` answers: its own, and those of the area or the schedule it is part of. The area and
 * the groups answer each other's (a group makes the area optional; leaving everyone lets groups be).
 */
export function errorsClearedBy(key: string): FieldErrors {
  const cleared: FieldErrors = { [key]: undefined };
  if (AREA_KEYS.includes(key) || key === 'groups') Object.assign(cleared, { area: undefined, location: undefined, everyone: undefined, groups: undefined });
  if (key === 'when') cleared.sendAt = undefined;
  return cleared;
}

/** The server's 400s that belong to a field of the area, the groups or the schedule (issues #38, #42), by error code. */
export const FIELD_OF_CODE: Partial<Record<string, string>> = {
  area_required: 'area',
  area_and_everyone: 'area',
  alert_group_not_found: 'groups',
  alert_too_many_groups: 'groups',
  groups_and_everyone: 'groups',
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

export interface WizardValues extends TargetValues {
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
  groups: [],
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
    Object.assign(errors, targetErrors(v));
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
