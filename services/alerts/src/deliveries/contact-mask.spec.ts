import { browserLabel, maskedContact, maskEmail, maskPhone } from './contact-mask';

describe('masked contacts', () => {
  it('keeps a phone number recognisable, never copyable', () => {
    expect(maskPhone('+14805554567')).toBe('+1•••••4567');
    expect(maskPhone('+44 20 7946 0958')).toBe('+4•••••0958');
    expect(maskPhone('12345')).toBe('•••••45');
  });

  it('keeps an address first letter and domain', () => {
    expect(maskEmail('jane.doe@example.com')).toBe('j•••@example.com');
    expect(maskEmail('not-an-address')).toBe('n•••');
  });

  it('names a browser as a person would', () => {
    const ua = {
      android: 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Mobile Safari/537.36',
      iphone: 'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      edge: 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/126.0.0.0 Safari/537.36 Edg/126.0.0.0',
      firefox: 'Mozilla/5.0 (Macintosh; Intel Mac OS X 14.5; rv:127.0) Gecko/20100101 Firefox/127.0',
    };
    expect(browserLabel(ua.android)).toBe('Chrome on Android');
    expect(browserLabel(ua.iphone)).toBe('Safari on iPhone');
    expect(browserLabel(ua.edge)).toBe('Edge on Windows');
    expect(browserLabel(ua.firefox)).toBe('Firefox on macOS');
    expect(browserLabel(null)).toBe('Browser');
  });

  it('gives each channel its own contact, null when none is on file', () => {
    const c = { phone_number: '+14805554567', email: 'jane@example.com', browsers: ['x Firefox/1 (Windows)', null] };
    expect(maskedContact('sms', c)).toBe('+1•••••4567');
    expect(maskedContact('email', c)).toBe('j•••@example.com');
    expect(maskedContact('push', c)).toBe('Firefox on Windows + 1 more');
    expect(maskedContact('push', { ...c, browsers: null })).toBeNull();
    expect(maskedContact('sms', { ...c, phone_number: null })).toBeNull();
  });

  it('masks the number a voice call went to as an SMS number (issue #39), never a browser', () => {
    const c = { phone_number: '+14805554567', email: 'jane@example.com', browsers: ['x Firefox/1 (Windows)'] };
    expect(maskedContact('voice', c)).toBe('+1•••••4567');
    expect(maskedContact('voice', { ...c, phone_number: null })).toBeNull();
  });
});
