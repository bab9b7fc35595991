import { BROWSER_PUSH_HOSTS } from '../config/delivery-env';
import { isPushServiceHost, pushEndpointRefusal } from './push-endpoint-policy';

const defaults = BROWSER_PUSH_HOSTS.split(',');

describe('isPushServiceHost', () => {
  it.each([
    ['fcm.googleapis.com', true],
    ['android.googleapis.com', true],
    ['updates.push.services.mozilla.com', true],
    ['web.push.apple.com', true],
    ['api.push.apple.com', true],
    ['wns2-db5p.notify.windows.com', true],
    ['FCM.GoogleAPIs.com.', true],
    ['push.apple.com', false],
    ['evilpush.apple.com', false],
    ['fcm.googleapis.com.evil.example', false],
    ['evil-fcm.googleapis.com', false],
    ['googleapis.com', false],
    ['notify.windows.com.evil.example', false],
    ['victim.example', false],
  ])('%s: %s', (host, expected) => {
    expect(isPushServiceHost(host, defaults)).toBe(expected);
  });

  it('admits any host with *', () => {
    expect(isPushServiceHost('victim.example', ['*'])).toBe(true);
  });
});

describe('pushEndpointRefusal', () => {
  const hosts = { pushEndpointHosts: defaults, webhookAllowHosts: ['127.0.0.1'] };
  const refusal = (endpoint: string) => pushEndpointRefusal(endpoint, hosts)?.code ?? null;

  it('accepts https endpoints of the browsers’ push services', () => {
    expect(refusal('https://fcm.googleapis.com/fcm/send/abc')).toBeNull();
    expect(refusal('https://updates.push.services.mozilla.com/wpush/v2/abc')).toBeNull();
    expect(refusal('https://web.push.apple.com/QGx')).toBeNull();
    expect(refusal('https://wns2-bl2p.notify.windows.com/w/?token=abc')).toBeNull();
  });

  it('refuses other hosts, plain http and what is no URL', () => {
    expect(refusal('https://victim.example/push')).toBe('unsupported_push_service');
    expect(refusal('https://8.8.8.8/push')).toBe('unsupported_push_service');
    expect(refusal('http://fcm.googleapis.com/fcm/send/abc')).toBe('invalid_push_endpoint');
    expect(refusal('ftp://fcm.googleapis.com/x')).toBe('invalid_push_endpoint');
    expect(refusal('not a url')).toBe('invalid_push_endpoint');
  });

  it('accepts a local push service allow-listed in WEBHOOK_ALLOW_HOSTS, over http too (tests, the benchmark)', () => {
    expect(refusal('http://127.0.0.1:4000/push/1')).toBeNull();
    expect(refusal('https://127.0.0.1:4000/push/1')).toBeNull();
    expect(refusal('http://127.0.0.2:4000/push/1')).toBe('invalid_push_endpoint');
    expect(pushEndpointRefusal('https://[::1]:4000/push/1', { pushEndpointHosts: [], webhookAllowHosts: ['::1'] })).toBeNull();
  });
});
