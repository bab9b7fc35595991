import { assertAcceptablePassword, checkPasswordStrength, PasswordHasher, standardParameterOrder } from './password';

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

  it('writes the parameters in the PHC order m,t,p, and verifies hashes of either order', async () => {
    const hasher = new PasswordHasher();
    const hash = await hasher.hash('correct horse');
    expect(hash).toMatch(/^\$argon2id\$v=19\$m=19456,t=2,p=1\$[A-Za-z0-9+/]+\$[A-Za-z0-9+/]+$/);
    const [, , , , salt, digest] = hash.split('$');
    await expect(hasher.verify(`$argon2id$v=19$m=19456,p=1,t=2$${salt}$${digest}`, 'correct horse')).resolves.toBe(true);
    expect(standardParameterOrder('$argon2id$v=19$m=65536,p=4,t=3$c2FsdA$aGFzaA')).toBe('$argon2id$v=19$m=65536,t=3,p=4$c2FsdA$aGFzaA');
  });
});
