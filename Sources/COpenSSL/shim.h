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

/* ECDSA (Sources/EIDCrypto/ECDSA.swift). Below: an EVP_PKEY for a named curve from its public point
 * and, for signing, the private scalar (OSSL_PARAM_BLD); and the conversion between the DER
 * ECDSA-Sig-Value OpenSSL speaks and the plain r || s format of BSI TR-03111. */
#include <openssl/param_build.h>

/* An EC key on the named curve `group` (e.g. "brainpoolP256r1") with public point `pub`
 * (uncompressed), and private scalar `priv` when it is not NULL. NULL on failure. */
static inline EVP_PKEY *eid_ec_pkey_new(const char *group, const unsigned char *pub, size_t pub_len,
                                        const BIGNUM *priv) {
    EVP_PKEY *pkey = NULL;
    OSSL_PARAM_BLD *bld = OSSL_PARAM_BLD_new();
    OSSL_PARAM *params = NULL;
    EVP_PKEY_CTX *ctx = NULL;
    if (bld == NULL
        || !OSSL_PARAM_BLD_push_utf8_string(bld, OSSL_PKEY_PARAM_GROUP_NAME, group, 0)
        || !OSSL_PARAM_BLD_push_octet_string(bld, OSSL_PKEY_PARAM_PUB_KEY, pub, pub_len)
        || (priv != NULL && !OSSL_PARAM_BLD_push_BN(bld, OSSL_PKEY_PARAM_PRIV_KEY, priv))
        || (params = OSSL_PARAM_BLD_to_param(bld)) == NULL
        || (ctx = EVP_PKEY_CTX_new_from_name(NULL, "EC", NULL)) == NULL
        || EVP_PKEY_fromdata_init(ctx) != 1
        || EVP_PKEY_fromdata(ctx, &pkey, priv != NULL ? EVP_PKEY_KEYPAIR : EVP_PKEY_PUBLIC_KEY, params) != 1) {
        pkey = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    if (params != NULL) {
        /* The key has its own copy; wipe the builder's copy of the private scalar. */
        OSSL_PARAM *secret = OSSL_PARAM_locate(params, OSSL_PKEY_PARAM_PRIV_KEY);
        if (secret != NULL) OPENSSL_cleanse(secret->data, secret->data_size);
    }
    OSSL_PARAM_free(params);
    OSSL_PARAM_BLD_free(bld);
    return pkey;
}

/* DER ECDSA-Sig-Value -> r || s, each `half` bytes. Returns 1, or 0 when the DER is malformed or
 * r or s does not fit. */
static inline int eid_ecdsa_der_to_plain(const unsigned char *der, size_t der_len, unsigned char *out, size_t half) {
    const unsigned char *p = der;
    ECDSA_SIG *sig = d2i_ECDSA_SIG(NULL, &p, (long)der_len);
    if (sig == NULL) return 0;
    const BIGNUM *r = NULL, *s = NULL;
    ECDSA_SIG_get0(sig, &r, &s);
    int ok = p == der + der_len && BN_bn2binpad(r, out, (int)half) == (int)half
        && BN_bn2binpad(s, out + half, (int)half) == (int)half;
    ECDSA_SIG_free(sig);
    return ok;
}

/* r || s (each `half` bytes) -> DER ECDSA-Sig-Value in a buffer the caller frees with
 * OPENSSL_free (`*der`). Returns the DER length, or 0 on failure. */
static inline size_t eid_ecdsa_plain_to_der(const unsigned char *plain, size_t half, unsigned char **der) {
    ECDSA_SIG *sig = ECDSA_SIG_new();
    BIGNUM *r = BN_bin2bn(plain, (int)half, NULL), *s = BN_bin2bn(plain + half, (int)half, NULL);
    if (sig == NULL || r == NULL || s == NULL || ECDSA_SIG_set0(sig, r, s) != 1) {
        BN_free(r);
        BN_free(s);
        ECDSA_SIG_free(sig);
        return 0;
    }
    *der = NULL;
    int n = i2d_ECDSA_SIG(sig, der);
    ECDSA_SIG_free(sig);
    return n > 0 ? (size_t)n : 0;
}

/* OPENSSL_free is a macro. */
static inline void eid_openssl_free(void *p) { OPENSSL_free(p); }

#endif
