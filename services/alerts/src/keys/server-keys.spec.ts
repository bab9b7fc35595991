import { createECDH, createHmac, createPublicKey, KeyObject, randomBytes, randomUUID, sign, verify } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { newVapidKeyPair, publicKeyJwk, ServerKeys, vapidSigningKey } from './server-keys';

/** Receipt tokens: the format the service workers of pushes already sent carry (so a release does not void them). */
describe('ServerKeys receipt tokens', () => {
  const secret = randomBytes(32);
  const ecdh = createECDH('prime256v1');
  ecdh.generateKeys();
  const row = {
    vapid_public_key: ecdh.getPublicKey().toString('base64url'),
    vapid_private_key: ecdh.getPrivateKey().toString('base64url'),
    receipt_secret: secret.toString('base64url'),
  };
  const keys = new ServerKeys({ query: async (sql: string) => (sql.startsWith('SELECT') ? [row] : []) } as unknown as DataSource);
  const expected = (id: string, purpose: string) => createHmac('sha256', secret).update(`${purpose}:${id}`).digest().toString('base64url').slice(0, 32);

  it('signs each purpose with the stored secret, as HMAC-SHA256 of "purpose:id" cut to 32 base64url characters', async () => {
    const id = randomUUID();
    expect(await keys.receiptToken(id, 'delivered')).toBe(expected(id, 'delivered'));
    expect(await keys.receiptTokens(id)).toEqual({ delivered: expected(id, 'delivered'), ack: expected(id, 'ack') });
  });

  it('verifies its own tokens and refuses another purpose, delivery or a wrong length', async () => {
    const id = randomUUID();
    const { delivered, ack } = await keys.receiptTokens(id);
    expect(await keys.verifyReceipt(id, 'delivered', delivered)).toBe(true);
    expect(await keys.verifyReceipt(id, 'ack', ack)).toBe(true);
    expect(await keys.verifyReceipt(id, 'ack', delivered)).toBe(false);
    expect(await keys.verifyReceipt(randomUUID(), 'delivered', delivered)).toBe(false);
    expect(await keys.verifyReceipt(id, 'delivered', delivered.slice(1))).toBe(false);
  });
});

describe('ServerKeys VAPID key pair', () => {
  /** Whether a signature by `signingKey` verifies under the public point `publicKey` (base64url): the two are one pair. */
  const signsFor = (publicKey: string, signingKey: KeyObject) =>
    verify(
      'sha256',
      Buffer.from('claims'),
      createPublicKey({ key: publicKeyJwk(publicKey), format: 'jwk' }),
      sign('sha256', Buffer.from('claims'), signingKey),
    );

  it('makes keys at full length, a 65-byte public point and a 32-byte private scalar that belong together, every time', () => {
    // ECDH.getPrivateKey() drops leading zero bytes: about one key in 256 comes out 31 bytes long (3,000 tries: such a
    // key turns up with a probability of 1 - (255/256)^3000, above 99.9%), and newVapidKeyPair pads it.
    for (let i = 0; i < 3000; i++) {
      const { publicKey, privateKey } = newVapidKeyPair();
      expect(Buffer.from(publicKey, 'base64url')).toHaveLength(65);
      expect(Buffer.from(privateKey, 'base64url')).toHaveLength(32);
      expect(signsFor(publicKey, vapidSigningKey(publicKey, privateKey))).toBe(true);
    }
  });

  it('signs with a key stored a byte short, and stores it again at full length', async () => {
    // A scalar whose first byte is zero, as about one generated key in 256 has: getPrivateKey() gives it 31 bytes long.
    const ecdh = createECDH('prime256v1');
    ecdh.setPrivateKey(Buffer.concat([Buffer.alloc(1), randomBytes(31)]));
    expect(ecdh.getPrivateKey()).toHaveLength(31);
    const row = {
      vapid_public_key: ecdh.getPublicKey().toString('base64url'),
      vapid_private_key: ecdh.getPrivateKey().toString('base64url'),
      receipt_secret: randomBytes(32).toString('base64url'),
    };
    const updates: unknown[][] = [];
    const keys = new ServerKeys({
      query: async (sql: string, params: unknown[]) => {
        if (sql.startsWith('UPDATE')) updates.push(params);
        return sql.startsWith('SELECT') ? [row] : [];
      },
    } as unknown as DataSource);
    const { publicKey, privateKey } = await keys.vapid();
    expect(signsFor(publicKey, privateKey)).toBe(true);
    const padded = Buffer.concat([Buffer.alloc(32 - ecdh.getPrivateKey().length), ecdh.getPrivateKey()]).toString('base64url');
    expect(updates).toEqual([[padded, row.vapid_private_key]]);
  });
});
