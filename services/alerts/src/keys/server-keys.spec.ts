import { createECDH, createHmac, randomBytes, randomUUID } from 'node:crypto';
import type { DataSource } from 'typeorm';
import { ServerKeys } from './server-keys';

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
