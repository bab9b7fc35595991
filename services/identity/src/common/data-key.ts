import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';

/**
 * Encryption at rest for the few secrets the identity service must be able to read back (TOTP secrets,
 * generated signing keys), under IDENTITY_DATA_KEY. Values are stored as `enc:v1:<iv>.<tag>.<ciphertext>`
 * (base64url, AES-256-GCM) with the row they belong to as additional authenticated data, so a ciphertext
 * copied into another row does not decrypt. Values written before the key was set are plaintext and read
 * as is until the start-up pass encrypts them.
 */

/** 32 bytes in standard base64: 43 characters and an optional `=`. */
export const DATA_KEY_PATTERN = /^[A-Za-z0-9+/]{43}=?$/;
export const DATA_KEY_HINT = 'IDENTITY_DATA_KEY must be 32 random bytes in base64 (44 characters, e.g. from `openssl rand -base64 32`)';

const PREFIX = 'enc:';
const V1 = 'enc:v1:';
const ALGORITHM = 'aes-256-gcm';
const IV_BYTES = 12;
const TAG_BYTES = 16;

/** A stored value that cannot be read with the configured key. The message is one line meant for operators. */
export class DataKeyError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'DataKeyError';
  }
}

/** The value a row stores, bound to that row, e.g. `mfa_factors:<factor id>`. */
export const rowLabel = (table: 'mfa_factors' | 'signing_keys', id: string) => `${table}:${id}`;

export class DataKey {
  private constructor(private readonly key: Buffer | null) {}

  /** From the variable's value; unset means values are stored (and only readable) as plaintext. */
  static fromBase64(value: string | undefined): DataKey {
    if (!value) return new DataKey(null);
    const key = DATA_KEY_PATTERN.test(value) ? Buffer.from(value, 'base64') : Buffer.alloc(0);
    if (key.length !== 32) throw new DataKeyError(DATA_KEY_HINT);
    return new DataKey(key);
  }

  get configured(): boolean {
    return this.key !== null;
  }

  static isEncrypted(stored: string): boolean {
    return stored.startsWith(PREFIX);
  }

  /** What to store for `plaintext` in the row `label`: encrypted when a key is configured, else as is. */
  seal(plaintext: string, label: string): string {
    if (!this.key) return plaintext;
    const iv = randomBytes(IV_BYTES);
    const cipher = createCipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
    cipher.setAAD(Buffer.from(label, 'utf8'));
    const body = Buffer.concat([cipher.update(plaintext, 'utf8'), cipher.final()]);
    return `${V1}${[iv, cipher.getAuthTag(), body].map((b) => b.toString('base64url')).join('.')}`;
  }

  /** The plaintext of a stored value: legacy plaintext passes through; ciphertext must decrypt for this row. */
  open(stored: string, label: string): string {
    if (!DataKey.isEncrypted(stored)) return stored;
    if (!stored.startsWith(V1)) {
      throw new DataKeyError(
        `${label} is encrypted in a format this version does not read (${stored.split(':', 2).join(':')}); it reads enc:v1 under IDENTITY_DATA_KEY`,
      );
    }
    if (!this.key) throw new DataKeyError(`${label} is encrypted, but IDENTITY_DATA_KEY is not set: set it to the key the data was encrypted with`);
    const parts = stored.slice(V1.length).split('.');
    const [iv, tag, body] = parts.map((p) => Buffer.from(p, 'base64url'));
    const cannot = () =>
      new DataKeyError(
        `IDENTITY_DATA_KEY does not decrypt ${label}: it is not the key the value was encrypted with, or the stored value was altered or copied from another row`,
      );
    if (parts.length !== 3 || iv.length !== IV_BYTES || tag.length !== TAG_BYTES) throw cannot();
    try {
      const decipher = createDecipheriv(ALGORITHM, this.key, iv, { authTagLength: TAG_BYTES });
      decipher.setAAD(Buffer.from(label, 'utf8'));
      decipher.setAuthTag(tag);
      return Buffer.concat([decipher.update(body), decipher.final()]).toString('utf8');
    } catch {
      throw cannot();
    }
  }
}
