import type { AlertPreferences, Severity } from '@beacon/contracts';

/**
 * Sound and vibration for an arriving warning, where the browser allows them and the person chose them. Chosen: the
 * person asked to be alerted on their devices (push notifications or voice alerts on); an alert held by their quiet
 * hours or digest never sounds (the caller decides that). Allowed: browsers start audio only after the person has
 * interacted with the page (autoplay policy) and vibrate only phones after a tap; where they refuse, nothing
 * happens and the banner alone shows it.
 */
export const wantsAttention = (prefs: Pick<AlertPreferences, 'methods'> | undefined): boolean => !!prefs && (prefs.methods.push || prefs.methods.voice);

/** Beeps: three rising ones for a critical alert, two for others, one soft one for an all-clear. */
const TONES: Record<'critical' | 'warning' | 'calm', { hz: number; at: number }[]> = {
  critical: [
    { hz: 880, at: 0 },
    { hz: 988, at: 0.3 },
    { hz: 1175, at: 0.6 },
  ],
  warning: [
    { hz: 660, at: 0 },
    { hz: 660, at: 0.3 },
  ],
  calm: [{ hz: 523, at: 0 }],
};
const BEEP_SECONDS = 0.22;

export const VIBRATION: Record<'critical' | 'warning' | 'calm', number[]> = {
  critical: [400, 150, 400, 150, 400],
  warning: [200, 100, 200],
  calm: [100],
};

export type AttentionLevel = keyof typeof TONES;
export const attentionLevel = (severity: Severity, calm: boolean): AttentionLevel => (calm ? 'calm' : severity === 'critical' ? 'critical' : 'warning');

let audio: AudioContext | null = null;

/** A WebAudio beep pattern; silent where the browser has no audio or has not been allowed to play yet. */
export function beep(level: AttentionLevel): void {
  try {
    const Context = window.AudioContext ?? (window as unknown as { webkitAudioContext?: typeof AudioContext }).webkitAudioContext;
    if (!Context) return;
    audio ??= new Context();
    const ctx = audio;
    if (ctx.state === 'suspended') void ctx.resume().catch(() => undefined);
    const start = ctx.currentTime + 0.02;
    for (const tone of TONES[level]) {
      const osc = ctx.createOscillator();
      const gain = ctx.createGain();
      osc.type = 'sine';
      osc.frequency.value = tone.hz;
      const t = start + tone.at;
      gain.gain.setValueAtTime(0.0001, t);
      gain.gain.exponentialRampToValueAtTime(0.3, t + 0.02);
      gain.gain.exponentialRampToValueAtTime(0.0001, t + BEEP_SECONDS);
      osc.connect(gain).connect(ctx.destination);
      osc.start(t);
      osc.stop(t + BEEP_SECONDS + 0.02);
    }
  } catch {
    // no sound: the banner is still there
  }
}

/** Vibrates a phone that allows it (after the person has touched the page). */
export function vibrate(level: AttentionLevel): void {
  try {
    const activation = (navigator as { userActivation?: { hasBeenActive: boolean } }).userActivation;
    if (typeof navigator.vibrate !== 'function' || activation?.hasBeenActive === false) return;
    navigator.vibrate(VIBRATION[level]);
  } catch {
    // not allowed
  }
}
