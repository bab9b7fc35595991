import { emailSubject, isLanguage, messageWords, SMS_MAX_SEGMENTS, smsSegments, type Language } from '@beacon/contracts';
import { digestLanguage, emailAlertHtml, emailAlertText, isDigest } from './digest';
import type { EmailContent } from './email.sender';
import type { ChannelMessage } from './send-targets.repository';

/**
 * What a message to an external contact (issue #42: someone on a contact group's list, with no Beacon account) says
 * that a user's does not, in each language Beacon speaks. They cannot sign in, so their e-mail carries no link to
 * pages that need it (the alert's page, their alert list), and says instead why it came and how to stop it; their SMS
 * says how to stop it, in the words Beacon's answers to replies use (a STOP from the number works as any number's).
 */
export interface ExternalWords {
  /** The last line of an SMS: a suffix of REPLY_WORDS' noAlert, the wording Beacon's SMS answers already use. */
  smsStop: string;
  /** The end of an e-mail: why it came, and how to stop such e-mails without an account. */
  emailWhy: string;
  /** A digest's title: how many alerts (never "in your area": they have no home on file). */
  digestTitle: (alerts: number) => string;
}

export const EXTERNAL_WORDS: Record<Language, ExternalWords> = {
  en: {
    smsStop: 'Reply STOP to stop SMS alerts.',
    emailWhy: 'You get these alerts because you are on a contact list of the service that sends them. To stop these e-mails, ask it to take you off the list.',
    digestTitle: (n) => `${n} alerts`,
  },
  es: {
    smsStop: 'Responda STOP para dejar de recibir alertas por SMS.',
    emailWhy:
      'Recibe estas alertas porque figura en una lista de contactos del servicio que las envía. Para dejar de recibir estos correos, pídale que lo quite de la lista.',
    digestTitle: (n) => `${n} alertas`,
  },
  fr: {
    smsStop: 'Répondez STOP pour arrêter les alertes par SMS.',
    emailWhy:
      'Vous recevez ces alertes parce que vous figurez sur une liste de contacts du service qui les envoie. Pour ne plus recevoir ces e-mails, demandez-lui de vous retirer de la liste.',
    digestTitle: (n) => `${n} alertes`,
  },
  zh: {
    smsStop: '回复 STOP 可停止短信警报。',
    emailWhy: '您收到这些警报，是因为您在发送警报的机构的联系人名单上。如不想再收到这些电子邮件，请联系该机构将您从名单中删除。',
    digestTitle: (n) => `${n} 条警报`,
  },
  vi: {
    smsStop: 'Trả lời STOP để dừng cảnh báo qua SMS.',
    emailWhy:
      'Bạn nhận được các cảnh báo này vì bạn có trong danh sách liên hệ của cơ quan gửi chúng. Để ngừng nhận các email này, hãy đề nghị cơ quan đó xóa bạn khỏi danh sách.',
    digestTitle: (n) => `${n} cảnh báo`,
  },
  ko: {
    smsStop: 'SMS 경보를 중지하려면 STOP이라고 답장하십시오.',
    emailWhy:
      '이 경보를 보내는 기관의 연락처 목록에 있어 이 경보를 받고 있습니다. 이 이메일을 더 이상 받지 않으려면 해당 기관에 목록에서 삭제해 달라고 요청하십시오.',
    digestTitle: (n) => `경보 ${n}건`,
  },
};

/** The words in `language` (the language the message's text is in, as the words around it are), English otherwise. */
export const externalWords = (language: string | null | undefined): ExternalWords => EXTERNAL_WORDS[isLanguage(language) ? language : 'en'];

/**
 * An SMS to an external contact, `text` as a user would get it (its title, and its message the gateway or Twilio's body
 * puts after a blank line): the STOP line ends the message after a blank line, unless it would take the whole body
 * past SMS_MAX_SEGMENTS (most gateways refuse longer ones): the alert matters more than the hint, and STOP works
 * without it.
 */
export function withSmsStop<T extends { title: string; message: string }>(text: T, language: string | null | undefined): T {
  const message = `${text.message}\n\n${externalWords(language).smsStop}`;
  return smsSegments(`${text.title}\n\n${message}`).segments <= SMS_MAX_SEGMENTS ? { ...text, message } : text;
}

const escapeHtml = (s: string) => s.replace(/[&<>"']/g, (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c]!);

/**
 * An e-mail to an external contact: the alert (or the digest's alerts) as a user's e-mail says it, in the same words,
 * with no link (the alert's page and the alert list need an account) and, last, why it came and how to stop it.
 */
export function externalEmailContent(m: ChannelMessage): EmailContent {
  const lead = m.alerts[0];
  if (!isDigest(m)) {
    const why = externalWords(lead.language).emailWhy;
    return {
      subject: emailSubject(lead, lead.source === 'test'),
      text: `${emailAlertText(lead)}\n\n--\n${why}\n`,
      html: `${emailAlertHtml(lead)}\n<hr>\n<p><small>${escapeHtml(why)}</small></p>`,
    };
  }
  const language = digestLanguage(m.alerts);
  const w = messageWords(language);
  const x = externalWords(language);
  const title = x.digestTitle(m.alerts.length);
  return {
    subject: `[${w.severities[lead.severity]}] ${title}`,
    text: `${title}, ${w.mostSevereFirst}.\n\n${m.alerts.map((a) => emailAlertText(a, w)).join('\n\n----\n\n')}\n\n--\n${x.emailWhy}\n`,
    html: `<h2>${escapeHtml(title)}</h2>\n${m.alerts.map((a) => emailAlertHtml(a, 'h3', w)).join('\n<hr>\n')}\n<hr>\n<p><small>${escapeHtml(x.emailWhy)}</small></p>`,
  };
}
