import { isLanguage, messageWords, spokenAlert, spokenSentence as sentence, voiceWords, type Language } from '@beacon/contracts';
import { sayTwiml, xmlEscape } from '../providers/twiml';
import type { SendableAlert } from './send-targets.repository';
import { digestLanguage } from './digest';

/** Twilio refuses inline TwiML longer than this (error 32018). */
export const TWIML_MAX_CHARS = 4000;
/** Seconds the call waits for a key after the prompt before it says goodbye. */
export const VOICE_GATHER_TIMEOUT_SECONDS = 8;
/** Alerts a digest call says; the rest are "and N more" (a call is listened to, not read). */
export const VOICE_DIGEST_MAX = 3;

const languageOf = (language: string | null | undefined): Language => (isLanguage(language) ? language : 'en');

/** One alert as the call says it: its title (with the lifecycle words asDelivered put there), message and place (spokenAlert, as the console previews it). */
const spoken = (a: SendableAlert): string => spokenAlert(a, a.location_name);

/** `text` cut at a word (or character) boundary so that, escaped, it takes at most `max` characters. */
function cutTo(text: string, max: number): string {
  if (xmlEscape(text).length <= max) return text;
  let out = '';
  let used = 1; // the ellipsis
  for (const ch of text) {
    const n = xmlEscape(ch).length;
    if (used + n > max) break;
    out += ch;
    used += n;
  }
  const atWord = out.replace(/\s+\S*$/u, '');
  return `${(atWord.length > out.length / 2 ? atWord : out).trimEnd()}…`;
}

interface Saying {
  language: Language;
  text: string;
}

const say = (s: Saying) => sayTwiml(s.language, s.text);

/**
 * The TwiML of a voice alert (Twilio's <Say> and <Gather>): who is calling, the alert (title, message, place) in the
 * language its text is in, a pause, the alert again, and the prompt, inside a <Gather> of one key whose result goes
 * to `gatherAction`; goodbye when no key is pressed. A digest (held alerts that came due together, most severe first)
 * says how many there are, then each of the first VOICE_DIGEST_MAX in turn and "and N more", each alert in its own
 * language. It always fits Twilio's 4,000 characters: when the alerts said twice do not, the repeat says only the
 * titles and places, and past that each alert is cut short, still said twice.
 */
export function voiceTwiml(alerts: readonly SendableAlert[], gatherAction: string): string {
  if (!alerts.length) throw new Error('a voice call needs an alert to say');
  const digest = alerts.length > 1;
  const language = languageOf(digest ? digestLanguage(alerts) : alerts[0].language);
  const w = voiceWords(language);
  const listed = alerts.slice(0, VOICE_DIGEST_MAX);
  const more = alerts.length > listed.length ? messageWords(language).more(alerts.length - listed.length) : null;
  const heading = digest ? `${sentence(`${messageWords(language).digestTitle(alerts.length)}, ${messageWords(language).mostSevereFirst}`)}` : '';

  const full = listed.map(spoken);
  const titles = listed.map((a) => {
    const wa = voiceWords(a.language);
    return [sentence(a.title), a.location_name ? `${wa.place} ${sentence(a.location_name)}` : ''].filter(Boolean).join(' ');
  });

  const render = (first: string[], again: string[]): string => {
    const round = (texts: string[], lead: string): Saying[] => {
      const sayings: Saying[] = texts.map((text, i) => ({ language: languageOf(listed[i].language), text }));
      if (more) sayings.push({ language, text: sentence(more) });
      // The lead words go in the first alert's <Say> when it is in the call's language (a single alert: one <Say>).
      if (sayings[0].language === language) sayings[0] = { language, text: `${lead} ${sayings[0].text}` };
      else sayings.unshift({ language, text: lead });
      return sayings;
    };
    const opening = round(first, [w.intro, heading].filter(Boolean).join(' '));
    const repeat = round(again, w.repeat);
    return (
      '<Response>' +
      `<Gather numDigits="1" timeout="${VOICE_GATHER_TIMEOUT_SECONDS}" action="${xmlEscape(gatherAction)}" method="POST">` +
      opening.map(say).join('') +
      '<Pause length="1"/>' +
      repeat.map(say).join('') +
      say({ language, text: w.prompt }) +
      '</Gather>' +
      say({ language, text: w.goodbye }) +
      '</Response>'
    );
  };

  for (const [first, again] of [
    [full, full],
    [full, titles],
  ]) {
    const xml = render(first, again);
    if (xml.length <= TWIML_MAX_CHARS) return xml;
  }
  // Each alert cut to an equal share of what is left, and said twice.
  const room =
    TWIML_MAX_CHARS -
    render(
      listed.map(() => ''),
      listed.map(() => ''),
    ).length;
  const share = Math.max(0, Math.floor(room / (2 * listed.length)));
  const cut = full.map((t) => cutTo(t, share));
  return render(cut, cut);
}
