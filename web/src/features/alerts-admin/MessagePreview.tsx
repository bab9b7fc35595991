import { Fragment } from 'react';
import {
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  LANGUAGE_LABELS,
  SEVERITY_INFO,
  SMS_MAX_SEGMENTS,
  smsSegments,
  smsText,
  voiceWords,
  type DeliveryChannel,
  type Language,
  type Severity,
} from '@beacon/contracts';
import './alert-page.css';

/** One language's message as a delivery carries it: its title (with Beacon's prefix, "Update: ") and its text. */
export interface PreviewText {
  language: Language;
  title: string;
  message: string;
}

/**
 * What each reader gets, per language and per channel, before an update or the all-clear goes out (issue #38): the
 * push notification's title and text, the e-mail's subject as the sender makes it, the SMS with its encoding and
 * segments (a language over SMS_MAX_SEGMENTS is flagged: the API refuses it), and what a voice call says. Only the
 * channels the alert goes out on.
 */
export function MessagePreview({
  texts,
  severity,
  channels,
  label,
}: {
  texts: PreviewText[];
  severity: Severity;
  channels: readonly DeliveryChannel[];
  label: string;
}) {
  const shown = DELIVERY_CHANNELS.filter((c) => channels.includes(c));
  return (
    <section className="message-preview" aria-label={label}>
      {texts.map((t) => (
        <div key={t.language} role="group" aria-label={`${LANGUAGE_LABELS[t.language]} preview`} lang={t.language} className="preview-language">
          <h3 className="h4" lang="en">
            {LANGUAGE_LABELS[t.language]}
          </h3>
          <dl className="review small">
            {shown.map((c) => (
              <Fragment key={c}>
                <dt lang="en">{CHANNEL_LABELS[c]}</dt>
                <dd>
                  <ChannelText channel={c} text={t} severity={severity} />
                </dd>
              </Fragment>
            ))}
          </dl>
        </div>
      ))}
    </section>
  );
}

/** A sentence as the call says it: ended with a stop unless it already ends with punctuation (as the voice sender does). */
function sentence(text: string): string {
  const t = text.trim();
  return !t || /[.!?。！？:：;]$/u.test(t) ? t : `${t}.`;
}

function ChannelText({ channel, text, severity }: { channel: DeliveryChannel; text: PreviewText; severity: Severity }) {
  if (channel === 'voice') {
    // what the call says, in the reader's language: who calls, the alert (said twice), and the keys to press
    const words = voiceWords(text.language);
    return (
      <>
        <span className="block">
          {words.intro} {sentence(text.title)} {sentence(text.message)}
        </span>
        <span className="block">{words.prompt}</span>
        <span className="muted block" lang="en">
          Spoken twice; key 1 marks the person safe, key 2 asks for help.
        </span>
      </>
    );
  }
  if (channel === 'sms') {
    const sms = smsText(text);
    const s = smsSegments(sms);
    return (
      <>
        <span className="pre-wrap block">{sms}</span>
        <span className="muted" lang="en">
          {s.segments} {s.segments === 1 ? 'segment' : 'segments'} · {s.encoding} · {s.characters} characters
        </span>
        {s.segments > SMS_MAX_SEGMENTS && (
          <span className="field-error block" lang="en">
            Too long for SMS (at most {SMS_MAX_SEGMENTS} segments): shorten it
          </span>
        )}
      </>
    );
  }
  return (
    <>
      <strong className="block">{channel === 'email' ? `[${SEVERITY_INFO[severity].label}] ${text.title}` : text.title}</strong>
      <span className="pre-wrap block">{text.message}</span>
    </>
  );
}

/** Whether any language's SMS is too long to send (the confirmation is held back until it is shortened). */
export function smsTooLong(texts: PreviewText[], channels: readonly DeliveryChannel[]): boolean {
  return channels.includes('sms') && texts.some((t) => smsSegments(smsText(t)).segments > SMS_MAX_SEGMENTS);
}
