import { createHmac } from 'node:crypto';
import { WEBHOOK_SIGNATURE_TOLERANCE_SECONDS } from '@beacon/contracts';
import { mailEventReceipt, mailgunSignature, mailgunSignatureOf, verifyMailgunSignature } from './mail-events';

const KEY = 'key-3ax6xnjp29jd6fds4gc373sgvjxteol0';
const NOW = 1_760_000_000;

describe('Mailgun event signatures', () => {
  const token = 'a8ce0edb2dd8301dee6c2405235584e45aa91d1e9f979f3de0';
  const signed = { timestamp: String(NOW), token, signature: mailgunSignature(KEY, String(NOW), token) };

  it('is hex HMAC-SHA256 of timestamp + token with the signing key', () => {
    expect(signed.signature).toBe(createHmac('sha256', KEY).update(`${NOW}${token}`).digest('hex'));
  });

  it('accepts the key’s signature within the window', () => {
    expect(verifyMailgunSignature(KEY, signed, NOW)).toBeNull();
    expect(verifyMailgunSignature(KEY, signed, NOW + WEBHOOK_SIGNATURE_TOLERANCE_SECONDS)).toBeNull();
  });

  it('refuses another key, token or timestamp, a stale one, none, and everything without a key', () => {
    expect(verifyMailgunSignature('other', signed, NOW)).toBe('mismatch');
    expect(verifyMailgunSignature(KEY, { ...signed, token: `${token}0` }, NOW)).toBe('mismatch');
    expect(verifyMailgunSignature(KEY, { ...signed, timestamp: String(NOW - 1) }, NOW)).toBe('mismatch');
    expect(verifyMailgunSignature(KEY, signed, NOW + WEBHOOK_SIGNATURE_TOLERANCE_SECONDS + 1)).toBe('stale');
    expect(verifyMailgunSignature(KEY, null, NOW)).toBe('missing');
    expect(verifyMailgunSignature('', signed, NOW)).toBe('no_secret');
  });

  it('reads the signature block of a body, refusing what is not one', () => {
    expect(mailgunSignatureOf({ signature: signed })).toEqual(signed);
    expect(mailgunSignatureOf({ signature: { ...signed, timestamp: NOW } })).toEqual(signed);
    expect(mailgunSignatureOf({ signature: { ...signed, timestamp: 'yesterday' } })).toBeNull();
    expect(mailgunSignatureOf({ signature: { timestamp: String(NOW), token } })).toBeNull();
    expect(mailgunSignatureOf(null)).toBeNull();
    expect(mailgunSignatureOf({})).toBeNull();
  });
});

describe('mailEventReceipt', () => {
  const event = (e: Record<string, unknown>) => ({ 'event-data': { timestamp: NOW + 0.5, 'user-variables': { deliveryId: 'd-1' }, ...e } });

  it('delivered: delivered, at the event’s time', () => {
    expect(mailEventReceipt(event({ event: 'delivered' }))).toEqual({
      deliveryId: 'd-1',
      receipt: 'delivered',
      reason: null,
      at: new Date((NOW + 0.5) * 1000),
    });
  });

  it('a permanent failure is a bounce with the relay’s reason', () => {
    const bounce = event({
      event: 'failed',
      severity: 'permanent',
      'delivery-status': { code: 550, message: '5.1.1 The email account that you tried to reach does not exist', description: '' },
    });
    expect(mailEventReceipt(bounce)).toMatchObject({ receipt: 'bounced', reason: '550 5.1.1 The email account that you tried to reach does not exist' });
    const suppressed = event({
      event: 'failed',
      severity: 'permanent',
      'delivery-status': { code: 605, description: 'Not delivering to previously bounced address' },
    });
    expect(mailEventReceipt(suppressed)).toMatchObject({ receipt: 'bounced', reason: '605 Not delivering to previously bounced address' });
    expect(mailEventReceipt(event({ event: 'failed', severity: 'permanent' }))).toMatchObject({ receipt: 'bounced', reason: 'bounced' });
  });

  it('a temporary failure says nothing yet (the relay retries)', () => {
    expect(mailEventReceipt(event({ event: 'failed', severity: 'temporary' }))).toBeNull();
  });

  it('a complaint is recorded as one', () => {
    expect(mailEventReceipt(event({ event: 'complained' }))).toMatchObject({ receipt: 'complained' });
  });

  it('events that say nothing of delivery, or name no delivery, carry no receipt', () => {
    expect(mailEventReceipt(event({ event: 'opened' }))).toBeNull();
    expect(mailEventReceipt(event({ event: 'accepted' }))).toBeNull();
    expect(mailEventReceipt({ 'event-data': { event: 'delivered' } })).toBeNull();
    expect(mailEventReceipt({ 'event-data': { event: 'delivered', 'user-variables': { deliveryId: 42 } } })).toBeNull();
    expect(mailEventReceipt({})).toBeNull();
  });
});
