import { randomBytes } from 'node:crypto';
import { DataKey, DataKeyError, rowLabel } from './data-key';

const newKey = () => DataKey.fromBase64(randomBytes(32).toString('base64'));
const SECRET = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
const ROW = rowLabel('mfa_factors', '7f1f3c2e-4a5b-4c6d-8e9f-0a1b2c3d4e5f');

function errorOf(fn: () => unknown): Error {
  try {
    fn();
  } catch (e) {
    return e as Error;
  }
  throw new Error('expected an error');
}

describe('DataKey', () => {
  it('round-trips a value in the enc:v1 format, with a fresh IV each time', () => {
    const key = newKey();
    const a = key.seal(SECRET, ROW);
    const b = key.seal(SECRET, ROW);
    expect(a).toMatch(/^enc:v1:[A-Za-z0-9_-]{16}\.[A-Za-z0-9_-]{22}\.[A-Za-z0-9_-]+$/);
    expect(a).not.toContain(SECRET);
    expect(a).not.toBe(b);
    expect(key.open(a, ROW)).toBe(SECRET);
    expect(key.open(b, ROW)).toBe(SECRET);
  });

  it('refuses a wrong key with one message naming IDENTITY_DATA_KEY', () => {
    const stored = newKey().seal(SECRET, ROW);
    const error = errorOf(() => newKey().open(stored, ROW));
    expect(error).toBeInstanceOf(DataKeyError);
    expect(error.message).toMatch(/^IDENTITY_DATA_KEY does not decrypt mfa_factors:/);
    expect(error.message).not.toContain('\n');
  });

  it('refuses an encrypted value when no key is configured, rather than using the ciphertext as the secret', () => {
    const stored = newKey().seal(SECRET, ROW);
    expect(() => DataKey.fromBase64(undefined).open(stored, ROW)).toThrow(/IDENTITY_DATA_KEY is not set/);
  });

  it.each([
    ['the ciphertext', (s: string) => s.slice(0, -2) + (s.endsWith('AA') ? 'BA' : 'AA')],
    ['the tag', (s: string) => s.replace(/\.(.)/, (_m, c: string) => `.${c === 'A' ? 'B' : 'A'}`)],
    ['the IV', (s: string) => `enc:v1:${s[7] === 'A' ? 'B' : 'A'}${s.slice(8)}`],
    ['the structure', (s: string) => s.split('.').slice(0, 2).join('.')],
  ])('refuses a value with tampered %s', (_what, tamper) => {
    const key = newKey();
    const stored = key.seal(SECRET, ROW);
    const altered = tamper(stored);
    expect(altered).not.toBe(stored);
    expect(() => key.open(altered, ROW)).toThrow(DataKeyError);
  });

  it('refuses a value copied to another row (additional authenticated data)', () => {
    const key = newKey();
    const stored = key.seal(SECRET, ROW);
    expect(() => key.open(stored, rowLabel('mfa_factors', '00000000-0000-4000-8000-000000000000'))).toThrow(/does not decrypt mfa_factors:00000000-/);
    expect(() => key.open(stored, rowLabel('signing_keys', '7f1f3c2e-4a5b-4c6d-8e9f-0a1b2c3d4e5f'))).toThrow(DataKeyError);
  });

  it('passes legacy plaintext through, with or without a key', () => {
    const pem = '-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----';
    expect(newKey().open(SECRET, ROW)).toBe(SECRET);
    expect(newKey().open(pem, rowLabel('signing_keys', 'kid'))).toBe(pem);
    expect(DataKey.fromBase64(undefined).open(SECRET, ROW)).toBe(SECRET);
  });

  it('stores plaintext when no key is configured', () => {
    const none = DataKey.fromBase64('');
    expect(none.configured).toBe(false);
    expect(none.seal(SECRET, ROW)).toBe(SECRET);
  });

  it('refuses a key of the wrong size and an unknown format version', () => {
    expect(() => DataKey.fromBase64(randomBytes(16).toString('base64'))).toThrow(/IDENTITY_DATA_KEY must be 32 random bytes in base64/);
    expect(() => newKey().open('enc:v2:abc', ROW)).toThrow(/format this version does not read \(enc:v2\)/);
  });
});
