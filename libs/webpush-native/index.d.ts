/** The native ECDH for RFC 8291 (see src/webpush_native.c). */
export interface WebPushNative {
  /**
   * A fresh P-256 key pair and its ECDH agreement with `peerPublic` (65-byte uncompressed point, checked to be on the
   * curve): `out` receives the 65-byte public key then the 32-byte shared secret (97 bytes). Throws on a bad point.
   */
  agree(peerPublic: Uint8Array, out: Uint8Array): void;
}

export const addon: WebPushNative | null;
/** Why the addon did not load (null when it did). */
export const loadError: string | null;
