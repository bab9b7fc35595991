/*
 * RFC 8291's key agreement for one Web Push message, at the cost the protocol needs: a fresh P-256 key pair (one
 * fixed-base multiplication, OpenSSL's precomputed generator table) and the shared secret (one variable-base
 * multiplication with the recipient's key, checked to be on the curve). Node's ECDH.computeSecret also re-validates the
 * freshly generated key pair on every call (a third multiplication); this does not, because it made that pair itself.
 * Links against the OpenSSL inside the Node binary (its symbols are exported), so there is no second OpenSSL.
 */
#include <node_api.h>
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/obj_mac.h>
#include <string.h>

static EC_GROUP *group = NULL;
static const BIGNUM *order = NULL;

static napi_value throw_error(napi_env env, const char *message) {
  napi_throw_error(env, "ERR_WEBPUSH_NATIVE", message);
  return NULL;
}

/* agree(peerPublic: 65-byte uncompressed point, out: 97 bytes) -> undefined; out = our public key || shared x. */
static napi_value agree(napi_env env, napi_callback_info info) {
  size_t argc = 2;
  napi_value argv[2];
  if (napi_get_cb_info(env, info, &argc, argv, NULL, NULL) != napi_ok || argc < 2) return throw_error(env, "agree(peerPublic, out) takes two buffers");
  void *peer_data, *out_data;
  size_t peer_len, out_len;
  napi_typedarray_type type;
  napi_value ab;
  size_t offset;
  if (napi_get_typedarray_info(env, argv[0], &type, &peer_len, &peer_data, &ab, &offset) != napi_ok || type != napi_uint8_array)
    return throw_error(env, "peerPublic must be a Uint8Array");
  if (napi_get_typedarray_info(env, argv[1], &type, &out_len, &out_data, &ab, &offset) != napi_ok || type != napi_uint8_array)
    return throw_error(env, "out must be a Uint8Array");
  if (peer_len != 65 || ((unsigned char *)peer_data)[0] != 0x04) return throw_error(env, "peerPublic must be a 65-byte uncompressed P-256 point");
  if (out_len < 97) return throw_error(env, "out must hold 97 bytes");

  const char *failure = NULL;
  BN_CTX *ctx = BN_CTX_new();
  EC_POINT *peer = EC_POINT_new(group), *mine = EC_POINT_new(group), *shared = EC_POINT_new(group);
  BIGNUM *priv = BN_secure_new(), *x = BN_new();
  if (!ctx || !peer || !mine || !shared || !priv || !x) failure = "out of memory";
  /* oct2point refuses a point not on the curve; the point at infinity cannot be given in 65 bytes. */
  else if (!EC_POINT_oct2point(group, peer, peer_data, peer_len, ctx) || !EC_POINT_is_on_curve(group, peer, ctx))
    failure = "peerPublic is not a point on P-256";
  else {
    do {
      if (!BN_priv_rand_range(priv, order)) failure = "no randomness";
    } while (!failure && BN_is_zero(priv));
    if (!failure && !EC_POINT_mul(group, mine, priv, NULL, NULL, ctx)) failure = "key generation failed";
    if (!failure && !EC_POINT_mul(group, shared, NULL, peer, priv, ctx)) failure = "key agreement failed";
    if (!failure && EC_POINT_is_at_infinity(group, shared)) failure = "key agreement gave the point at infinity";
    if (!failure && EC_POINT_point2oct(group, mine, POINT_CONVERSION_UNCOMPRESSED, out_data, 65, ctx) != 65) failure = "encoding failed";
    if (!failure && (!EC_POINT_get_affine_coordinates(group, shared, x, NULL, ctx) || BN_bn2binpad(x, (unsigned char *)out_data + 65, 32) != 32))
      failure = "encoding failed";
  }
  BN_clear_free(priv);
  BN_free(x);
  EC_POINT_free(peer);
  EC_POINT_clear_free(mine);
  EC_POINT_clear_free(shared);
  BN_CTX_free(ctx);
  if (failure) return throw_error(env, failure);
  return NULL;
}

static napi_value init(napi_env env, napi_value exports) {
  if (!group) {
    group = EC_GROUP_new_by_curve_name(NID_X9_62_prime256v1);
    if (!group) return throw_error(env, "P-256 is not available in this OpenSSL");
    order = EC_GROUP_get0_order(group);
  }
  napi_value fn;
  napi_create_function(env, "agree", NAPI_AUTO_LENGTH, agree, NULL, &fn);
  napi_set_named_property(env, exports, "agree", fn);
  return exports;
}

NAPI_MODULE_INIT() { return init(env, exports); }
