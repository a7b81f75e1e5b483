#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

/* OpenSSL 3 (Debian: libssl-dev), plus typed inline wrappers for what Swift cannot import
 * (function-like macros, variadic functions, OSSL_PARAM construction). */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

/* Initialises a CMAC context (EVP_MAC "CMAC") for `cipher` (e.g. "AES-128-CBC") and `key`.
 * The OSSL_PARAM array only lives for this call, which is all EVP_MAC_init needs.
 * Returns 1 on success, 0 on failure. */
static inline int eid_cmac_init(EVP_MAC_CTX *ctx, const char *cipher,
                                const unsigned char *key, size_t key_len) {
    OSSL_PARAM params[2];
    params[0] = OSSL_PARAM_construct_utf8_string(OSSL_MAC_PARAM_CIPHER, (char *)cipher, 0);
    params[1] = OSSL_PARAM_construct_end();
    return EVP_MAC_init(ctx, key, key_len, params);
}

#endif
