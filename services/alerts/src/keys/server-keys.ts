import { Injectable, Logger, OnApplicationBootstrap } from '@nestjs/common';
import { InjectDataSource } from '@nestjs/typeorm';
import { createECDH, createHmac, createPrivateKey, createSecretKey, KeyObject, randomBytes, timingSafeEqual } from 'node:crypto';
import { DataSource } from 'typeorm';

export interface VapidKeys {
  /** Uncompressed P-256 public key (65 bytes), base64url: what browsers pass as applicationServerKey. */
  publicKey: string;
  /** The private key, ready for ES256 signing. Never leaves the server. */
  privateKey: KeyObject;
}

export type ReceiptPurpose = 'delivered' | 'ack';

const b64url = (b: Buffer) => b.toString('base64url');

/** A stored private scalar at its full 32 bytes (`ECDH.getPrivateKey()` drops leading zero bytes: one key in 256 is short). */
const fullLengthScalar = (d: string) => {
  const raw = Buffer.from(d, 'base64url');
  return raw.length >= 32 ? d : b64url(Buffer.concat([Buffer.alloc(32 - raw.length), raw]));
};

/**
 * A new VAPID key pair as stored: the uncompressed public point and the private scalar, both base64url and both at full
 * length (65 and 32 bytes; RFC 7518, and the web-push library among other readers, refuse a 31-byte scalar).
 *
 * From ECDH, not from `generateKeyPairSync` and a JWK export of its key: on Node 20 that export can hang the process for
 * good. It holds the key's mutex while it writes x, y and d into a new object; an allocation there can start a
 * scavenge, which may collect the finished key-generation job, whose destructor takes the same mutex (a gdb backtrace
 * of a CI run stuck in server-keys.spec showed exactly this; a loop under allocation pressure reproduces it within
 * seconds, and `asymmetricKeyDetails` of such a key does the same). The lint forbids `generateKeyPairSync`.
 */
export function newVapidKeyPair(): { publicKey: string; privateKey: string } {
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  return { publicKey: b64url(ecdh.getPublicKey()), privateKey: fullLengthScalar(b64url(ecdh.getPrivateKey())) };
}

/** The public JWK of an uncompressed P-256 point given base64url (a VAPID public key, a subscription's p256dh). */
export function publicKeyJwk(point: string): { kty: 'EC'; crv: 'P-256'; x: string; y: string } {
  const raw = Buffer.from(point, 'base64url');
  return { kty: 'EC', crv: 'P-256', x: b64url(raw.subarray(1, 33)), y: b64url(raw.subarray(33, 65)) };
}

/** The signing key of a stored VAPID pair (`publicKey`: the uncompressed point, `d`: the scalar, both base64url). */
export function vapidSigningKey(publicKey: string, d: string): KeyObject {
  return createPrivateKey({ key: { ...publicKeyJwk(publicKey), d }, format: 'jwk' });
}

const tokenFor = (secret: KeyObject, deliveryId: string, purpose: ReceiptPurpose) =>
  createHmac('sha256', secret).update(`${purpose}:${deliveryId}`).digest('base64url').slice(0, 32);

/** The audience tokens' key of a receipt secret (ServerKeys.audienceTokenKey). */
export const audienceTokenKeyOf = (receiptSecret: KeyObject) =>
  createSecretKey(createHmac('sha256', receiptSecret).update('beacon:audience-token:v1').digest());

/**
 * Keys generated on first start and kept in the alerts schema: the VAPID key pair (RFC 8292) and the
 * secret that signs per-delivery receipt tokens (the service worker reports "shown" and "acknowledged"
 * with them, without a session). Concurrent first starts agree: the first insert wins, everyone reads it.
 */
@Injectable()
export class ServerKeys implements OnApplicationBootstrap {
  private loaded?: Promise<{ vapid: VapidKeys; receiptSecret: KeyObject }>;

  constructor(@InjectDataSource() private readonly ds: DataSource) {}

  /** Generates the keys on first start; a database hiccup here only defers it to first use. */
  async onApplicationBootstrap() {
    await this.load().catch((e) => new Logger('ServerKeys').warn(`keys not loaded yet: ${(e as Error).message}`));
  }

  vapid(): Promise<VapidKeys> {
    return this.load().then((k) => k.vapid);
  }

  /** A token proving the bearer received this delivery's push payload (only its browser can decrypt it). */
  async receiptToken(deliveryId: string, purpose: ReceiptPurpose): Promise<string> {
    return tokenFor((await this.load()).receiptSecret, deliveryId, purpose);
  }

  /** Both of a delivery's receipt tokens, as receiptToken gives them, the keys read once (one per push message). */
  async receiptTokens(deliveryId: string): Promise<Record<ReceiptPurpose, string>> {
    const { receiptSecret } = await this.load();
    return { delivered: tokenFor(receiptSecret, deliveryId, 'delivered'), ack: tokenFor(receiptSecret, deliveryId, 'ack') };
  }

  async verifyReceipt(deliveryId: string, purpose: ReceiptPurpose, token: string): Promise<boolean> {
    const expected = Buffer.from(await this.receiptToken(deliveryId, purpose));
    const given = Buffer.from(String(token ?? ''));
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * The key audience previews' tokens are signed with (alerts/audience-token.ts, issue #38): derived from the receipt
   * secret for that purpose alone, so it is kept where the receipts' is, and no message of one can pass for the other's.
   */
  async audienceTokenKey(): Promise<KeyObject> {
    return audienceTokenKeyOf((await this.load()).receiptSecret);
  }

  private load() {
    this.loaded ??= this.ensure().catch((e) => {
      this.loaded = undefined; // retry on the next call (e.g. the database was briefly down)
      throw e;
    });
    return this.loaded;
  }

  private async ensure() {
    const fresh = newVapidKeyPair();
    await this.ds.query(
      `INSERT INTO alerts.server_keys (id, vapid_public_key, vapid_private_key, receipt_secret) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [fresh.publicKey, fresh.privateKey, b64url(randomBytes(32))],
    );
    const [row] = await this.ds.query(`SELECT vapid_public_key, vapid_private_key, receipt_secret FROM alerts.server_keys WHERE id = 1`);
    const d = fullLengthScalar(row.vapid_private_key);
    if (d !== row.vapid_private_key) {
      // The same key, stored as every reader expects it.
      await this.ds.query(`UPDATE alerts.server_keys SET vapid_private_key = $1 WHERE id = 1 AND vapid_private_key = $2`, [d, row.vapid_private_key]);
    }
    const privateKey = vapidSigningKey(row.vapid_public_key, d);
    return { vapid: { publicKey: row.vapid_public_key as string, privateKey }, receiptSecret: createSecretKey(Buffer.from(row.receipt_secret, 'base64url')) };
  }
}
