import { createCipheriv, createECDH, createHmac, KeyObject, randomBytes, sign } from 'node:crypto';
import { addon, loadError } from '@beacon/webpush-native';

/**
 * Web Push message encryption (RFC 8291, aes128gcm content coding of RFC 8188) and VAPID (RFC 8292). Per message:
 * one ECDH with a fresh sender key pair (as RFC 8291 requires), five HMACs and one AES-GCM, done in one call by the
 * native addon (libs/webpush-native) when it loads, else here on node:crypto; the VAPID JWT is signed once per
 * push-service origin and reused (see VapidTokenCache).
 */

const hmac = (key: Buffer, data: Buffer) => createHmac('sha256', key).update(data).digest();
const ONE = Buffer.from([1]);
const KEY_INFO = Buffer.from('WebPush: info\0');
const CEK_INFO = Buffer.from('Content-Encoding: aes128gcm\0');
const NONCE_INFO = Buffer.from('Content-Encoding: nonce\0');
const CEK_INFO_1 = Buffer.concat([CEK_INFO, ONE]);
const NONCE_INFO_1 = Buffer.concat([NONCE_INFO, ONE]);
const LAST_RECORD = Buffer.from([2]);
const RECORD_SIZE = 4096;

export interface PushKeys {
  /** The user agent's P-256 public key, base64url (65 bytes uncompressed). */
  p256dh: string;
  /** The user agent's 16-byte auth secret, base64url. */
  auth: string;
}

/** A fresh sender key pair (RFC 8291 requires one per message) and its ECDH secret with the user agent's key. */
export type KeyAgreement = (uaPublic: Buffer) => { asPublic: Buffer; secret: Buffer };

/**
 * node:crypto's: one ECDH object per process, re-keyed for every message (reusing the object saves creating an
 * EC_KEY each time). Safe because encryptPayload is synchronous: nothing else runs between generateKeys and
 * computeSecret. computeSecret re-validates the freshly generated pair each time: three scalar multiplications.
 */
const sender = createECDH('prime256v1');
export const jsKeyAgreement: KeyAgreement = (uaPublic) => {
  const asPublic = sender.generateKeys();
  return { asPublic, secret: sender.computeSecret(uaPublic) };
};

/**
 * The native addon's (libs/webpush-native, built at install against the installed Node's own OpenSSL): one
 * fixed-base and one variable-base multiplication, the peer point checked to be on the curve. The output buffer is
 * reused: its two views are read before the next call (encryptPayload is synchronous), and asPublic is copied out.
 */
const agreed = Buffer.alloc(97);
const native = addon;
export const nativeKeyAgreement: KeyAgreement | null = native
  ? (uaPublic) => {
      native.agree(uaPublic, agreed);
      return { asPublic: agreed.subarray(0, 65), secret: agreed.subarray(65) };
    }
  : null;

/**
 * The addon when it has the whole-message encryption (key agreement, the HMACs and AES-GCM in one call), which
 * encryptPayload then uses. Checked because an addon built from an older source (a stale build directory) loads but
 * has only agree.
 */
const wholeNative = native && typeof native.encrypt === 'function' ? native : null;

/**
 * Which encryption encryptPayload uses: 'native' is the addon's whole-message encryption; 'js' is node:crypto's HMACs
 * and AES-GCM, with the addon's key agreement if only that loaded, and why not the whole native one.
 */
export const WEB_PUSH_ECDH = wholeNative
  ? ({ implementation: 'native' } as const)
  : ({ implementation: 'js', reason: loadError ?? (native ? 'the addon has no encrypt (rebuild it)' : 'not built') } as const);

/** Salts from a pool of random bytes, refilled 256 salts at a time (one syscall instead of one per message). */
let saltPool = Buffer.alloc(0);
let saltOffset = 0;
function freshSalt(): Buffer {
  if (saltOffset + 16 > saltPool.length) {
    saltPool = randomBytes(16 * 256);
    saltOffset = 0;
  }
  saltOffset += 16;
  return saltPool.subarray(saltOffset - 16, saltOffset);
}

/**
 * Encrypts one payload for one subscription: the request body, ready to POST with Content-Encoding: aes128gcm. One
 * record of `recordSize` (RFC 8188: the payload, its delimiter and the tag must fit; push services take 4096). Without
 * a key agreement given, the addon's whole-message encryption when it loads; with one (specs, the benchmark's
 * comparison), or without the addon, node:crypto's HMACs and AES-GCM over that key agreement (default: the addon's,
 * else node:crypto's).
 */
export function encryptPayload(plaintext: Buffer, keys: PushKeys, salt: Buffer = freshSalt(), agree?: KeyAgreement, recordSize = RECORD_SIZE): Buffer {
  const uaPublic = Buffer.from(keys.p256dh, 'base64url');
  const authSecret = Buffer.from(keys.auth, 'base64url');
  if (uaPublic.length !== 65 || authSecret.length !== 16) throw new Error('invalid subscription keys');
  if (plaintext.length > RECORD_SIZE - 16 - 1 - 86) throw new Error('push payload too large');
  if (recordSize > RECORD_SIZE || plaintext.length + 1 + 16 > recordSize) throw new Error('record size does not fit the payload');
  if (!agree && wholeNative) {
    // Allocated here so that all but the largest bodies come from Node's Buffer pool; the addon fills all of it.
    const body = Buffer.allocUnsafe(86 + plaintext.length + 1 + 16);
    wholeNative.encrypt(uaPublic, authSecret, salt, plaintext, recordSize, body);
    return body;
  }
  return encryptWith(agree ?? nativeKeyAgreement ?? jsKeyAgreement, plaintext, uaPublic, authSecret, salt, recordSize);
}

/** node:crypto's HMACs and AES-GCM over a given key agreement: the fallback, and the benchmark's baseline. */
function encryptWith(agree: KeyAgreement, plaintext: Buffer, uaPublic: Buffer, authSecret: Buffer, salt: Buffer, recordSize: number): Buffer {
  const { asPublic, secret: ecdhSecret } = agree(uaPublic);
  // RFC 8291 section 3.4: IKM from the ECDH secret and the auth secret, bound to both public keys.
  const prkKey = hmac(authSecret, ecdhSecret);
  const ikm = hmac(prkKey, Buffer.concat([KEY_INFO, uaPublic, asPublic, ONE]));
  // RFC 8188: content-encryption key and nonce from the IKM and a random salt.
  const prk = hmac(salt, ikm);
  const cek = hmac(prk, CEK_INFO_1).subarray(0, 16);
  const nonce = hmac(prk, NONCE_INFO_1).subarray(0, 12);
  const cipher = createCipheriv('aes-128-gcm', cek, nonce);
  // Header (salt, record size, key id = the sender's public key), then one record: the payload and the 0x02
  // last-record delimiter (no padding), then the tag; written into one buffer.
  const body = Buffer.allocUnsafe(21 + asPublic.length + plaintext.length + 1 + 16);
  salt.copy(body, 0);
  body.writeUInt32BE(recordSize, 16);
  body.writeUInt8(asPublic.length, 20);
  let at = 21 + asPublic.copy(body, 21);
  at += cipher.update(plaintext).copy(body, at);
  at += cipher.update(LAST_RECORD).copy(body, at);
  at += cipher.final().copy(body, at);
  cipher.getAuthTag().copy(body, at);
  return body;
}

const b64urlJson = (o: object) => Buffer.from(JSON.stringify(o)).toString('base64url');

/** A VAPID JWT (ES256) for one push-service origin. */
export function signVapidJwt(privateKey: KeyObject, audience: string, subject: string, expiresAt: number): string {
  const unsigned = `${b64urlJson({ typ: 'JWT', alg: 'ES256' })}.${b64urlJson({ aud: audience, exp: expiresAt, sub: subject })}`;
  const signature = sign('sha256', Buffer.from(unsigned), { key: privateKey, dsaEncoding: 'ieee-p1363' });
  return `${unsigned}.${signature.toString('base64url')}`;
}

/**
 * One signed token per push-service origin, reused until an hour before it expires (12 h lifetime; RFC 8292
 * allows up to 24 h). Signing is the expensive part of VAPID; at thousands of pushes a second to a handful
 * of origins this turns it into a map lookup.
 */
export class VapidTokenCache {
  private readonly tokens = new Map<string, { header: string; renewAt: number }>();

  constructor(
    private readonly privateKey: KeyObject,
    private readonly publicKey: string,
    private readonly subject: string,
    private readonly lifetimeSeconds = 12 * 3600,
  ) {}

  authorization(endpoint: string, now = Date.now()): string {
    return this.forOrigin(new URL(endpoint).origin, now);
  }

  /** authorization() for an origin the caller has already parsed out of the endpoint. */
  forOrigin(origin: string, now = Date.now()): string {
    const cached = this.tokens.get(origin);
    if (cached && cached.renewAt > now) return cached.header;
    const exp = Math.floor(now / 1000) + this.lifetimeSeconds;
    const header = `vapid t=${signVapidJwt(this.privateKey, origin, this.subject, exp)}, k=${this.publicKey}`;
    this.tokens.set(origin, { header, renewAt: (exp - 3600) * 1000 });
    return header;
  }
}
