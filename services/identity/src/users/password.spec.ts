import { assertAcceptablePassword, checkPasswordStrength, PasswordHasher } from './password';

describe('password rules', () => {
  it("gives the hosted service's reasons", () => {
    expect(checkPasswordStrength('short')).toEqual({ reasons: ['length'], message: 'Password should be at least 8 characters.' });
    expect(checkPasswordStrength('Password123')?.reasons).toEqual(['pwned']);
    expect(checkPasswordStrength('a sturdy passphrase')).toBeNull();
  });

  it('accepts long passphrases up to 1024 characters', () => {
    expect(() => assertAcceptablePassword('p'.repeat(64))).not.toThrow();
    expect(() => assertAcceptablePassword('p'.repeat(1024))).not.toThrow();
    expect(() => assertAcceptablePassword('p'.repeat(1025))).toThrow('Password cannot be longer than 1024 characters');
  });

  it('hashes with argon2id and verifies', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('correct horse');
    expect(hash.startsWith('$argon2id$')).toBe(true);
    await expect(hasher.verify(hash, 'correct horse')).resolves.toBe(true);
    await expect(hasher.verify(hash, 'wrong horse')).resolves.toBe(false);
    await expect(hasher.verify(null, 'anything')).resolves.toBe(false);
  });
});
