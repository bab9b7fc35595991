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

const tokenFor = (secret: KeyObject, deliveryId: string, purpose: ReceiptPurpose) =>
  createHmac('sha256', secret).update(`${purpose}:${deliveryId}`).digest('base64url').slice(0, 32);

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

  private load() {
    this.loaded ??= this.ensure().catch((e) => {
      this.loaded = undefined; // retry on the next call (e.g. the database was briefly down)
      throw e;
    });
    return this.loaded;
  }

  private async ensure() {
    const ecdh = createECDH('prime256v1');
    ecdh.generateKeys();
    await this.ds.query(
      `INSERT INTO alerts.server_keys (id, vapid_public_key, vapid_private_key, receipt_secret) VALUES (1, $1, $2, $3) ON CONFLICT (id) DO NOTHING`,
      [b64url(ecdh.getPublicKey()), b64url(ecdh.getPrivateKey()), b64url(randomBytes(32))],
    );
    const [row] = await this.ds.query(`SELECT vapid_public_key, vapid_private_key, receipt_secret FROM alerts.server_keys WHERE id = 1`);
    const pub = Buffer.from(row.vapid_public_key, 'base64url');
    const privateKey = createPrivateKey({
      key: { kty: 'EC', crv: 'P-256', x: b64url(pub.subarray(1, 33)), y: b64url(pub.subarray(33, 65)), d: row.vapid_private_key },
      format: 'jwk',
    });
    return { vapid: { publicKey: row.vapid_public_key as string, privateKey }, receiptSecret: createSecretKey(Buffer.from(row.receipt_secret, 'base64url')) };
  }
}
