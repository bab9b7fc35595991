import { useSyncExternalStore } from 'react';
import { useIntl } from 'react-intl';
import { Volume2 } from 'lucide-react';
import { onSpeakingChange, speakingState, stopSpeaking } from './speech';
import { WARNING_WORDS as W } from './words';

const useSpeaking = () => useSyncExternalStore(onSpeakingChange, speakingState, speakingState);

/** While an alert is read aloud: what is being read, and Stop. Inside the takeover, and floating on other pages. */
export function SpeakingControl({ floating = false }: { floating?: boolean }) {
  const intl = useIntl();
  const { speaking, title, language } = useSpeaking();
  if (!speaking) return null;
  return (
    <div className={floating ? 'speaking-indicator speaking-floating' : 'speaking-indicator'}>
      <span className="speaking-pulse" aria-hidden="true">
        <Volume2 size={18} />
      </span>
      <span role="status" className="speaking-text">
        {title
          ? intl.formatMessage(W.speakingTitle, {
              // the alert's title, in its own language
              title: <span lang={language ?? 'en'}>{title}</span>,
            })
          : intl.formatMessage(W.speaking)}
      </span>
      <button type="button" className="btn btn-outline btn-sm" onClick={stopSpeaking} aria-label={intl.formatMessage(W.stopLabel)}>
        {intl.formatMessage(W.stop)}
      </button>
    </div>
  );
}

export const SpeakingIndicator = () => <SpeakingControl floating />;
