import { Fragment } from 'react';
import {
  CHANNEL_LABELS,
  DELIVERY_CHANNELS,
  LANGUAGE_LABELS,
  SMS_MAX_SEGMENTS,
  SUPPORTED_LANGUAGES,
  deliveredText,
  emailSubject,
  smsSegments,
  smsText,
  spokenAlert,
  textInLanguage,
  voiceWords,
  type AlertTranslations,
  type AllClearWords,
  type DeliveredText,
  type DeliveryChannel,
  type Language,
  type Severity,
} from '@beacon/contracts';
import './alert-page.css';

/** What a preview shows going out: the alert itself (the wizard, Quick Send), an update of it, or its all-clear. */
export type PreviewKind = 'alert' | 'update' | 'all_clear';

/** The alert as it will be sent: its English text, its other languages, severity and place (as the form holds them). */
export interface PreviewAlert {
  title: string;
  message: string;
  translations?: AlertTranslations | null;
  severity: Severity;
  /** The place a voice call names; null or '' for none. */
  locationName?: string | null;
}

/** What the readers of one language get. */
export interface ReaderPreview {
  /** The language the readers chose. */
  reader: Language;
  /** The text as their delivery carries it, and the language it is in (English when the alert has none in theirs). */
  text: DeliveredText & { language: Language };
  /** The alert has no text in the readers' language: they get the English. */
  fallback: boolean;
}

/**
 * What the readers of each language Beacon speaks get, as the alerts service composes it (issue #41): the alert's text
 * in their language or, when it has none, in English (textInLanguage, alertTextFor on the server), with what the
 * delivery puts on it in that text's language (deliveredText, asDelivered on the server): "Actualización: " before an
 * update's title; the all-clear's prefix and words (the admin's in that language, else Beacon's allClearDefault).
 * Trimmed, as the forms send it. `allClear`: the all-clear's own words, for kind all_clear.
 */
export function readerPreviews(alert: PreviewAlert, kind: PreviewKind, allClear?: AllClearWords | null): ReaderPreview[] {
  const trimmed = { title: alert.title.trim(), message: alert.message.trim(), translations: alert.translations };
  return SUPPORTED_LANGUAGES.map((reader) => {
    const text = textInLanguage(trimmed, reader);
    return { reader, fallback: text.language !== reader, text: deliveredText({ ...text, severity: alert.severity }, kind, allClear) };
  });
}

/** Whether any language's SMS is too long to send (the confirmation is held back until it is shortened). */
export function smsTooLong(previews: readonly ReaderPreview[], channels: readonly DeliveryChannel[]): boolean {
  return channels.includes('sms') && previews.some((p) => smsSegments(smsText(p.text)).segments > SMS_MAX_SEGMENTS);
}

const nameOf = (l: Language) => LANGUAGE_LABELS[l].replace(/ \(.*\)$/, '');

interface LanguagePreviewsProps {
  alert: PreviewAlert;
  /** What goes out: the alert (default), an update, or the all-clear. */
  kind?: PreviewKind;
  /** The all-clear's words, for kind all_clear: the admin's English and per language; absent ones are Beacon's. */
  allClear?: AllClearWords | null;
  /** The channels it goes out on: only theirs are shown. */
  channels: readonly DeliveryChannel[];
  /** The region's name. */
  label: string;
}

/**
 * Every preview of what the public gets (the wizard's review, Quick Send, an update, the all-clear): for EVERY language
 * a reader may have chosen, what each channel the alert goes on carries, as the server sends it: the push
 * notification's title and text, the SMS with its encoding and segments (a language over SMS_MAX_SEGMENTS is flagged:
 * the API refuses it), the e-mail's subject (the severity in the text's language) and text, and what a voice call
 * says. Each block is marked with the language its text is in (lang), and a language the alert has no text in says
 * that its readers get the English. The console's own words stay English (lang="en").
 */
export function LanguagePreviews({ alert, kind = 'alert', allClear, channels, label }: LanguagePreviewsProps) {
  const shown = DELIVERY_CHANNELS.filter((c) => channels.includes(c));
  return (
    <section className="message-preview" aria-label={label}>
      {readerPreviews(alert, kind, allClear).map(({ reader, text, fallback }) => (
        <div key={reader} role="group" aria-label={`${LANGUAGE_LABELS[reader]} preview`} lang={text.language} className="preview-language">
          <h3 className="h4" lang="en">
            {LANGUAGE_LABELS[reader]}
          </h3>
          {fallback && (
            <p className="small muted" lang="en">
              No {nameOf(reader)} text: {nameOf(reader)} readers get the English.
            </p>
          )}
          <dl className="review small">
            {shown.map((c) => (
              <Fragment key={c}>
                <dt lang="en">{CHANNEL_LABELS[c]}</dt>
                <dd>
                  <ChannelText channel={c} text={text} locationName={alert.locationName?.trim() || null} />
                </dd>
              </Fragment>
            ))}
          </dl>
        </div>
      ))}
    </section>
  );
}

function ChannelText({ channel, text, locationName }: { channel: DeliveryChannel; text: ReaderPreview['text']; locationName: string | null }) {
  if (channel === 'voice') {
    // what the call says (voice-twiml.ts): who calls and the alert, said twice, then the keys to press
    const words = voiceWords(text.language);
    return (
      <>
        <span className="block">
          {words.intro} {spokenAlert(text, locationName)}
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
  if (channel === 'email') {
    return (
      <>
        <span className="block">
          <span className="muted" lang="en">
            Subject:{' '}
          </span>
          <strong>{emailSubject(text)}</strong>
        </span>
        <span className="pre-wrap block">{text.message}</span>
      </>
    );
  }
  return (
    <>
      <strong className="block">{text.title}</strong>
      <span className="pre-wrap block">{text.message}</span>
    </>
  );
}
