import { Injectable } from '@nestjs/common';
import * as argon2 from 'argon2';
import { AuthError, weakPasswordError } from '../common/gotrue-error';

export const PASSWORD_MIN_LENGTH = 8;
/** Long passphrases are welcome; the cap only keeps one request from costing unbounded hashing work. */
export const PASSWORD_MAX_LENGTH = 1024;

/** OWASP Password Storage Cheat Sheet: argon2id, m=19 MiB, t=2, p=1. */
const ARGON2_OPTIONS = { type: argon2.argon2id, memoryCost: 19456, timeCost: 2, parallelism: 1 } as const;

/**
 * The most common passwords of public breach corpora (all at least 8 characters, since shorter ones fail on
 * length anyway). A local list keeps the check offline; the hosted service calls this reason 'pwned'.
 */
const COMMON_PASSWORDS = new Set([
  'password',
  'password1',
  'password12',
  'password123',
  'password1234',
  'passw0rd',
  'p@ssw0rd',
  'p@ssword',
  '12345678',
  '123456789',
  '1234567890',
  '12345678910',
  '11111111',
  '00000000',
  '88888888',
  '87654321',
  '123123123',
  '1q2w3e4r',
  '1qaz2wsx',
  'qwertyui',
  'qwertyuiop',
  'qwerty123',
  'qwerty12',
  'qwerty1234',
  'asdfghjkl',
  'asdf1234',
  'zxcvbnm1',
  'iloveyou',
  'iloveyou1',
  'sunshine',
  'princess',
  'football',
  'baseball',
  'superman',
  'starwars',
  'whatever',
  'trustno1',
  'welcome1',
  'welcome123',
  'letmein1',
  'abcd1234',
  'abc12345',
  'abcdefgh',
  'computer',
  'michelle',
  'jennifer',
  'internet',
  'corvette',
  'mercedes',
  'maverick',
  'midnight',
  'changeme',
  'changeme123',
  'administrator',
  'admin123',
  'admin1234',
  'monkey123',
  'dragon123',
  'master123',
  'shadow123',
  'football1',
  'baseball1',
  'q1w2e3r4',
  'q1w2e3r4t5',
  'zaq12wsx',
  '!qaz2wsx',
  'aa123456',
  'a1234567',
  'a12345678',
  'pass1234',
  'test1234',
  'testtest',
  'qazwsxedc',
  'secret123',
  'summer2024',
  'winter2024',
  'spring2024',
  'autumn2024',
  'beacon123',
]);

export interface PasswordCheck {
  message: string;
  reasons: string[];
}

/** Strength rules of the hosted service: 'length' (minimum) and 'pwned' (a commonly used password). */
export function checkPasswordStrength(password: string): PasswordCheck | null {
  const reasons: string[] = [];
  const messages: string[] = [];
  if ([...password].length < PASSWORD_MIN_LENGTH) {
    reasons.push('length');
    messages.push(`Password should be at least ${PASSWORD_MIN_LENGTH} characters.`);
  }
  if (COMMON_PASSWORDS.has(password.toLowerCase())) {
    reasons.push('pwned');
    messages.push('Password is known to be weak and easy to guess, please choose a different one.');
  }
  return reasons.length ? { message: messages.join(' '), reasons } : null;
}

/** Throws the hosted service's errors for a password that may not be set. */
export function assertAcceptablePassword(password: string) {
  if (password.length > PASSWORD_MAX_LENGTH) {
    throw new AuthError(422, 'validation_failed', `Password cannot be longer than ${PASSWORD_MAX_LENGTH} characters`);
  }
  const weak = checkPasswordStrength(password);
  if (weak) throw weakPasswordError(weak.message, weak.reasons);
}

/**
 * The PHC string format puts argon2's parameters in the order m,t,p, and libargon2 and the hosted auth service (which
 * takes argon2 hashes of imported users) read only that order; argon2 0.45 writes m,p,t (ranisalt/node-argon2#559).
 * Hashes are stored in the standard order; argon2 itself verifies either.
 */
export const standardParameterOrder = (hash: string) => hash.replace(/^(\$argon2id\$v=\d+\$m=\d+),(p=\d+),(t=\d+)\$/, '$1,$3,$2$');

/** Also used by the seed and the admin tooling, outside Nest. */
export const hashPassword = async (password: string) => standardParameterOrder(await argon2.hash(password, ARGON2_OPTIONS));

@Injectable()
export class PasswordHasher {
  /** A real hash of a random password: verifying unknown accounts against it costs the same as real ones. */
  private readonly decoy = argon2.hash(`decoy-${Math.random()}`, ARGON2_OPTIONS);

  hash(password: string): Promise<string> {
    return hashPassword(password);
  }

  /** Compares in constant time; a null hash (no password set) still spends the same work, then fails. */
  async verify(hash: string | null, password: string): Promise<boolean> {
    if (password.length > PASSWORD_MAX_LENGTH) return false;
    try {
      if (!hash) {
        await argon2.verify(await this.decoy, password);
        return false;
      }
      return await argon2.verify(hash, password);
    } catch {
      return false;
    }
  }
}
