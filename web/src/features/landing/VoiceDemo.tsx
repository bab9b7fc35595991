import { useEffect, useState } from 'react';
import { FormattedMessage, useIntl, type IntlShape } from 'react-intl';
import { VOICE_LANGUAGE_TAGS, type Language } from '@beacon/contracts';
import { relativeAge } from '@/common/time';
import { alertLanguageOf, defineMessages, formatDistance, useLanguage } from '@/i18n';
import { OctagonX, Square, Volume2 } from 'lucide-react';

/**
 * The sample alert, in the reader's language: the demo shows what Beacon does, an alert in the reader's language read
 * aloud in it (a real alert is read in its own language, the reader's when the administrator wrote it in theirs).
 */
const SAMPLE = defineMessages({
  title: { id: 'landing.demo.sample.title', defaultMessage: 'Wrong-Way Driver Detected' },
  place: { id: 'landing.demo.sample.place', defaultMessage: 'I-17 southbound near Exit 208 · {distance} away' },
  advice: { id: 'landing.demo.sample.advice', defaultMessage: 'Move to the right lane, slow down and watch for oncoming headlights.' },
  cameraVerified: { id: 'landing.demo.sample.cameraVerified', defaultMessage: 'Camera verified' },
  spoken: {
    id: 'landing.demo.sample.spoken',
    defaultMessage:
      'Beacon alert. Wrong-way driver detected on Interstate 17 southbound near Exit 208. Move to the right lane, slow down and watch for oncoming headlights.',
  },
});

const TEXTS = defineMessages({
  phone: { id: 'landing.demo.phone', defaultMessage: 'Sample alert on a phone' },
  live: { id: 'landing.demo.live', defaultMessage: 'LIVE' },
  play: { id: 'landing.demo.play', defaultMessage: 'Play voice alert' },
  stop: { id: 'landing.demo.stop', defaultMessage: 'Stop voice alert' },
  playing: { id: 'landing.demo.playing', defaultMessage: 'Playing the sample voice alert' },
});

/** The sample's words read aloud, in the reader's language (English by default). */
export const sampleVoiceAlert = (intl: IntlShape): string => intl.formatMessage(SAMPLE.spoken);

/** How far the sample wrong-way driver is: 0.8 mi (about 1.3 km), in the reader's unit. */
const SAMPLE_DISTANCE_KM = 0.8 * 1.609344;
/** The phone's clock reads 9:41, as phones do in pictures; in the reader's digits, without AM/PM. */
const PHONE_CLOCK = new Date(2024, 0, 9, 9, 41);

/** The sample's voice: the language tag Beacon's read-aloud and calls use, Mandarin as browsers name its voices (zh-CN). */
const sampleVoiceTag = (language: Language): string => VOICE_LANGUAGE_TAGS[language].replace(/^cmn-/, 'zh-');

const speechSupported = () => typeof window !== 'undefined' && 'speechSynthesis' in window && typeof window.SpeechSynthesisUtterance === 'function';

/** The live demo mock-up: a sample alert card whose voice alert the browser speaks (window.speechSynthesis). */
export function VoiceDemo() {
  const intl = useIntl();
  const { language } = useLanguage();
  const [speaking, setSpeaking] = useState(false);
  const supported = speechSupported();
  const clock = intl
    .formatDateToParts(PHONE_CLOCK, { hour: 'numeric', minute: '2-digit' })
    .filter((p) => p.type !== 'dayPeriod')
    .map((p) => p.value)
    .join('')
    .trim();

  // Stop talking when the visitor leaves the page.
  useEffect(
    () => () => {
      if (speechSupported()) window.speechSynthesis.cancel();
    },
    [],
  );

  function toggle() {
    if (!supported) return;
    const synth = window.speechSynthesis;
    if (speaking) {
      synth.cancel();
      setSpeaking(false);
      return;
    }
    synth.cancel();
    const tag = sampleVoiceTag(alertLanguageOf(language));
    const utterance = new SpeechSynthesisUtterance(sampleVoiceAlert(intl));
    utterance.lang = tag;
    utterance.rate = 1;
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    setSpeaking(true);
    synth.speak(utterance);
  }

  return (
    <div className="demo-phone" aria-label={intl.formatMessage(TEXTS.phone)}>
      <div className="demo-status">
        <span>{clock}</span>
        <span className="badge badge-live">{intl.formatMessage(TEXTS.live)}</span>
      </div>
      <div className="demo-alert" role="group" aria-labelledby="demo-alert-title">
        <div className="demo-alert-head">
          <OctagonX aria-hidden="true" size={18} />
          <strong id="demo-alert-title">{intl.formatMessage(SAMPLE.title)}</strong>
        </div>
        <p>{intl.formatMessage(SAMPLE.place, { distance: formatDistance(SAMPLE_DISTANCE_KM, intl) })}</p>
        <p className="small">{intl.formatMessage(SAMPLE.advice)}</p>
        <div className="demo-meta small">
          <span>{intl.formatMessage(SAMPLE.cameraVerified)}</span>
          <span>{relativeAge(PHONE_CLOCK, PHONE_CLOCK, intl)}</span>
        </div>
      </div>
      <button type="button" className="btn btn-primary btn-block" onClick={toggle} disabled={!supported} aria-pressed={speaking}>
        {speaking ? <Square aria-hidden="true" size={16} /> : <Volume2 aria-hidden="true" size={16} />} {intl.formatMessage(speaking ? TEXTS.stop : TEXTS.play)}
      </button>
      {!supported && (
        <p className="small demo-note">
          <FormattedMessage id="landing.demo.unsupported" defaultMessage="Your browser cannot speak alerts aloud." />
        </p>
      )}
      <p className="visually-hidden" aria-live="polite">
        {speaking ? intl.formatMessage(TEXTS.playing) : ''}
      </p>
    </div>
  );
}
