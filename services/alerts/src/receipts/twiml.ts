import { voiceWords } from '@beacon/contracts';
import { sayTwiml, xmlEscape } from '../providers/twiml';

/** What Twilio reads an answer to its webhooks as. */
export const TWIML_CONTENT_TYPE = 'text/xml';
/** Seconds a call waits for a key after the prompt said again. */
export const GATHER_AGAIN_TIMEOUT_SECONDS = 8;

/** The answer to an inbound SMS: Twilio sends `text` back to the number; none, and nothing is sent. */
export function messageTwiml(text: string | null): string {
  return text
    ? `<?xml version="1.0" encoding="UTF-8"?><Response><Message>${xmlEscape(text)}</Message></Response>`
    : '<?xml version="1.0" encoding="UTF-8"?><Response/>';
}

/** A call's last words, in the person's language, then it hangs up. */
export function sayAndHangUpTwiml(language: string | null | undefined, text: string): string {
  return `<?xml version="1.0" encoding="UTF-8"?><Response>${sayTwiml(language, text)}<Hangup/></Response>`;
}

/** A key other than 1 or 2: the prompt again, waiting for one key posted to `action`; goodbye when none comes. */
export function promptAgainTwiml(language: string | null | undefined, action: string): string {
  const w = voiceWords(language);
  return (
    `<?xml version="1.0" encoding="UTF-8"?><Response>` +
    `<Gather input="dtmf" numDigits="1" timeout="${GATHER_AGAIN_TIMEOUT_SECONDS}" action="${xmlEscape(action)}" method="POST">${sayTwiml(language, w.prompt)}</Gather>` +
    `${sayTwiml(language, w.goodbye)}<Hangup/></Response>`
  );
}
