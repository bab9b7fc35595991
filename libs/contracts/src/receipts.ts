/*
 * Issue #39: every channel closes its loop. What providers tell Beacon after a message left (receipts), what people
 * answer by SMS and by phone (replies), the words a voice call speaks, and the health of each channel's provider.
 * Shared by the alerts service and the web app: no Node imports.
 */
import type { DeliveryChannel } from './alert-vocabulary';
import { isLanguage, type Language } from './languages';

// ---------------------------------------------------------------- receipts

/**
 * What a provider's receipt said of one delivery (alert_deliveries.receipt). A delivery is `sent` when the provider
 * accepted it, and only a receipt makes it `delivered` (delivered, answered, read) or failed (the others, with the
 * provider's reason in its error). `no_answer` and `busy` of a voice call are redialled while the alert is in effect,
 * up to VOICE_MAX_ATTEMPTS; only the last one's receipt fails the delivery.
 */
export const DELIVERY_RECEIPTS = ['delivered', 'undelivered', 'bounced', 'complained', 'answered', 'no_answer', 'busy', 'failed'] as const;
export type DeliveryReceipt = (typeof DELIVERY_RECEIPTS)[number];

/** Receipts that say the message reached the person's device or the person (the row becomes delivered). */
export const RECEIPTS_DELIVERED: readonly DeliveryReceipt[] = ['delivered', 'answered'];
/**
 * Receipts that fail the delivery. A complaint (marked as spam) comes after a delivery: the message did arrive, so the
 * row stays delivered and only records it; the e-mail address is not written to again by that alert's later rounds.
 */
export const RECEIPTS_FAILED: readonly DeliveryReceipt[] = ['undelivered', 'bounced', 'no_answer', 'busy', 'failed'];

export const DELIVERY_RECEIPT_LABELS: Record<DeliveryReceipt, string> = {
  delivered: 'Delivered',
  undelivered: 'Undelivered',
  bounced: 'Bounced',
  complained: 'Marked as spam',
  answered: 'Answered',
  no_answer: 'No answer',
  busy: 'Busy',
  failed: 'Call failed',
};

/** How many times a voice delivery is dialled (the first call and its redials after no answer or busy). */
export const VOICE_MAX_ATTEMPTS = 3;
/** Seconds between a voice call that was not answered and its redial. */
export const VOICE_REDIAL_SECONDS = 60;
/** How long a voice call rings before it counts as not answered (Twilio's `Timeout`). */
export const VOICE_RING_SECONDS = 30;

/**
 * Whether a channel's provider, as configured, sends receipts: push (the service worker reports the notification
 * shown), SMS through Twilio or a generic webhook with its receipt secret set, e-mail with the relay's event-webhook
 * signing key set, voice (Twilio, always). A channel without receipts reads "Sent to provider, no receipts" for good.
 */
export type ChannelReceipts = Partial<Record<DeliveryChannel, boolean>>;

// ---------------------------------------------------------------- providers

/** The SMS providers: the generic JSON webhook (kept) and the Twilio-compatible REST API (SMS and voice). */
export const SMS_PROVIDERS = ['webhook', 'twilio'] as const;
export type SmsProvider = (typeof SMS_PROVIDERS)[number];

/** The Twilio-compatible account as admins see it: the auth token only masked. */
export interface TwilioSettingsView {
  accountSid: string;
  authTokenSet: boolean;
  authTokenMasked: string;
  /** The E.164 number (or messaging service's number) messages and calls come from. */
  fromNumber: string;
}

/**
 * The URLs a provider must be given (Twilio's number configuration, the webhook's documentation, the relay's event
 * webhook), built from PUBLIC_URL. Shown on Admin Settings so an admin can paste them.
 */
export interface ProviderCallbackUrls {
  webhookStatus: string;
  webhookInbound: string;
  twilioSmsStatus: string;
  twilioSmsInbound: string;
  twilioVoiceStatus: string;
  twilioVoiceGather: string;
  emailEvents: string;
}

/** Paths under /api/alerts of the public provider endpoints (no session: each checks its provider's signature). */
export const PROVIDER_CALLBACK_PATHS: Record<keyof ProviderCallbackUrls, string> = {
  webhookStatus: '/providers/webhook/status',
  webhookInbound: '/providers/webhook/inbound',
  twilioSmsStatus: '/providers/twilio/sms/status',
  twilioSmsInbound: '/providers/twilio/sms/inbound',
  twilioVoiceStatus: '/providers/twilio/voice/status',
  twilioVoiceGather: '/providers/twilio/voice/gather',
  emailEvents: '/providers/email/events',
};

/**
 * The generic webhook's signature header on Beacon's receipts and replies endpoints:
 * `X-Beacon-Signature: t=<unix seconds>,v1=<hex HMAC-SHA256 of "<t>.<raw body>" with the receipt secret>`.
 * Requests older or newer than WEBHOOK_SIGNATURE_TOLERANCE_SECONDS are refused (replay window).
 */
export const WEBHOOK_SIGNATURE_HEADER = 'x-beacon-signature';
export const WEBHOOK_SIGNATURE_TOLERANCE_SECONDS = 300;

/** What a receipts endpoint answers: how many deliveries the receipts changed (0 for unknown or settled ones). */
export interface ReceiptsApplied {
  applied: number;
}

// ---------------------------------------------------------------- replies

/** The generic webhook's inbound endpoint answers the words to send back to the number (the gateway sends them). */
export interface ProviderReply {
  reply: string;
}

/** What a reply by SMS or a key pressed in a call asks for. `other`: anything else, answered with the choices. */
export type ReplyIntent = 'safe' | 'help' | 'stop' | 'start' | 'other';

/**
 * The reply's intent: SAFE or 1 is I'm Safe, HELP or 2 a help request, STOP (and the carriers' other opt-out words)
 * stops every SMS to the number, START (and UNSTOP) resumes them. Case, spaces and a final full stop do not matter.
 */
export function replyIntent(text: string): ReplyIntent {
  const word = text
    .trim()
    .replace(/[.!。！]+$/u, '')
    .trim()
    .toUpperCase();
  if (word === 'SAFE' || word === '1') return 'safe';
  if (word === 'HELP' || word === '2') return 'help';
  if (['STOP', 'STOPALL', 'UNSUBSCRIBE', 'CANCEL', 'END', 'QUIT'].includes(word)) return 'stop';
  if (['START', 'UNSTOP', 'YES'].includes(word)) return 'start';
  return 'other';
}

/** One reply as the console lists it (newest first) and the live tallies count it. */
export interface DeliveryReply {
  id: string;
  alertId: string | null;
  channel: 'sms' | 'voice';
  intent: ReplyIntent;
  /** The number, masked as the per-recipient report masks contacts. */
  from: string;
  receivedAt: string;
}

/**
 * The words of Beacon's answers to replies and of its calls, in each language it speaks. Each language's own, written
 * for a public-safety service: short, plain, imperative.
 */
export interface ReplyWords {
  safe: string;
  help: string;
  stop: string;
  start: string;
  /** The answer to anything else: the choices. */
  choices: string;
  /** A reply from a number Beacon sent no alert to recently. */
  noAlert: string;
}

export interface VoiceWords {
  /** Said first: who is calling. */
  intro: string;
  /** Before the alert is said a second time. */
  repeat: string;
  /** The place, before its name. */
  place: string;
  prompt: string;
  /** After key 1 / key 2 / no key. */
  safe: string;
  help: string;
  goodbye: string;
}

export const REPLY_WORDS: Record<Language, ReplyWords> = {
  en: {
    safe: 'Beacon: Thank you. You are marked safe.',
    help: 'Beacon: Your request for help was sent. Stay where you are safe. In danger, call 911.',
    stop: 'Beacon: You will get no more SMS alerts. Reply START to get them again.',
    start: 'Beacon: SMS alerts are on again. Reply STOP to stop them.',
    choices: 'Beacon: Reply SAFE (or 1) if you are safe, HELP (or 2) if you need help, STOP to stop SMS alerts.',
    noAlert: 'Beacon: There is no recent alert to answer. Reply STOP to stop SMS alerts.',
  },
  es: {
    safe: 'Beacon: Gracias. Usted está marcado como a salvo.',
    help: 'Beacon: Su pedido de ayuda fue enviado. Quédese en un lugar seguro. Si corre peligro, llame al 911.',
    stop: 'Beacon: Ya no recibirá alertas por SMS. Responda START para volver a recibirlas.',
    start: 'Beacon: Las alertas por SMS están activas de nuevo. Responda STOP para detenerlas.',
    choices: 'Beacon: Responda SAFE (o 1) si está a salvo, HELP (o 2) si necesita ayuda, STOP para dejar de recibir alertas por SMS.',
    noAlert: 'Beacon: No hay ninguna alerta reciente que responder. Responda STOP para dejar de recibir alertas por SMS.',
  },
  fr: {
    safe: 'Beacon : Merci. Vous êtes indiqué en sécurité.',
    help: "Beacon : Votre demande d'aide a été envoyée. Restez en lieu sûr. En cas de danger, appelez le 911.",
    stop: "Beacon : Vous ne recevrez plus d'alertes par SMS. Répondez START pour les recevoir à nouveau.",
    start: 'Beacon : Les alertes par SMS sont de nouveau actives. Répondez STOP pour les arrêter.',
    choices: "Beacon : Répondez SAFE (ou 1) si vous êtes en sécurité, HELP (ou 2) si vous avez besoin d'aide, STOP pour arrêter les alertes par SMS.",
    noAlert: 'Beacon : Aucune alerte récente à laquelle répondre. Répondez STOP pour arrêter les alertes par SMS.',
  },
  zh: {
    safe: 'Beacon：谢谢。您已被标记为安全。',
    help: 'Beacon：您的求助请求已发送。请留在安全的地方。如有危险，请拨打 911。',
    stop: 'Beacon：您将不再收到短信警报。回复 START 可重新接收。',
    start: 'Beacon：短信警报已重新开启。回复 STOP 可停止。',
    choices: 'Beacon：如果您安全，请回复 SAFE（或 1）；如需帮助，请回复 HELP（或 2）；回复 STOP 可停止短信警报。',
    noAlert: 'Beacon：没有可回复的最近警报。回复 STOP 可停止短信警报。',
  },
  vi: {
    safe: 'Beacon: Cảm ơn. Bạn đã được ghi nhận là an toàn.',
    help: 'Beacon: Yêu cầu trợ giúp của bạn đã được gửi. Hãy ở nơi an toàn. Nếu gặp nguy hiểm, hãy gọi 911.',
    stop: 'Beacon: Bạn sẽ không nhận cảnh báo qua SMS nữa. Trả lời START để nhận lại.',
    start: 'Beacon: Cảnh báo qua SMS đã được bật lại. Trả lời STOP để dừng.',
    choices: 'Beacon: Trả lời SAFE (hoặc 1) nếu bạn an toàn, HELP (hoặc 2) nếu bạn cần trợ giúp, STOP để dừng cảnh báo qua SMS.',
    noAlert: 'Beacon: Không có cảnh báo gần đây để trả lời. Trả lời STOP để dừng cảnh báo qua SMS.',
  },
  ko: {
    safe: 'Beacon: 감사합니다. 안전한 것으로 표시되었습니다.',
    help: 'Beacon: 도움 요청이 전송되었습니다. 안전한 곳에 머무르십시오. 위험하면 911에 전화하십시오.',
    stop: 'Beacon: 더 이상 SMS 경보를 받지 않습니다. 다시 받으려면 START라고 답장하십시오.',
    start: 'Beacon: SMS 경보가 다시 켜졌습니다. 중지하려면 STOP이라고 답장하십시오.',
    choices: 'Beacon: 안전하면 SAFE(또는 1), 도움이 필요하면 HELP(또는 2), SMS 경보를 중지하려면 STOP이라고 답장하십시오.',
    noAlert: 'Beacon: 답장할 최근 경보가 없습니다. SMS 경보를 중지하려면 STOP이라고 답장하십시오.',
  },
};

export const VOICE_WORDS: Record<Language, VoiceWords> = {
  en: {
    intro: 'This is a Beacon public safety alert.',
    repeat: 'Again:',
    place: 'Location:',
    prompt: 'Press 1 if you are safe. Press 2 if you need help.',
    safe: 'Thank you. You are marked safe. Goodbye.',
    help: 'Your request for help was sent. Stay where you are safe. Goodbye.',
    goodbye: 'Goodbye.',
  },
  es: {
    intro: 'Esta es una alerta de seguridad pública de Beacon.',
    repeat: 'Repetimos:',
    place: 'Lugar:',
    prompt: 'Marque 1 si está a salvo. Marque 2 si necesita ayuda.',
    safe: 'Gracias. Usted está marcado como a salvo. Adiós.',
    help: 'Su pedido de ayuda fue enviado. Quédese en un lugar seguro. Adiós.',
    goodbye: 'Adiós.',
  },
  fr: {
    intro: 'Ceci est une alerte de sécurité publique de Beacon.',
    repeat: 'Je répète :',
    place: 'Lieu :',
    prompt: "Appuyez sur 1 si vous êtes en sécurité. Appuyez sur 2 si vous avez besoin d'aide.",
    safe: 'Merci. Vous êtes indiqué en sécurité. Au revoir.',
    help: "Votre demande d'aide a été envoyée. Restez en lieu sûr. Au revoir.",
    goodbye: 'Au revoir.',
  },
  zh: {
    intro: '这是 Beacon 公共安全警报。',
    repeat: '再说一遍：',
    place: '地点：',
    prompt: '如果您安全，请按 1。如需帮助，请按 2。',
    safe: '谢谢。您已被标记为安全。再见。',
    help: '您的求助请求已发送。请留在安全的地方。再见。',
    goodbye: '再见。',
  },
  vi: {
    intro: 'Đây là cảnh báo an toàn công cộng của Beacon.',
    repeat: 'Xin nhắc lại:',
    place: 'Địa điểm:',
    prompt: 'Nhấn phím 1 nếu bạn an toàn. Nhấn phím 2 nếu bạn cần trợ giúp.',
    safe: 'Cảm ơn. Bạn đã được ghi nhận là an toàn. Tạm biệt.',
    help: 'Yêu cầu trợ giúp của bạn đã được gửi. Hãy ở nơi an toàn. Tạm biệt.',
    goodbye: 'Tạm biệt.',
  },
  ko: {
    intro: 'Beacon 공공 안전 경보입니다.',
    repeat: '다시 알려드립니다.',
    place: '장소:',
    prompt: '안전하면 1번을 누르십시오. 도움이 필요하면 2번을 누르십시오.',
    safe: '감사합니다. 안전한 것으로 표시되었습니다. 안녕히 계십시오.',
    help: '도움 요청이 전송되었습니다. 안전한 곳에 머무르십시오. 안녕히 계십시오.',
    goodbye: '안녕히 계십시오.',
  },
};

/** The `language` of Twilio's `<Say>` for each language Beacon speaks. */
export const VOICE_LANGUAGE_TAGS: Record<Language, string> = { en: 'en-US', es: 'es-US', fr: 'fr-FR', zh: 'cmn-CN', vi: 'vi-VN', ko: 'ko-KR' };

export const replyWords = (language: string | null | undefined): ReplyWords => REPLY_WORDS[isLanguage(language) ? language : 'en'];
export const voiceWords = (language: string | null | undefined): VoiceWords => VOICE_WORDS[isLanguage(language) ? language : 'en'];

// ---------------------------------------------------------------- provider health

/** One channel's provider as the dashboard and the composer show it (GET /api/alerts/admin/channel-health). */
export interface ChannelHealth {
  channel: DeliveryChannel;
  /** Which provider sends it: the push services, the SMS webhook, Twilio, the mail relay; null when none is set. */
  provider: 'push_services' | SmsProvider | 'relay' | null;
  /** Set up and switched on. */
  configured: boolean;
  /** Why it cannot send as saved, in the audience preview's words (null: it can). */
  problem: string | null;
  /** Whether its provider sends receipts as configured (see ChannelReceipts). */
  receipts: boolean;
  /** The last Test Connection of its provider. */
  lastTest: { at: string; ok: boolean; message: string } | null;
  /** The last failure of a send on it, as the provider said it. */
  lastError: { at: string; message: string } | null;
  /** Receipts recorded in the last hour. */
  receiptsLastHour: number;
  /** People it can reach now: the channel on, with a number, address or subscribed browser (and not STOPped for SMS). */
  reachableNow: number;
  /** SMS only: numbers that replied STOP and get no SMS. */
  stoppedNumbers?: number;
}

export interface ChannelHealthReport {
  channels: ChannelHealth[];
  checkedAt: string;
}
