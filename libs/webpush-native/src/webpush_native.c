/*
 * RFC 8291 Web Push message encryption (the aes128gcm content coding of RFC 8188), the whole of it per message in
 * one call: encrypt(). It is the dispatcher's largest CPU cost per push, and doing it in JS cost, besides the elliptic
 * curve work, one JS->C++ crossing and a few Buffer allocations for each of the five HMACs and for the AES-GCM
 * cipher (node:crypto builds a new HMAC and cipher context, and fetches its algorithm, every time). Here the HMAC and
 * AES-GCM contexts and their algorithms are fetched once per Node environment and only re-keyed per message, the
 * intermediate keys live on the stack (cleared after use), and the body is written straight into the caller's buffer.
 *
 * The key agreement costs what the protocol needs: a fresh P-256 key pair (one fixed-base multiplication, OpenSSL's
 * precomputed generator table) and the shared secret (one variable-base multiplication with the recipient's key,
 * checked to be on the curve). Node's ECDH.computeSecret also re-validates the freshly generated key pair on every
 * call (a third multiplication); this does not, because it made that pair itself. agree() exposes the key agreement
 * alone, for the JS path and for specs that compare the two.
 *
 * Links against the OpenSSL inside the Node binary (its symbols are exported), so there is no second OpenSSL. The
 * per-environment state (napi_set_instance_data) keeps worker threads, should one ever load the addon, from sharing
 * the mutable contexts; within one environment calls are synchronous on its thread.
 */
#include <node_api.h>
#include <openssl/bn.h>
#include <openssl/core_names.h>
#include <openssl/crypto.h>
#include <openssl/ec.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/obj_mac.h>
#include <openssl/params.h>
#include <stdint.h>
#include <string.h>

typedef struct {
  EC_GROUP *group;
  const BIGNUM *order;
  EVP_MAC *hmac_alg;
  EVP_MAC_CTX *hmac; /* HMAC-SHA256: its digest is set once, then each HMAC only re-keys it */
  EVP_CIPHER *gcm_alg;
  EVP_CIPHER_CTX *gcm; /* AES-128-GCM: initialised once with the cipher, then each message only sets key and nonce */
} state_t;

/* The info strings include their NUL separators and, for the single-block HKDF-Expand, the 0x01 counter. */
static const unsigned char KEY_INFO[] = "WebPush: info\0";                 /* RFC 8291 3.4, then ua || as || 0x01 */
static const unsigned char CEK_INFO[] = "Content-Encoding: aes128gcm\0\1"; /* RFC 8188 2.2 */
static const unsigned char NONCE_INFO[] = "Content-Encoding: nonce\0\1";   /* RFC 8188 2.3 */
static const unsigned char ONE = 1;
static const unsigned char ZEROS[32] = {0};
#define KEY_INFO_LEN (sizeof KEY_INFO - 1)
#define CEK_INFO_LEN (sizeof CEK_INFO - 1)
#define NONCE_INFO_LEN (sizeof NONCE_INFO - 1)
/* salt (16) || record size (4) || key id length (1) || key id = the sender's public key (65) */
#define HEADER_LEN 86
#define TAG_LEN 16

static napi_value throw_error(napi_env env, const char *message) {
  /* OpenSSL's error queue is per thread and shared with node:crypto: leave nothing in it for Node to misreport. */
  ERR_clear_error();
  napi_throw_error(env, "ERR_WEBPUSH_NATIVE", message);
  return NULL;
}

static void free_state(napi_env env, void *data, void *hint) {
  (void)env;
  (void)hint;
  state_t *s = data;
  EVP_CIPHER_CTX_free(s->gcm);
  EVP_CIPHER_free(s->gcm_alg);
  EVP_MAC_CTX_free(s->hmac);
  EVP_MAC_free(s->hmac_alg);
  EC_GROUP_free(s->group);
  OPENSSL_free(s);
}

static state_t *new_state(void) {
  state_t *s = OPENSSL_zalloc(sizeof *s);
  if (!s) return NULL;
  s->group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
  s->hmac_alg = EVP_MAC_fetch(NULL, "HMAC", NULL);
  s->hmac = s->hmac_alg ? EVP_MAC_CTX_new(s->hmac_alg) : NULL;
  s->gcm_alg = EVP_CIPHER_fetch(NULL, "AES-128-GCM", NULL);
  s->gcm = EVP_CIPHER_CTX_new();
  OSSL_PARAM params[] = {OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_DIGEST, "SHA256", 0), OSSL_PARAM_construct_end()};
  if (!s->group || !s->hmac || !s->gcm_alg || !s->gcm || !EVP_MAC_CTX_set_params(s->hmac, params) ||
      !EVP_EncryptInit_ex(s->gcm, s->gcm_alg, NULL, NULL, NULL) || EVP_CIPHER_CTX_get_iv_length(s->gcm) != 12) {
    free_state(NULL, s, NULL);
    ERR_clear_error();
    return NULL;
  }
  s->order = EC_GROUP_get0_order(s->group);
  return s;
}

static state_t *get_state(napi_env env) {
  void *data = NULL;
  if (napi_get_instance_data(env, &data) != napi_ok || !data) {
    throw_error(env, "the addon's OpenSSL state is missing");
    return NULL;
  }
  return data;
}

/*
 * A fresh key pair and its ECDH secret with `peer` (a 65-byte uncompressed point): our public key into as_public (65
 * bytes), the shared x coordinate into secret (32 bytes). NULL when done, else why not.
 */
static const char *key_agreement(const state_t *s, const unsigned char *peer_data, size_t peer_len, unsigned char *as_public, unsigned char *secret) {
  if (peer_len != 65 || peer_data[0] != 0x04) return "the peer public key must be a 65-byte uncompressed P-256 point";
  const char *failure = NULL;
  BN_CTX *ctx = BN_CTX_new();
  EC_POINT *peer = EC_POINT_new(s->group), *mine = EC_POINT_new(s->group), *shared = EC_POINT_new(s->group);
  BIGNUM *priv = BN_secure_new(), *x = BN_new();
  if (!ctx || !peer || !mine || !shared || !priv || !x) failure = "out of memory";
  /* oct2point refuses a point not on the curve; the point at infinity cannot be given in 65 bytes. */
  else if (!EC_POINT_oct2point(s->group, peer, peer_data, peer_len, ctx) || !EC_POINT_is_on_curve(s->group, peer, ctx))
    failure = "the peer public key is not a point on P-256";
  else {
    do {
      if (!BN_priv_rand_range(priv, s->order)) failure = "no randomness";
    } while (!failure && BN_is_zero(priv));
    if (!failure && !EC_POINT_mul(s->group, mine, priv, NULL, NULL, ctx)) failure = "key generation failed";
    if (!failure && !EC_POINT_mul(s->group, shared, NULL, peer, priv, ctx)) failure = "key agreement failed";
    if (!failure && EC_POINT_is_at_infinity(s->group, shared)) failure = "key agreement gave the point at infinity";
    if (!failure && EC_POINT_point2oct(s->group, mine, POINT_CONVERSION_UNCOMPRESSED, as_public, 65, ctx) != 65) failure = "encoding failed";
    if (!failure && (!EC_POINT_get_affine_coordinates(s->group, shared, x, NULL, ctx) || BN_bn2binpad(x, secret, 32) != 32))
      failure = "encoding failed";
  }
  BN_clear_free(priv);
  BN_clear_free(x);
  EC_POINT_free(peer);
  EC_POINT_clear_free(mine);
  EC_POINT_clear_free(shared);
  BN_CTX_free(ctx);
  return failure;
}

/* HMAC-SHA256(key, a || b || c || d) into out (32 bytes); the parts save concatenating key_info. */
static int hmac(state_t *s, const unsigned char *key, size_t key_len, const unsigned char *a, size_t a_len, const unsigned char *b, size_t b_len,
                const unsigned char *c, size_t c_len, const unsigned char *d, size_t d_len, unsigned char *out) {
  size_t n = 0;
  return EVP_MAC_init(s->hmac, key, key_len, NULL) && EVP_MAC_update(s->hmac, a, a_len) && (!b_len || EVP_MAC_update(s->hmac, b, b_len)) &&
         (!c_len || EVP_MAC_update(s->hmac, c, c_len)) && (!d_len || EVP_MAC_update(s->hmac, d, d_len)) && EVP_MAC_final(s->hmac, out, &n, 32) &&
         n == 32;
}

static int overlaps(const unsigned char *a, size_t a_len, const unsigned char *b, size_t b_len) {
  return a_len && b_len && (uintptr_t)a < (uintptr_t)b + b_len && (uintptr_t)b < (uintptr_t)a + a_len;
}

static int get_bytes(napi_env env, napi_value value, unsigned char **data, size_t *len) {
  napi_typedarray_type type;
  napi_value ab;
  size_t offset;
  void *p = NULL;
  if (napi_get_typedarray_info(env, value, &type, len, &p, &ab, &offset) != napi_ok || type != napi_uint8_array) return 0;
  *data = p;
  return 1;
}

/* agree(peerPublic: 65-byte uncompressed point, out: 97 bytes) -> undefined; out = our public key || shared x. */
static napi_value agree(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) return throw_error(env, "agree(peerPublic, out) takes two buffers");
  unsigned char *peer, *out;
  size_t peer_len, out_len;
  if (!get_bytes(env, argv[0], &peer, &peer_len)) return throw_error(env, "peerPublic must be a Uint8Array");
  if (!get_bytes(env, argv[1], &out, &out_len)) return throw_error(env, "out must be a Uint8Array");
  if (out_len < 97) return throw_error(env, "out must hold 97 bytes");
  state_t *s = get_state(env);
  if (!s) return NULL;
  const char *failure = key_agreement(s, peer, peer_len, out, out + 65);
  if (failure) return throw_error(env, failure);
  return NULL;
}

/*
 * encrypt(uaPublic: 65 bytes, authSecret: 16, salt: 16, plaintext, recordSize, out: 86 + plaintext + 17 bytes)
 * -> undefined. out receives the aes128gcm body: the header (salt, record size, key id = a fresh sender public key),
 * then one record, plaintext || 0x02 (the last-record delimiter, no padding), encrypted, then the tag. The caller
 * allocates out: Buffer.allocUnsafe takes a body of a few KiB from Node's preallocated pool, where a buffer made here
 * would be a fresh malloc'd backing store per message.
 */
static napi_value encrypt(napi_env env, napi_callback_info info) {
  size_t argc = 6;
  napi_value argv[6];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 6)
    return throw_error(env, "encrypt(uaPublic, authSecret, salt, plaintext, recordSize, out) takes six arguments");
  unsigned char *ua, *auth, *salt, *plain, *out;
  size_t ua_len, auth_len, salt_len, plain_len, out_len;
  double rs;
  if (!get_bytes(env, argv[0], &ua, &ua_len)) return throw_error(env, "uaPublic must be a Uint8Array");
  if (!get_bytes(env, argv[1], &auth, &auth_len) || auth_len != 16) return throw_error(env, "authSecret must be a 16-byte Uint8Array");
  if (!get_bytes(env, argv[2], &salt, &salt_len) || salt_len != 16) return throw_error(env, "salt must be a 16-byte Uint8Array");
  if (!get_bytes(env, argv[3], &plain, &plain_len)) return throw_error(env, "plaintext must be a Uint8Array");
  if (napi_get_value_double(env, argv[4], &rs) != napi_ok || !(rs >= 0 && rs <= 4294967295.0) || rs != (double)(unsigned long long)rs)
    return throw_error(env, "recordSize must be an integer from 0 to 2^32 - 1");
  /* EVP_EncryptUpdate takes an int length. */
  if (plain_len > 0x7fff0000) return throw_error(env, "plaintext is too large");
  /* RFC 8188: one record holds the plaintext, its delimiter and the tag. */
  if ((double)plain_len + 1 + TAG_LEN > rs) return throw_error(env, "record size does not fit the payload");
  if (!get_bytes(env, argv[5], &out, &out_len) || out_len != HEADER_LEN + plain_len + 1 + TAG_LEN)
    return throw_error(env, "out must be a Uint8Array of 86 + plaintext length + 17 bytes");
  /* The inputs are still read after out is written to, so they must not share its memory. */
  if (overlaps(out, out_len, ua, ua_len) || overlaps(out, out_len, auth, 16) || overlaps(out, out_len, salt, 16) ||
      overlaps(out, out_len, plain, plain_len))
    return throw_error(env, "out must not overlap the inputs");
  state_t *s = get_state(env);
  if (!s) return NULL;

  unsigned char *as_public = out + 21, *record = out + HEADER_LEN;
  unsigned char secret[32], prk_key[32], ikm[32], prk[32], cek[32], nonce[32];
  const char *failure = key_agreement(s, ua, ua_len, as_public, secret);
  if (!failure) {
    if (plain_len) memcpy(record, plain, plain_len);
    record[plain_len] = 0x02;
    memcpy(out, salt, 16);
    unsigned long long size = (unsigned long long)rs;
    out[16] = (unsigned char)(size >> 24);
    out[17] = (unsigned char)(size >> 16);
    out[18] = (unsigned char)(size >> 8);
    out[19] = (unsigned char)size;
    out[20] = 65;
    int len = 0, final_len = 0;
    /* RFC 8291 3.4: the IKM from the ECDH secret and the auth secret, bound to both public keys. */
    if (!hmac(s, auth, 16, secret, 32, NULL, 0, NULL, 0, NULL, 0, prk_key) ||
        !hmac(s, prk_key, 32, KEY_INFO, KEY_INFO_LEN, ua, 65, as_public, 65, &ONE, 1, ikm) ||
        /* RFC 8188 2.2 and 2.3: the content-encryption key and nonce from the IKM and the salt. */
        !hmac(s, out, 16, ikm, 32, NULL, 0, NULL, 0, NULL, 0, prk) ||
        !hmac(s, prk, 32, CEK_INFO, CEK_INFO_LEN, NULL, 0, NULL, 0, NULL, 0, cek) ||
        !hmac(s, prk, 32, NONCE_INFO, NONCE_INFO_LEN, NULL, 0, NULL, 0, NULL, 0, nonce))
      failure = "HMAC-SHA256 failed";
    /* In place: one pass over plaintext || 0x02, no second buffer. */
    else if (!EVP_EncryptInit_ex(s->gcm, NULL, NULL, cek, nonce) || !EVP_EncryptUpdate(s->gcm, record, &len, record, (int)plain_len + 1) ||
             !EVP_EncryptFinal_ex(s->gcm, record + len, &final_len) || (size_t)(len + final_len) != plain_len + 1 ||
             EVP_CIPHER_CTX_ctrl(s->gcm, EVP_CTRL_GCM_GET_TAG, TAG_LEN, record + plain_len + 1) != 1)
      failure = "AES-128-GCM failed";
    /* Leave neither this message's HMAC key (the HMAC keeps a copy) nor its AES key schedule in the shared contexts. */
    if ((!EVP_MAC_init(s->hmac, ZEROS, 32, NULL) || !EVP_EncryptInit_ex(s->gcm, NULL, NULL, ZEROS, NULL)) && !failure)
      failure = "clearing the contexts failed";
  }
  OPENSSL_cleanse(secret, sizeof secret);
  OPENSSL_cleanse(prk_key, sizeof prk_key);
  OPENSSL_cleanse(ikm, sizeof ikm);
  OPENSSL_cleanse(prk, sizeof prk);
  OPENSSL_cleanse(cek, sizeof cek);
  OPENSSL_cleanse(nonce, sizeof nonce);
  if (failure) {
    /* No half-written body: it would hold the plaintext in the clear. */
    OPENSSL_cleanse(out, out_len);
    return throw_error(env, failure);
  }
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  /* Loaded again in the same environment (a test runner's fresh module registry): setting new instance data would
   * drop the old without its finaliser, so the old is kept. */
  void *existing = NULL;
  if (napi_get_instance_data(env, &existing) != napi_ok || !existing) {
    state_t *s = new_state();
    if (!s) return throw_error(env, "P-256, HMAC-SHA256 or AES-128-GCM is not available in this OpenSSL");
    if (napi_set_instance_data(env, s, free_state, NULL) != napi_ok) {
      free_state(env, s, NULL);
      return throw_error(env, "could not keep the addon's state");
    }
  }
  napi_value fn;
  napi_create_function(env, "agree", NAPI_AUTO_LENGTH, agree, NULL, &fn);
  napi_set_named_property(env, exports, "agree", fn);
  napi_create_function(env, "encrypt", NAPI_AUTO_LENGTH, encrypt, NULL, &fn);
  napi_set_named_property(env, exports, "encrypt", fn);
  return exports;
}

NAPI_MODULE_INIT() { return init(env, exports); }
