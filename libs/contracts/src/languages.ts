import type { AlertCategory, DeliveryChannel, Severity } from './alert-vocabulary';

/**
 * Alert languages (issue #19). An alert's own title and message are English; `translations` may carry the same text in
 * the other supported languages (WEA requires Spanish). Each user picks a language in their alert preferences, and
 * every channel (push, SMS, e-mail, the feed) shows the alert in it, falling back to English where it has no text.
 * Shared by services and the web app: no Node imports.
 */
export const SUPPORTED_LANGUAGES = ['en', 'es', 'fr', 'zh', 'vi', 'ko'] as const;
export type Language = (typeof SUPPORTED_LANGUAGES)[number];
export const DEFAULT_LANGUAGE: Language = 'en';

/** The languages an alert may be translated into: all but English, which is the alert's own title and message. */
export const TRANSLATION_LANGUAGES = SUPPORTED_LANGUAGES.filter((l): l is Exclude<Language, 'en'> => l !== 'en');
export type TranslationLanguage = (typeof TRANSLATION_LANGUAGES)[number];

/** Each language's name in English and in itself, for selects. */
export const LANGUAGE_LABELS: Record<Language, string> = {
  en: 'English',
  es: 'Spanish (Español)',
  fr: 'French (Français)',
  zh: 'Chinese (中文)',
  vi: 'Vietnamese (Tiếng Việt)',
  ko: 'Korean (한국어)',
};

/** The RFC 3066 tag a CAP <info> block carries for each language (CAP 1.2 §3.2.2 `language`). */
export const CAP_LANGUAGE_TAGS: Record<Language, string> = { en: 'en-US', es: 'es-US', fr: 'fr', zh: 'zh', vi: 'vi', ko: 'ko' };

export const isLanguage = (x: unknown): x is Language => typeof x === 'string' && (SUPPORTED_LANGUAGES as readonly string[]).includes(x);
export const isTranslationLanguage = (x: unknown): x is TranslationLanguage =>
  typeof x === 'string' && (TRANSLATION_LANGUAGES as readonly string[]).includes(x);

/**
 * A browser's language (navigator.language, e.g. es-MX, zh-Hant-TW) mapped to a supported one by its primary subtag;
 * English when none matches.
 */
export function languageFromLocale(locale: string | null | undefined): Language {
  const primary = (locale ?? '').trim().toLowerCase().split(/[-_]/)[0];
  return isLanguage(primary) ? primary : DEFAULT_LANGUAGE;
}

/** An alert's text in one language. */
export interface AlertText {
  title: string;
  message: string;
}

/** An alert's text in languages other than English, by language code. */
export type AlertTranslations = Partial<Record<TranslationLanguage, AlertText>>;

/**
 * The alert's text in `language`: its translation when it has one, else its English title and message. `language`
 * says which one was chosen. The one rule every channel and the feed use.
 */
export function textInLanguage(
  alert: AlertText & { translations?: AlertTranslations | null },
  language: string | null | undefined,
): AlertText & { language: Language } {
  // Looked up only by a known code: a key such as 'constructor' would find Object's own members.
  const t = isTranslationLanguage(language) ? alert.translations?.[language] : undefined;
  return t ? { title: t.title, message: t.message, language: language as Language } : { title: alert.title, message: alert.message, language: 'en' };
}

/** Every language an alert has text in, English first, then the translations in SUPPORTED_LANGUAGES order. */
export function alertLanguages(alert: { translations?: AlertTranslations | null }): Language[] {
  return SUPPORTED_LANGUAGES.filter((l) => l === 'en' || !!alert.translations?.[l]);
}

// ---------------------------------------------------------------- SMS segments

/**
 * The most segments an alert's SMS may take, in any of its languages. Gateways concatenate up to about 10 parts and
 * most carriers refuse or truncate beyond; an alert that long is also too long to read on a phone.
 */
export const SMS_MAX_SEGMENTS = 10;

/**
 * The text an SMS carries for an alert, as the segment limit counts it: the title, a line break, the message. The SMS
 * webhook receives title and message (and the language) and the gateway sends them so; Beacon adds nothing else.
 */
export const smsText = (t: AlertText): string => `${t.title}\n${t.message}`;

// The counting itself (smsSegments) lives in sms-segments.ts with the counter it wraps (sms-segments-calculator and
// grapheme-splitter, about 35 KiB): the alerts service and the admin console count, the user's screens never do, and the
// web build keeps that module out of every chunk but the console's (web/chunk-boundaries.ts checks it).
export { smsSegments, type SmsEncoding, type SmsSegments } from './sms-segments';

// ---------------------------------------------------------------- alert templates

/**
 * A saved alert template (GET/POST/PUT/DELETE /api/alerts/templates) that the wizard and Quick Send start from: what
 * kind of alert, how severe, its text in English (title, message) and other languages, its channels and default radius.
 */
export interface AlertTemplate {
  id: string;
  name: string;
  type: string;
  category: AlertCategory;
  severity: Severity;
  title: string;
  message: string;
  translations: AlertTranslations;
  channels: DeliveryChannel[];
  /** The radius the form starts with; null: the form's own default. */
  radiusKm: number | null;
  createdAt: string;
  updatedAt: string;
}

export const TEMPLATE_NAME_MAX = 100;

/**
 * The words Beacon itself puts around an alert's text when a delivery carries more than the alert (issue #19): the
 * prefix of a reminder, an update and the all-clear, what someone an update moved out of the area is told, and the
 * all-clear's words when the admin wrote none. Each language's own, so a Spanish reader never gets "Update:".
 */
export interface LifecycleWords {
  reminder: string;
  update: string;
  allClear: string;
  leftArea: string;
  allClearDefault: string;
}

export const LIFECYCLE_WORDS: Record<Language, LifecycleWords> = {
  en: {
    reminder: 'Reminder: ',
    update: 'Update: ',
    allClear: 'All clear: ',
    leftArea: 'The area of this alert has changed and no longer includes your location.',
    allClearDefault: 'The danger has passed. This alert has ended.',
  },
  es: {
    reminder: 'Recordatorio: ',
    update: 'Actualización: ',
    allClear: 'Fin de la alerta: ',
    leftArea: 'El área de esta alerta ha cambiado y ya no incluye su ubicación.',
    allClearDefault: 'El peligro ha pasado. Esta alerta ha terminado.',
  },
  fr: {
    reminder: 'Rappel : ',
    update: 'Mise à jour : ',
    allClear: "Fin d'alerte : ",
    leftArea: "La zone de cette alerte a changé et n'inclut plus votre position.",
    allClearDefault: 'Le danger est passé. Cette alerte est terminée.',
  },
  zh: {
    reminder: '提醒：',
    update: '更新：',
    allClear: '警报解除：',
    leftArea: '此警报的区域已更改，不再包括您的位置。',
    allClearDefault: '危险已经过去。此警报已结束。',
  },
  vi: {
    reminder: 'Nhắc lại: ',
    update: 'Cập nhật: ',
    allClear: 'Hết cảnh báo: ',
    leftArea: 'Khu vực của cảnh báo này đã thay đổi và không còn bao gồm vị trí của bạn.',
    allClearDefault: 'Nguy hiểm đã qua. Cảnh báo này đã kết thúc.',
  },
  ko: {
    reminder: '알림: ',
    update: '업데이트: ',
    allClear: '경보 해제: ',
    leftArea: '이 경보의 지역이 변경되어 더 이상 귀하의 위치를 포함하지 않습니다.',
    allClearDefault: '위험이 지났습니다. 이 경보는 종료되었습니다.',
  },
};

/** The lifecycle words in `language`, English when it is not one Beacon speaks. */
export const lifecycleWords = (language: string | null | undefined): LifecycleWords => (isLanguage(language) ? LIFECYCLE_WORDS[language] : LIFECYCLE_WORDS.en);

/**
 * The words Beacon puts around an alert in a message of its own making (an e-mail, a digest): the labels of its
 * severity, category and place, their values, the links' texts and a digest's frame. Each language's own, so that a
 * Spanish reader's e-mail is Spanish around the alert's Spanish text (issue #38), never "[High]" or "View the alert".
 */
export interface MessageWords {
  severity: string;
  category: string;
  location: string;
  severities: Record<Severity, string>;
  categories: Record<AlertCategory, string>;
  viewAlert: string;
  allAlerts: string;
  details: string;
  digestTitle: (alerts: number) => string;
  /** What follows a digest's title in its e-mail: how the alerts are ordered. */
  mostSevereFirst: string;
  more: (alerts: number) => string;
}

export const MESSAGE_WORDS: Record<Language, MessageWords> = {
  en: {
    severity: 'Severity',
    category: 'Category',
    location: 'Location',
    severities: { low: 'Low', medium: 'Medium', high: 'High', critical: 'Critical' },
    categories: { weather: 'Weather', traffic: 'Traffic', security: 'Security', public_safety: 'Public Safety', health: 'Health' },
    viewAlert: 'View the alert',
    allAlerts: 'All your alerts',
    details: 'Details',
    digestTitle: (n) => `${n} alerts in your area`,
    mostSevereFirst: 'the most severe first',
    more: (n) => `and ${n} more`,
  },
  es: {
    severity: 'Gravedad',
    category: 'Categoría',
    location: 'Lugar',
    severities: { low: 'Baja', medium: 'Media', high: 'Alta', critical: 'Crítica' },
    categories: { weather: 'Clima', traffic: 'Tráfico', security: 'Seguridad', public_safety: 'Seguridad pública', health: 'Salud' },
    viewAlert: 'Ver la alerta',
    allAlerts: 'Todas sus alertas',
    details: 'Detalles',
    digestTitle: (n) => `${n} alertas en su zona`,
    mostSevereFirst: 'la más grave primero',
    more: (n) => `y ${n} más`,
  },
  fr: {
    severity: 'Gravité',
    category: 'Catégorie',
    location: 'Lieu',
    severities: { low: 'Faible', medium: 'Moyenne', high: 'Élevée', critical: 'Critique' },
    categories: { weather: 'Météo', traffic: 'Circulation', security: 'Sécurité', public_safety: 'Sécurité publique', health: 'Santé' },
    viewAlert: "Voir l'alerte",
    allAlerts: 'Toutes vos alertes',
    details: 'Détails',
    digestTitle: (n) => `${n} alertes dans votre secteur`,
    mostSevereFirst: 'la plus grave en premier',
    more: (n) => `et ${n} de plus`,
  },
  zh: {
    severity: '严重程度',
    category: '类别',
    location: '地点',
    severities: { low: '低', medium: '中', high: '高', critical: '危急' },
    categories: { weather: '天气', traffic: '交通', security: '安全', public_safety: '公共安全', health: '健康' },
    viewAlert: '查看警报',
    allAlerts: '您的所有警报',
    details: '详情',
    digestTitle: (n) => `您所在地区有 ${n} 条警报`,
    mostSevereFirst: '最严重的在前',
    more: (n) => `还有 ${n} 条`,
  },
  vi: {
    severity: 'Mức độ',
    category: 'Loại',
    location: 'Địa điểm',
    severities: { low: 'Thấp', medium: 'Trung bình', high: 'Cao', critical: 'Nghiêm trọng' },
    categories: { weather: 'Thời tiết', traffic: 'Giao thông', security: 'An ninh', public_safety: 'An toàn công cộng', health: 'Y tế' },
    viewAlert: 'Xem cảnh báo',
    allAlerts: 'Tất cả cảnh báo của bạn',
    details: 'Chi tiết',
    digestTitle: (n) => `${n} cảnh báo trong khu vực của bạn`,
    mostSevereFirst: 'nghiêm trọng nhất trước',
    more: (n) => `và ${n} cảnh báo khác`,
  },
  ko: {
    severity: '심각도',
    category: '분류',
    location: '위치',
    severities: { low: '낮음', medium: '보통', high: '높음', critical: '위급' },
    categories: { weather: '날씨', traffic: '교통', security: '보안', public_safety: '공공 안전', health: '보건' },
    viewAlert: '경보 보기',
    allAlerts: '내 모든 경보',
    details: '자세히',
    digestTitle: (n) => `내 지역의 경보 ${n}건`,
    mostSevereFirst: '가장 심각한 것부터',
    more: (n) => `외 ${n}건`,
  },
};

/** The message words in `language`, English when it is not one Beacon speaks. */
export const messageWords = (language: string | null | undefined): MessageWords => (isLanguage(language) ? MESSAGE_WORDS[language] : MESSAGE_WORDS.en);
