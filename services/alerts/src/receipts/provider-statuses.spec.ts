import { VOICE_WORDS } from '@beacon/contracts';
import { twilioCallReceipt, twilioMessageReceipt, webhookReceipt } from './provider-statuses';
import { messageTwiml, promptAgainTwiml, sayAndHangUpTwiml } from './twiml';

describe('twilioMessageReceipt', () => {
  it('delivered, undelivered and failed are receipts, with the error code in words', () => {
    expect(twilioMessageReceipt('delivered')).toEqual({ receipt: 'delivered', reason: null });
    expect(twilioMessageReceipt('undelivered', '30003')).toEqual({ receipt: 'undelivered', reason: 'the handset is unreachable (Twilio error 30003)' });
    expect(twilioMessageReceipt('undelivered', '39999')).toEqual({ receipt: 'undelivered', reason: 'not delivered by the carrier (Twilio error 39999)' });
    expect(twilioMessageReceipt('failed')).toEqual({ receipt: 'failed', reason: 'the provider could not send it' });
  });

  it.each(['queued', 'accepted', 'sending', 'sent', 'scheduled', 'receiving', undefined])('%p on the way says nothing', (status) => {
    expect(twilioMessageReceipt(status)).toBeNull();
  });
});

describe('twilioCallReceipt', () => {
  it('completed is answered; no-answer and busy are theirs; failed and canceled fail', () => {
    expect(twilioCallReceipt('completed')).toEqual({ receipt: 'answered', reason: null });
    expect(twilioCallReceipt('no-answer')).toEqual({ receipt: 'no_answer', reason: 'no answer' });
    expect(twilioCallReceipt('busy')).toEqual({ receipt: 'busy', reason: 'busy' });
    expect(twilioCallReceipt('failed', '32009')).toEqual({ receipt: 'failed', reason: 'the call could not be placed (Twilio error 32009)' });
    expect(twilioCallReceipt('canceled')).toEqual({ receipt: 'failed', reason: 'the call was canceled' });
  });

  it.each(['queued', 'initiated', 'ringing', 'in-progress', undefined])('%p on the way says nothing', (status) => {
    expect(twilioCallReceipt(status)).toBeNull();
  });
});

describe('webhookReceipt', () => {
  it('keeps the gateway’s reason for a failure, and says one when it gives none', () => {
    expect(webhookReceipt('delivered', 'ignored')).toEqual({ receipt: 'delivered', reason: null });
    expect(webhookReceipt('undelivered', ' carrier rejected ')).toEqual({ receipt: 'undelivered', reason: 'carrier rejected' });
    expect(webhookReceipt('failed', undefined)).toEqual({ receipt: 'failed', reason: 'the provider could not send it' });
  });
});

describe('TwiML answers', () => {
  it('an SMS answer escapes its text; no answer is an empty response', () => {
    expect(messageTwiml('Reply <SAFE> & go')).toBe('<?xml version="1.0" encoding="UTF-8"?><Response><Message>Reply &lt;SAFE&gt; &amp; go</Message></Response>');
    expect(messageTwiml(null)).toBe('<?xml version="1.0" encoding="UTF-8"?><Response/>');
  });

  it('a call says its words in the person’s language, then hangs up', () => {
    expect(sayAndHangUpTwiml('ko', VOICE_WORDS.ko.safe)).toBe(
      `<?xml version="1.0" encoding="UTF-8"?><Response><Say language="ko-KR">${VOICE_WORDS.ko.safe}</Say><Hangup/></Response>`,
    );
    expect(sayAndHangUpTwiml(null, 'Goodbye.')).toContain('<Say language="en-US">Goodbye.</Say>');
  });

  it('another key: the prompt again in a Gather posting to the same URL', () => {
    const twiml = promptAgainTwiml('es', 'https://beacon.test/api/alerts/providers/twilio/voice/gather?d=1&x=2');
    expect(twiml).toContain(
      '<Gather input="dtmf" numDigits="1" timeout="8" action="https://beacon.test/api/alerts/providers/twilio/voice/gather?d=1&amp;x=2" method="POST">',
    );
    expect(twiml).toContain(`<Say language="es-US">${VOICE_WORDS.es.prompt}</Say></Gather><Say language="es-US">${VOICE_WORDS.es.goodbye}</Say><Hangup/>`);
  });
});
