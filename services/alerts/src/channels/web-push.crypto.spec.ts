import { createECDH, createPrivateKey, createPublicKey, randomBytes } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { encryptPayload, jsKeyAgreement, KeyAgreement, nativeKeyAgreement, signVapidJwt, VapidTokenCache, WEB_PUSH_ECDH } from './web-push.crypto';

// http_ece is the reference implementation web-push itself uses: an independent decryption.
const ece = require('http_ece');

function subscriber() {
  const ecdh = createECDH('prime256v1');
  const pub = ecdh.generateKeys();
  const auth = randomBytes(16);
  return { ecdh, keys: { p256dh: pub.toString('base64url'), auth: auth.toString('base64url') } };
}

function vapidKeys() {
  const ecdh = createECDH('prime256v1');
  const pub = ecdh.generateKeys();
  const jwk = { kty: 'EC', crv: 'P-256', x: pub.subarray(1, 33).toString('base64url'), y: pub.subarray(33).toString('base64url') };
  return {
    privateKey: createPrivateKey({ key: { ...jwk, d: ecdh.getPrivateKey().toString('base64url') }, format: 'jwk' }),
    publicKey: pub.toString('base64url'),
    jwk,
  };
}

describe('RFC 8291 encryption', () => {
  it('produces an aes128gcm body the reference implementation decrypts', () => {
    const sub = subscriber();
    const body = encryptPayload(Buffer.from('{"title":"Flood warning"}'), sub.keys);
    const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.keys.auth });
    expect(plain.toString()).toBe('{"title":"Flood warning"}');
    // header: 16-byte salt, record size 4096, a 65-byte key id (the sender's ephemeral public key)
    expect(body.readUInt32BE(16)).toBe(4096);
    expect(body.readUInt8(20)).toBe(65);
  });

  it('uses a fresh sender key per message', () => {
    const sub = subscriber();
    const a = encryptPayload(Buffer.from('x'), sub.keys);
    const b = encryptPayload(Buffer.from('x'), sub.keys);
    expect(a.subarray(21, 86).equals(b.subarray(21, 86))).toBe(false);
  });

  it('fails to decrypt with the wrong auth secret', () => {
    const sub = subscriber();
    const body = encryptPayload(Buffer.from('secret'), sub.keys);
    expect(() => ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: randomBytes(16).toString('base64url') })).toThrow();
  });

  it('refuses malformed keys and oversized payloads', () => {
    expect(() => encryptPayload(Buffer.from('x'), { p256dh: 'AAAA', auth: 'AAAA' })).toThrow('invalid subscription keys');
    expect(() => encryptPayload(Buffer.alloc(5000), subscriber().keys)).toThrow('too large');
  });
});

/** A seeded generator, so a failing case can be replayed from the seed the spec prints. */
function seeded(seed: number) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x ^= x >>> 17;
    x ^= x << 5;
    return (x >>> 0) / 2 ** 32;
  };
}

const agreements: [string, KeyAgreement | null][] = [
  ['node:crypto', jsKeyAgreement],
  ['the native addon', nativeKeyAgreement],
];

describe.each(agreements)('RFC 8291 encryption with %s key agreement: byte-compatible with the reference decryption', (_name, agree) => {
  // The addon is built at install (libs/webpush-native); CI builds it, so there this runs. Where it cannot be built
  // the service runs on node:crypto, which the other half of this table covers.
  const maybe = agree ? it : it.skip;

  maybe('decrypts for 300 random payloads, subscriber keys, auth secrets, salts and record sizes', () => {
    const seed = Date.now();
    const random = seeded(seed);
    for (let i = 0; i < 300; i++) {
      const sub = subscriber();
      const length = Math.floor(random() * 3994);
      const payload = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
      const salt = randomBytes(16);
      const recordSize = length + 17 + Math.floor(random() * (4096 - length - 17 + 1));
      const body = encryptPayload(payload, sub.keys, salt, agree!, recordSize);
      const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.keys.auth });
      if (!plain.equals(payload)) throw new Error(`case ${i} of seed ${seed}: length ${length}, record size ${recordSize}`);
      expect(body.readUInt32BE(16)).toBe(recordSize);
      expect(body.subarray(0, 16).equals(salt)).toBe(true);
    }
  });

  maybe('draws a fresh sender key every message, and refuses a point that is not on the curve', () => {
    const sub = subscriber();
    const keys = new Set(Array.from({ length: 50 }, () => encryptPayload(Buffer.from('x'), sub.keys, undefined, agree!).subarray(21, 86).toString('hex')));
    expect(keys.size).toBe(50);
    const offCurve = Buffer.from(sub.keys.p256dh, 'base64url');
    offCurve[64] ^= 1;
    expect(() => encryptPayload(Buffer.from('x'), { ...sub.keys, p256dh: offCurve.toString('base64url') }, undefined, agree!)).toThrow();
  });
});

describe('which key agreement runs', () => {
  it('says so, and why when it is not the native one', () => {
    expect(WEB_PUSH_ECDH.implementation).toBe(nativeKeyAgreement ? 'native' : 'js');
    if (WEB_PUSH_ECDH.implementation === 'js') expect(WEB_PUSH_ECDH.reason).toEqual(expect.any(String));
  });

  // On CI the addon must have been built: a toolchain problem there would silently cost a third of the push rate.
  (process.env.CI ? it : it.skip)('is the native addon on CI', () => {
    expect(WEB_PUSH_ECDH).toEqual({ implementation: 'native' });
  });
});

describe('RFC 8292 VAPID', () => {
  it('signs an ES256 JWT for the push service origin', async () => {
    const k = vapidKeys();
    const exp = Math.floor(Date.now() / 1000) + 3600;
    const jwt = signVapidJwt(k.privateKey, 'https://push.example.net', 'mailto:ops@example.org', exp);
    const { payload, protectedHeader } = await jwtVerify(jwt, await importJWK(k.jwk, 'ES256'), { audience: 'https://push.example.net' });
    expect(protectedHeader).toMatchObject({ alg: 'ES256', typ: 'JWT' });
    expect(payload).toMatchObject({ sub: 'mailto:ops@example.org', exp });
    expect(createPublicKey({ key: k.jwk, format: 'jwk' })).toBeTruthy();
  });

  it('signs once per origin and reuses the token until an hour before expiry', () => {
    const k = vapidKeys();
    const cache = new VapidTokenCache(k.privateKey, k.publicKey, 'mailto:ops@example.org', 12 * 3600);
    const t0 = Date.now();
    const a = cache.authorization('https://push.example.net/send/abc', t0);
    expect(cache.authorization('https://push.example.net/send/def', t0 + 1000)).toBe(a);
    expect(cache.authorization('https://other.example.com/x', t0)).not.toBe(a);
    expect(a).toMatch(new RegExp(`^vapid t=[\\w-]+\\.[\\w-]+\\.[\\w-]+, k=${k.publicKey}$`));
    expect(cache.authorization('https://push.example.net/send/abc', t0 + 11.5 * 3600_000)).not.toBe(a);
  });
});
