/**
 * RFC 8291 Web Push message encryption over Node's own OpenSSL (see src/webpush_native.c). The whole per-message
 * encryption is one call because in JS each of its five HMACs and its AES-GCM cost a JS->C++ crossing, a new
 * OpenSSL context and a few Buffer allocations; here the contexts are made once and only re-keyed per message.
 */
export interface WebPushNative {
  /**
   * A fresh P-256 key pair and its ECDH agreement with `peerPublic` (65-byte uncompressed point, checked to be on the
   * curve): `out` receives the 65-byte public key then the 32-byte shared secret (97 bytes). Throws on a bad point.
   */
  agree(peerPublic: Uint8Array, out: Uint8Array): void;
  /**
   * The whole RFC 8291 encryption of one message: a fresh key pair and its ECDH secret with `uaPublic` (65-byte
   * uncompressed point, checked to be on the curve), the IKM from `authSecret` (16 bytes), the content-encryption key
   * and nonce from `salt` (16 bytes), and AES-128-GCM of `plaintext` || 0x02. `out` (exactly 86 + plaintext.length +
   * 17 bytes, not overlapping the inputs) receives the aes128gcm body: salt, `recordSize` (uint32 BE), key id length
   * 65, the sender's public key, the ciphertext and the 16-byte tag. The caller allocates `out` so that a body of a
   * few KiB comes from Node's Buffer pool. Throws (and zeroes `out`) on a bad point or bad sizes, including
   * `recordSize` < plaintext.length + 17.
   */
  encrypt(uaPublic: Uint8Array, authSecret: Uint8Array, salt: Uint8Array, plaintext: Uint8Array, recordSize: number, out: Uint8Array): void;
}

export const addon: WebPushNative | null;
/** Why the addon did not load (null when it did). */
export const loadError: string | null;
