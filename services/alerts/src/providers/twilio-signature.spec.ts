import { twilioSignature, validTwilioSignature } from './twilio-signature';

// Twilio's documented example (https://www.twilio.com/docs/usage/security#validating-requests).
const URL = 'https://mycompany.com/myapp.php?foo=1&bar=2';
const PARAMS = { CallSid: 'CA1234567890ABCDE', Caller: '+12349013030', Digits: '1234', From: '+12349013030', To: '+18005551212' };
const TOKEN = '12345';
const SIGNATURE = '0/KCTR6DLpKmkAf8muzZqo1nDgQ=';

describe('twilioSignature', () => {
  it("computes Twilio's documented example", () => {
    expect(twilioSignature(URL, PARAMS, TOKEN)).toBe(SIGNATURE);
  });

  it('sorts the parameters by name, whatever order they came in', () => {
    const reversed = Object.fromEntries(Object.entries(PARAMS).reverse());
    expect(twilioSignature(URL, reversed, TOKEN)).toBe(SIGNATURE);
  });

  it('signs each value of a repeated name after the name, sorted', () => {
    expect(twilioSignature('https://x.test/a', { A: ['2', '1'] }, 't')).toBe(twilioSignature('https://x.test/a', { A: ['1', '2'] }, 't'));
    expect(twilioSignature('https://x.test/a', { A: ['1', '2'] }, 't')).not.toBe(twilioSignature('https://x.test/a', { A: '12' }, 't'));
  });
});

describe('validTwilioSignature', () => {
  it("accepts Twilio's example", () => {
    expect(validTwilioSignature(URL, PARAMS, TOKEN, SIGNATURE)).toBe(true);
  });

  it('refuses another token, URL, parameter or signature', () => {
    expect(validTwilioSignature(URL, PARAMS, '54321', SIGNATURE)).toBe(false);
    expect(validTwilioSignature('https://mycompany.com/myapp.php?foo=1&bar=3', PARAMS, TOKEN, SIGNATURE)).toBe(false);
    expect(validTwilioSignature(URL, { ...PARAMS, Digits: '1' }, TOKEN, SIGNATURE)).toBe(false);
    expect(validTwilioSignature(URL, PARAMS, TOKEN, SIGNATURE.replace('0/', '1/'))).toBe(false);
  });

  it('refuses a missing signature, one of another length, and any signature when no token is configured', () => {
    expect(validTwilioSignature(URL, PARAMS, TOKEN, undefined)).toBe(false);
    expect(validTwilioSignature(URL, PARAMS, TOKEN, '')).toBe(false);
    expect(validTwilioSignature(URL, PARAMS, TOKEN, `${SIGNATURE}x`)).toBe(false);
    expect(validTwilioSignature(URL, PARAMS, '', twilioSignature(URL, PARAMS, ''))).toBe(false);
  });

  it("accepts the URL signed with or without the scheme's default port", () => {
    const withPort = 'https://mycompany.com:443/myapp.php?foo=1&bar=2';
    expect(validTwilioSignature(withPort, PARAMS, TOKEN, SIGNATURE)).toBe(true);
    expect(validTwilioSignature(URL, PARAMS, TOKEN, twilioSignature(withPort, PARAMS, TOKEN))).toBe(true);
    expect(validTwilioSignature('https://mycompany.com:8443/myapp.php?foo=1&bar=2', PARAMS, TOKEN, SIGNATURE)).toBe(false);
  });
});
