import { createECDH, createPublicKey, randomBytes } from 'node:crypto';
import { importJWK, jwtVerify } from 'jose';
import { addon } from '@beacon/webpush-native';
import { newVapidKeyPair, publicKeyJwk, vapidSigningKey } from '../keys/server-keys';
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
  const pair = newVapidKeyPair();
  return { privateKey: vapidSigningKey(pair.publicKey, pair.privateKey), publicKey: pair.publicKey, jwk: publicKeyJwk(pair.publicKey) };
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

/** The largest payload a 4096-byte record takes with this header (the limit encryptPayload enforces). */
const MAX_PAYLOAD = 4096 - 16 - 1 - 86;

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

const WHOLE_NATIVE = WEB_PUSH_ECDH.implementation === 'native';
/** Each way encryptPayload can encrypt: the key agreement it is given (none: its default), and whether it is here. */
const paths: [string, KeyAgreement | undefined, boolean][] = [
  ['node:crypto throughout', jsKeyAgreement, true],
  ["the native key agreement and node:crypto's HMACs and AES-GCM", nativeKeyAgreement ?? undefined, nativeKeyAgreement !== null],
  ['the native whole-message encryption', undefined, WHOLE_NATIVE],
];

describe.each(paths)('RFC 8291 encryption with %s: byte-compatible with the reference decryption', (name, agree, available) => {
  // The addon is built at install (libs/webpush-native); CI builds it, so there this runs. Where it cannot be built
  // the service runs on node:crypto, which the first row of this table covers.
  const maybe = available ? it : it.skip;

  maybe('decrypts for 300 random payloads (empty and largest included), subscriber keys, auth secrets, salts and record sizes', () => {
    const seed = Date.now();
    const random = seeded(seed);
    for (let i = 0; i < 300; i++) {
      const sub = subscriber();
      const length = i === 0 ? 0 : i === 1 ? MAX_PAYLOAD : Math.floor(random() * (MAX_PAYLOAD + 1));
      const payload = Buffer.from(Array.from({ length }, () => Math.floor(random() * 256)));
      const salt = randomBytes(16);
      // The smallest record that fits, the largest push services take, and any in between.
      const recordSize = i % 3 === 0 ? length + 17 : i % 3 === 1 ? 4096 : length + 17 + Math.floor(random() * (4096 - length - 17 + 1));
      const body = encryptPayload(payload, sub.keys, salt, agree, recordSize);
      const plain = ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.keys.auth });
      if (!plain.equals(payload)) throw new Error(`${name}: case ${i} of seed ${seed}: length ${length}, record size ${recordSize}`);
      // The layout: salt, record size (uint32 BE), key id length 65, the sender's fresh public key, ciphertext, tag.
      expect(body.length).toBe(86 + length + 1 + 16);
      expect(body.subarray(0, 16).equals(salt)).toBe(true);
      expect(body.readUInt32BE(16)).toBe(recordSize);
      expect(body.readUInt8(20)).toBe(65);
      expect(body[21]).toBe(0x04);
      expect(body.subarray(21, 86).equals(Buffer.from(sub.keys.p256dh, 'base64url'))).toBe(false);
    }
  });

  maybe('draws a fresh sender key every message, and refuses a point that is not on the curve', () => {
    const sub = subscriber();
    const keys = new Set(Array.from({ length: 50 }, () => encryptPayload(Buffer.from('x'), sub.keys, undefined, agree).subarray(21, 86).toString('hex')));
    expect(keys.size).toBe(50);
    const offCurve = Buffer.from(sub.keys.p256dh, 'base64url');
    offCurve[64] ^= 1;
    expect(() => encryptPayload(Buffer.from('x'), { ...sub.keys, p256dh: offCurve.toString('base64url') }, undefined, agree)).toThrow();
  });

  maybe('keeps the validation errors', () => {
    const sub = subscriber();
    expect(() => encryptPayload(Buffer.from('x'), { p256dh: sub.keys.p256dh, auth: 'AAAA' }, undefined, agree)).toThrow('invalid subscription keys');
    expect(() => encryptPayload(Buffer.alloc(MAX_PAYLOAD + 1), sub.keys, undefined, agree)).toThrow('push payload too large');
    expect(() => encryptPayload(Buffer.alloc(100), sub.keys, undefined, agree, 116)).toThrow('record size does not fit the payload');
    expect(() => encryptPayload(Buffer.alloc(100), sub.keys, undefined, agree, 4097)).toThrow('record size does not fit the payload');
  });
});

const maybeNative = WHOLE_NATIVE ? it : it.skip;

describe('the native whole-message encryption', () => {
  maybeNative('is byte-identical to the node:crypto HMACs and AES-GCM over the same key pair', () => {
    // The sender's key pair is drawn inside the addon, but the recipient can compute the same ECDH secret from the
    // body's key id: the JS path given that pair must then produce the very same body.
    const seed = Date.now();
    const random = seeded(seed);
    for (let i = 0; i < 100; i++) {
      const sub = subscriber();
      const length = i === 0 ? 0 : i === 1 ? MAX_PAYLOAD : Math.floor(random() * (MAX_PAYLOAD + 1));
      const payload = randomBytes(length);
      const salt = randomBytes(16);
      const recordSize = length + 17 + Math.floor(random() * (4096 - length - 17 + 1));
      const body = encryptPayload(payload, sub.keys, salt, undefined, recordSize);
      const asPublic = Buffer.from(body.subarray(21, 86));
      const sameKeyPair: KeyAgreement = () => ({ asPublic, secret: sub.ecdh.computeSecret(asPublic) });
      const js = encryptPayload(payload, sub.keys, salt, sameKeyPair, recordSize);
      if (!js.equals(body)) throw new Error(`case ${i} of seed ${seed}: length ${length}, record size ${recordSize}`);
    }
  });

  maybeNative('refuses a subscription key that is not a point on P-256, and leaves no half-written body', () => {
    const sub = subscriber();
    const offCurve = Buffer.from(sub.keys.p256dh, 'base64url');
    offCurve[64] ^= 1;
    expect(() => encryptPayload(Buffer.from('x'), { ...sub.keys, p256dh: offCurve.toString('base64url') })).toThrow(
      'the peer public key is not a point on P-256',
    );
    const notUncompressed = Buffer.from(sub.keys.p256dh, 'base64url');
    notUncompressed[0] = 0x02;
    expect(() => encryptPayload(Buffer.from('x'), { ...sub.keys, p256dh: notUncompressed.toString('base64url') })).toThrow(
      'the peer public key must be a 65-byte uncompressed P-256 point',
    );
    const out = Buffer.alloc(86 + 6 + 17, 0xaa);
    expect(() => addon!.encrypt(offCurve, randomBytes(16), randomBytes(16), Buffer.from('secret'), 4096, out)).toThrow('not a point on P-256');
    expect(out.equals(Buffer.alloc(out.length))).toBe(true);
  });

  maybeNative('checks the sizes it is given, whoever calls it', () => {
    const ua = Buffer.from(subscriber().keys.p256dh, 'base64url');
    const [auth, salt, plain] = [randomBytes(16), randomBytes(16), randomBytes(10)];
    const out = () => Buffer.alloc(86 + 10 + 17);
    expect(() => addon!.encrypt(ua, randomBytes(15), salt, plain, 4096, out())).toThrow('authSecret must be a 16-byte Uint8Array');
    expect(() => addon!.encrypt(ua, auth, randomBytes(17), plain, 4096, out())).toThrow('salt must be a 16-byte Uint8Array');
    expect(() => addon!.encrypt(ua, auth, salt, plain, 26, out())).toThrow('record size does not fit the payload');
    expect(() => addon!.encrypt(ua, auth, salt, plain, 4096.5, out())).toThrow('recordSize must be an integer');
    expect(() => addon!.encrypt(ua, auth, salt, plain, 4096, Buffer.alloc(86 + 10 + 16))).toThrow('out must be a Uint8Array of 86');
    const shared = Buffer.alloc(86 + 10 + 17);
    expect(() => addon!.encrypt(ua, auth, salt, shared.subarray(100, 110), 4096, shared)).toThrow('out must not overlap the inputs');
    addon!.encrypt(ua, auth, salt, plain, 27, out());
  });
});

describe('which encryption runs', () => {
  it('says it is the native one, and encrypts through it, when the addon has the whole-message encryption', () => {
    jest.isolateModules(() => {
      const encrypt = jest.fn();
      jest.doMock('@beacon/webpush-native', () => ({ addon: { agree: jest.fn(), encrypt }, loadError: null }));
      const loaded: typeof import('./web-push.crypto') = require('./web-push.crypto');
      expect(loaded.WEB_PUSH_ECDH).toEqual({ implementation: 'native' });
      const body = loaded.encryptPayload(Buffer.from('x'), subscriber().keys);
      expect(encrypt).toHaveBeenCalledTimes(1);
      expect(encrypt.mock.calls[0][5]).toBe(body);
    });
  });

  // Whenever the addon loads, encryptPayload must go through its whole-message encryption: the JS HMACs and AES-GCM
  // around the native key agreement cost about a quarter more CPU per message (bench/README.md).
  (addon ? it : it.skip)('is the native whole-message encryption when the addon loads, and node:crypto around a given key agreement', () => {
    const encrypt = jest.spyOn(addon!, 'encrypt');
    const agree = jest.spyOn(addon!, 'agree');
    try {
      const sub = subscriber();
      encryptPayload(Buffer.from('x'), sub.keys);
      expect(encrypt).toHaveBeenCalledTimes(1);
      expect(agree).not.toHaveBeenCalled();
      const given = jest.fn(jsKeyAgreement);
      const body = encryptPayload(Buffer.from('y'), sub.keys, undefined, given);
      expect(given).toHaveBeenCalledTimes(1);
      expect(encrypt).toHaveBeenCalledTimes(1);
      expect(ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.keys.auth }).toString()).toBe('y');
    } finally {
      encrypt.mockRestore();
      agree.mockRestore();
    }
  });

  it('falls back to node:crypto, and says why, when the addon is not built', () => {
    jest.isolateModules(() => {
      jest.doMock('@beacon/webpush-native', () => ({ addon: null, loadError: 'no C toolchain' }));
      const fallback: typeof import('./web-push.crypto') = require('./web-push.crypto');
      expect(fallback.WEB_PUSH_ECDH).toEqual({ implementation: 'js', reason: 'no C toolchain' });
      const sub = subscriber();
      const body = fallback.encryptPayload(Buffer.from('fallback'), sub.keys);
      expect(ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.keys.auth }).toString()).toBe('fallback');
    });
  });

  (addon ? it : it.skip)('uses the native key agreement under node:crypto, and says to rebuild, when the addon is an older build without encrypt', () => {
    jest.isolateModules(() => {
      const agree = jest.fn(addon!.agree);
      jest.doMock('@beacon/webpush-native', () => ({ addon: { agree }, loadError: null }));
      const stale: typeof import('./web-push.crypto') = require('./web-push.crypto');
      expect(stale.WEB_PUSH_ECDH).toEqual({ implementation: 'js', reason: 'the addon has no encrypt (rebuild it)' });
      const sub = subscriber();
      const body = stale.encryptPayload(Buffer.from('stale'), sub.keys);
      expect(agree).toHaveBeenCalledTimes(1);
      expect(ece.decrypt(body, { version: 'aes128gcm', privateKey: sub.ecdh, authSecret: sub.keys.auth }).toString()).toBe('stale');
    });
  });

  // On CI the addon must have been built: a toolchain problem there would silently double the encryption's CPU per push.
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
