import { useEffect, useState } from 'react';
import { OctagonX, Square, Volume2 } from 'lucide-react';

export const SAMPLE_VOICE_ALERT =
  'Beacon alert. Wrong-way driver detected on Interstate 17 southbound near Exit 208. Move to the right lane, slow down and watch for oncoming headlights.';

const speechSupported = () => typeof window !== 'undefined' && 'speechSynthesis' in window && typeof window.SpeechSynthesisUtterance === 'function';

/** The live demo mock-up: a sample alert card whose voice alert the browser speaks (window.speechSynthesis). */
export function VoiceDemo() {
  const [speaking, setSpeaking] = useState(false);
  const supported = speechSupported();

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
    const utterance = new SpeechSynthesisUtterance(SAMPLE_VOICE_ALERT);
    utterance.lang = 'en-US';
    utterance.rate = 1;
    utterance.onend = () => setSpeaking(false);
    utterance.onerror = () => setSpeaking(false);
    setSpeaking(true);
    synth.speak(utterance);
  }

  return (
    <div className="demo-phone" aria-label="Sample alert on a phone">
      <div className="demo-status">
        <span>9:41</span>
        <span className="badge badge-live">LIVE</span>
      </div>
      <div className="demo-alert" role="group" aria-labelledby="demo-alert-title">
        <div className="demo-alert-head">
          <OctagonX aria-hidden="true" size={18} />
          <strong id="demo-alert-title">Wrong-Way Driver Detected</strong>
        </div>
        <p>I-17 southbound near Exit 208 · 0.8 mi away</p>
        <p className="small">Move to the right lane, slow down and watch for oncoming headlights.</p>
        <div className="demo-meta small">
          <span>Camera verified</span>
          <span>Just now</span>
        </div>
      </div>
      <button type="button" className="btn btn-primary btn-block" onClick={toggle} disabled={!supported} aria-pressed={speaking}>
        {speaking ? <Square aria-hidden="true" size={16} /> : <Volume2 aria-hidden="true" size={16} />} {speaking ? 'Stop voice alert' : 'Play voice alert'}
      </button>
      {!supported && <p className="small demo-note">Your browser cannot speak alerts aloud.</p>}
      <p className="visually-hidden" aria-live="polite">
        {speaking ? 'Playing the sample voice alert' : ''}
      </p>
    </div>
  );
}
