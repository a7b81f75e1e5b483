#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

/* OpenSSL 3's libcrypto (Debian: libssl3; headers libssl-dev), plus typed inline wrappers for what Swift
 * cannot import (function-like macros, variadic functions, OSSL_PARAM construction), for a process that
 * does not link it: libcrypto.so.3 is loaded (dlopen) on the first call that needs it, so a command that
 * computes nothing (--version, readers, serve while idle) never maps it (README, "Memory").
 * CryptoLibrary.c defines each libcrypto function eid calls under its own name (CryptoFunctions.h lists
 * them), forwarding to the loaded library; eid_crypto_load says whether that worked and why not. */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>
#include <string.h>

/* Loads libcrypto.so.3 once (later calls return the first answer): NULL when it is there with every
 * function eid calls, else a sentence that says what is missing and what to install. */
const char *eid_crypto_load(void);

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

/* X.509 and CMS SignedData (Sources/EIDCrypto/X509Certificate.swift, CMSSignedData.swift): passive
 * authentication of EF.CardSecurity and, for the software card, a test CSCA and document signer. */
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/cms.h>
#include <openssl/objects.h>
/* PEM files of a key and certificate (Sources/EIDCrypto/X509Certificate+SelfSigned.swift). */
#include <openssl/pem.h>

/* A fresh EC key pair on the named curve `group` (e.g. "brainpoolP256r1"). NULL on failure. */
static inline EVP_PKEY *eid_ec_pkey_generate(const char *group) {
    return EVP_PKEY_Q_keygen(NULL, NULL, "EC", group);
}

/* A certificate for `subject_key` with subject C=`country`, CN=`common_name`, issued by
 * `issuer` (NULL: self-signed) with `issuer_key`, valid for `days` days from `not_before`
 * (seconds since the epoch), signed with SHA-256. `is_ca` adds basicConstraints CA:TRUE and
 * keyUsage keyCertSign, cRLSign; otherwise keyUsage digitalSignature. NULL on failure. */
static inline X509 *eid_x509_issue(EVP_PKEY *subject_key, const char *country, const char *common_name,
                                   X509 *issuer, EVP_PKEY *issuer_key, long serial, long long not_before,
                                   int days, int is_ca) {
    X509 *cert = X509_new();
    X509_NAME *name = NULL;
    X509_EXTENSION *ext = NULL;
    X509V3_CTX v3;
    time_t start = (time_t)not_before;
    int ok = cert != NULL && X509_set_version(cert, X509_VERSION_3)
        && ASN1_INTEGER_set(X509_get_serialNumber(cert), serial)
        && X509_time_adj_ex(X509_getm_notBefore(cert), 0, 0, &start) != NULL
        && X509_time_adj_ex(X509_getm_notAfter(cert), days, 0, &start) != NULL
        && X509_set_pubkey(cert, subject_key)
        && (name = X509_NAME_new()) != NULL
        && X509_NAME_add_entry_by_txt(name, "C", MBSTRING_ASC, (const unsigned char *)country, -1, -1, 0)
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0)
        && X509_set_subject_name(cert, name)
        && X509_set_issuer_name(cert, issuer != NULL ? X509_get_subject_name(issuer) : name);
    if (ok) {
        X509V3_set_ctx(&v3, issuer != NULL ? issuer : cert, cert, NULL, NULL, 0);
        const char *usage = is_ca ? "critical,keyCertSign,cRLSign" : "critical,digitalSignature";
        ok = (ext = X509V3_EXT_conf_nid(NULL, &v3, NID_key_usage, usage)) != NULL && X509_add_ext(cert, ext, -1);
        X509_EXTENSION_free(ext);
        if (ok && is_ca) {
            ok = (ext = X509V3_EXT_conf_nid(NULL, &v3, NID_basic_constraints, "critical,CA:TRUE,pathlen:0")) != NULL
                && X509_add_ext(cert, ext, -1);
            X509_EXTENSION_free(ext);
        }
        ok = ok && (ext = X509V3_EXT_conf_nid(NULL, &v3, NID_subject_key_identifier, "hash")) != NULL
            && X509_add_ext(cert, ext, -1);
        X509_EXTENSION_free(ext);
        ok = ok && X509_sign(cert, issuer_key, EVP_sha256()) > 0;
    }
    X509_NAME_free(name);
    if (!ok) { X509_free(cert); return NULL; }
    return cert;
}

/* DER of a certificate / of a private key (PKCS#8) in a buffer the caller frees with
 * OPENSSL_free (wiping the key first). Returns the length, or 0 on failure. */
static inline size_t eid_x509_to_der(X509 *cert, unsigned char **out) {
    *out = NULL;
    int n = i2d_X509(cert, out);
    return n > 0 ? (size_t)n : 0;
}
static inline X509 *eid_x509_from_der(const unsigned char *der, size_t len) {
    const unsigned char *p = der;
    X509 *cert = d2i_X509(NULL, &p, (long)len);
    if (cert != NULL && p != der + len) { X509_free(cert); return NULL; }
    return cert;
}
static inline size_t eid_pkey_to_pkcs8(EVP_PKEY *key, unsigned char **out) {
    *out = NULL;
    PKCS8_PRIV_KEY_INFO *info = EVP_PKEY2PKCS8(key);
    if (info == NULL) return 0;
    int n = i2d_PKCS8_PRIV_KEY_INFO(info, out);
    PKCS8_PRIV_KEY_INFO_free(info);
    return n > 0 ? (size_t)n : 0;
}
static inline EVP_PKEY *eid_pkey_from_pkcs8(const unsigned char *der, size_t len) {
    const unsigned char *p = der;
    return d2i_AutoPrivateKey(NULL, &p, (long)len);
}

/* CMS SignedData over `content` with eContentType `content_type` (dotted OID), one signer
 * (`signer`, `key`) with its certificate included, SHA-256, DER out (OPENSSL_free). 0 on failure. */
static inline size_t eid_cms_sign(const unsigned char *content, size_t len, const char *content_type,
                                  X509 *signer, EVP_PKEY *key, unsigned char **out) {
    *out = NULL;
    size_t result = 0;
    BIO *in = BIO_new_mem_buf(content, (int)len);
    CMS_ContentInfo *cms = NULL;
    ASN1_OBJECT *type = OBJ_txt2obj(content_type, 1);
    int flags = CMS_BINARY | CMS_PARTIAL | CMS_NOSMIMECAP;
    if (in != NULL && type != NULL && (cms = CMS_sign(NULL, NULL, NULL, NULL, flags)) != NULL
        && CMS_set1_eContentType(cms, type)
        && CMS_add1_signer(cms, signer, key, EVP_sha256(), flags) != NULL
        && CMS_final(cms, in, NULL, flags)) {
        int n = i2d_CMS_ContentInfo(cms, out);
        result = n > 0 ? (size_t)n : 0;
    }
    CMS_ContentInfo_free(cms);
    ASN1_OBJECT_free(type);
    BIO_free(in);
    return result;
}

/* Verifies CMS SignedData `der`: the signature of each signer, and (unless `anchor` is NULL) the
 * signer certificate's path to `anchor` at time `at` (seconds since the epoch; 0: now).
 * Returns the encapsulated content (OPENSSL_free) and its length in *content_len, and the
 * eContentType as a dotted OID in `type_out` (`type_len` bytes); NULL when anything fails. */
static inline unsigned char *eid_cms_verify(const unsigned char *der, size_t len, X509 *anchor, long long at,
                                            char *type_out, int type_len, size_t *content_len) {
    const unsigned char *p = der;
    CMS_ContentInfo *cms = d2i_CMS_ContentInfo(NULL, &p, (long)len);
    X509_STORE *store = X509_STORE_new();
    BIO *out = BIO_new(BIO_s_mem());
    unsigned char *content = NULL;
    *content_len = 0;
    int flags = CMS_BINARY | (anchor == NULL ? CMS_NO_SIGNER_CERT_VERIFY : 0);
    if (cms != NULL && p == der + len && store != NULL && out != NULL
        && (anchor == NULL || X509_STORE_add_cert(store, anchor))
        && OBJ_cmp(CMS_get0_type(cms), OBJ_nid2obj(NID_pkcs7_signed)) == 0) {
        if (at != 0) {
            X509_VERIFY_PARAM *param = X509_STORE_get0_param(store);
            X509_VERIFY_PARAM_set_time(param, (time_t)at);
        }
        X509_STORE_set_purpose(store, X509_PURPOSE_ANY);
        if (CMS_verify(cms, NULL, store, NULL, out, flags) == 1
            && OBJ_obj2txt(type_out, type_len, CMS_get0_eContentType(cms), 1) > 0) {
            char *data = NULL;
            long n = BIO_get_mem_data(out, &data);
            if (n >= 0 && (content = OPENSSL_malloc(n > 0 ? (size_t)n : 1)) != NULL) {
                memcpy(content, data, (size_t)n);
                *content_len = (size_t)n;
            }
        }
    }
    BIO_free(out);
    X509_STORE_free(store);
    CMS_ContentInfo_free(cms);
    return content;
}

#endif
