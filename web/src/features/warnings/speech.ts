import { isLanguage, lifecycleWords, messageWords, VOICE_LANGUAGE_TAGS, voiceWords, type AlertSummary, type Language } from '@beacon/contracts';

/**
 * Voice alerts in the open app: an alert read aloud by the browser's speech synthesis, in the language its text is in
 * (the reader's, when the alert has it) with a voice of that language when the browser has one, and a state the
 * screen shows while it speaks (an indicator with a Stop button).
 */

export type SpokenKind = 'new' | 'update' | 'all_clear';

/** What is read aloud of an alert: its text in its language, and Beacon's words around it in the same language. */
export type SpeakableAlert = Pick<AlertSummary, 'title' | 'message' | 'severity' | 'category' | 'locationName'> & {
  language?: string | null;
  allClear?: AlertSummary['allClear'];
};

export const languageOf = (a: { language?: string | null }): Language => (isLanguage(a.language) ? a.language : 'en');

/** The BCP 47 tag the utterance carries (the phone channel's own: es-US, cmn-CN ...). */
export const voiceTag = (language: string | null | undefined): string => VOICE_LANGUAGE_TAGS[isLanguage(language) ? language : 'en'];

/** The words read aloud, all in the alert's language: a new alert, an update, or the all-clear. */
export function spokenText(a: SpeakableAlert, kind: SpokenKind): string {
  const lang = languageOf(a);
  const words = messageWords(lang);
  const life = lifecycleWords(lang);
  if (kind === 'all_clear') {
    // The event's and the feed's all-clear words are already the reader's (null when the admin wrote none in it).
    const closing = a.allClear?.message || life.allClearDefault;
    return `${life.allClear}${a.title}. ${closing}`;
  }
  const place = a.locationName ? ` ${voiceWords(lang).place} ${a.locationName}.` : '';
  const head = `${words.severities[a.severity]}, ${words.categories[a.category]}.${place}`;
  return `${kind === 'update' ? life.update : ''}${head} ${a.title}. ${a.message}`;
}

/** The language part of a tag as voices name it: cmn (Mandarin) voices call themselves zh. */
const primary = (tag: string) => {
  const p = tag.toLowerCase().split(/[-_]/)[0];
  return p === 'cmn' ? 'zh' : p;
};
const sameTag = (a: string, b: string) => a.toLowerCase().replace(/_/g, '-') === b.toLowerCase().replace(/_/g, '-');

/** Chinese voices of Hong Kong and Macau speak Cantonese: Mandarin text (cmn-CN) is read by another one when there is. */
const cantonese = (v: SpeechSynthesisVoice) => /^zh[-_](hk|mo)\b/i.test(v.lang);

/**
 * The browser's voice for `tag`: the exact one, else one of the same language (cmn-CN: zh-CN; a Mandarin one before a
 * Cantonese one), its default first, else none: never a voice of another language, which would read the alert's
 * words with the wrong sounds (the language tag alone then asks the engine for one).
 */
export function pickVoice(voices: readonly SpeechSynthesisVoice[], tag: string): SpeechSynthesisVoice | undefined {
  const zhTag = tag.replace(/^cmn/i, 'zh');
  const sameLanguage = voices.filter((v) => primary(v.lang) === primary(tag));
  const preferred = primary(tag) === 'zh' && sameLanguage.some((v) => !cantonese(v)) ? sameLanguage.filter((v) => !cantonese(v)) : sameLanguage;
  return voices.find((v) => sameTag(v.lang, tag) || sameTag(v.lang, zhTag)) ?? preferred.find((v) => v.default) ?? preferred[0];
}

// ---------------------------------------------------------------- what the screen shows while it speaks

export interface SpeakingState {
  speaking: boolean;
  /** The title of the alert being read. */
  title: string | null;
  /** The language of that title (and of what is read). */
  language: Language | null;
}

const SILENT: SpeakingState = { speaking: false, title: null, language: null };
let state: SpeakingState = SILENT;
const listeners = new Set<() => void>();
function setState(next: SpeakingState) {
  state = next;
  for (const l of listeners) l();
}
export const speakingState = () => state;
export function onSpeakingChange(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** Utterances queued or being spoken: the indicator stays until the last one ends. */
let queued = 0;
/** Bumped by Stop: the cancelled utterances' late end events must not count against the ones queued after. */
let generation = 0;
/**
 * A browser without a voice engine (or one that drops an utterance) may never say that it ended: while the indicator
 * shows, the engine is asked every so often whether it still speaks, and the indicator goes once it does not.
 */
const SPEAKING_CHECK_MS = 1_000;
let speakingCheck: ReturnType<typeof setTimeout> | null = null;

function watchEngine() {
  if (speakingCheck) return;
  speakingCheck = setTimeout(() => {
    speakingCheck = null;
    if (!state.speaking) return;
    const synth = window.speechSynthesis;
    if (synth.speaking || synth.pending) watchEngine();
    else {
      queued = 0;
      generation += 1;
      setState(SILENT);
    }
  }, SPEAKING_CHECK_MS);
}

export const speechSupported = () => typeof window !== 'undefined' && 'speechSynthesis' in window && typeof SpeechSynthesisUtterance !== 'undefined';

/** Asks for the browser's voices early: Chrome loads them on the first ask, so the first alert finds its language's. */
export function warmUpVoices() {
  if (speechSupported()) window.speechSynthesis.getVoices?.();
}

/**
 * Reads an alert aloud. A critical alert interrupts whatever is being read; others wait their turn. Returns whether
 * it was handed to the browser.
 */
export function speak(a: SpeakableAlert, kind: SpokenKind): boolean {
  if (!speechSupported()) return false;
  const language = languageOf(a);
  const tag = voiceTag(language);
  const utterance = new SpeechSynthesisUtterance(spokenText(a, kind));
  utterance.lang = tag;
  const voice = pickVoice(window.speechSynthesis.getVoices?.() ?? [], tag);
  if (voice) {
    try {
      utterance.voice = voice;
    } catch {
      // a voice the browser does not accept: the language tag alone chooses
    }
  }
  if (a.severity === 'critical' && kind !== 'all_clear') stopSpeaking();
  const mine = generation;
  const done = () => {
    if (mine !== generation) return;
    queued = Math.max(0, queued - 1);
    if (queued === 0) setState(SILENT);
  };
  utterance.onstart = () => setState({ speaking: true, title: a.title, language });
  utterance.onend = done;
  utterance.onerror = done;
  queued += 1;
  setState({ speaking: true, title: a.title, language });
  window.speechSynthesis.speak(utterance);
  watchEngine();
  return true;
}

/** The Stop button: silences this tab's voice at once, queue included. */
export function stopSpeaking() {
  queued = 0;
  generation += 1;
  if (speakingCheck) clearTimeout(speakingCheck);
  speakingCheck = null;
  if (speechSupported()) window.speechSynthesis.cancel();
  setState(SILENT);
}
