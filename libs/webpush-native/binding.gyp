{
  "targets": [
    {
      "target_name": "webpush_native",
      "sources": ["src/webpush_native.c"],
      "cflags": ["-O2", "-Wall", "-Wno-deprecated-declarations"],
      "defines": ["NAPI_VERSION=8", "OPENSSL_API_COMPAT=0x10100000L"]
    }
  ]
}
