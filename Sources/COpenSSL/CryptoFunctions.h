#ifndef COPENSSL_CRYPTO_FUNCTIONS_H
#define COPENSSL_CRYPTO_FUNCTIONS_H

/* Every libcrypto function eid's targets call (EIDCrypto and the inline functions of include/shim.h,
 * TLS and CCurl), with its parameters, the arguments it passes on and the value it answers when
 * libcrypto could not be loaded: a failure in OpenSSL's own terms (NULL, 0, -1; "unequal" for the
 * comparisons). F: a function with a result, V: without. Made from the link (`nm -u` of eid, eid-sim,
 * eid-bench and eid-test-pki, intersected with libcrypto.so.3's exports): a function missing here is
 * an undefined symbol when eid links. EVP_PKEY_Q_keygen (variadic) and OPENSSL_cleanse are written
 * out in CryptoLibrary.c. */
#include "include/shim.h"

#include <openssl/x509_vfy.h>

#define EID_CRYPTO_FUNCTIONS(F, V)                                                                           \
    F(int, ASN1_INTEGER_set, (ASN1_INTEGER *a, long v), (a, v), 0)                                                   \
    V(ASN1_OBJECT_free, (ASN1_OBJECT *a), (a))                                                                       \
    F(int, ASN1_TIME_set_string_X509, (ASN1_TIME *s, const char *str), (s, str), 0)                                  \
    F(long, BIO_ctrl, (BIO *bp, int cmd, long larg, void *parg), (bp, cmd, larg, parg), 0)                           \
    F(size_t, BIO_ctrl_pending, (BIO *b), (b), 0)                                                                    \
    F(int, BIO_free, (BIO *a), (a), 0)                                                                               \
    F(BIO *, BIO_new, (const BIO_METHOD *type), (type), NULL)                                                        \
    F(BIO *, BIO_new_mem_buf, (const void *buf, int len), (buf, len), NULL)                                          \
    F(int, BIO_read, (BIO *b, void *data, int dlen), (b, data, dlen), -1)                                            \
    F(const BIO_METHOD *, BIO_s_mem, (void), (), NULL)                                                               \
    F(int, BIO_write, (BIO *b, const void *data, int dlen), (b, data, dlen), -1)                                     \
    V(BN_CTX_free, (BN_CTX *c), (c))                                                                                 \
    F(BN_CTX *, BN_CTX_new, (void), (), NULL)                                                                        \
    F(BIGNUM *, BN_bin2bn, (const unsigned char *s, int len, BIGNUM *ret), (s, len, ret), NULL)                      \
    F(int, BN_bn2bin, (const BIGNUM *a, unsigned char *to), (a, to), 0)                                              \
    F(int, BN_bn2binpad, (const BIGNUM *a, unsigned char *to, int tolen), (a, to, tolen), 0)                         \
    V(BN_clear_free, (BIGNUM *a), (a))                                                                               \
    F(int, BN_cmp, (const BIGNUM *a, const BIGNUM *b), (a, b), -2)                                                   \
    V(BN_free, (BIGNUM *a), (a))                                                                                     \
    F(int, BN_is_zero, (const BIGNUM *a), (a), 0)                                                                    \
    F(BIGNUM *, BN_new, (void), (), NULL)                                                                            \
    F(int, BN_nnmod, (BIGNUM *r, const BIGNUM *m, const BIGNUM *d, BN_CTX *ctx), (r, m, d, ctx), 0)                  \
    F(int, BN_num_bits, (const BIGNUM *a), (a), 0)                                                                   \
    F(int, BN_priv_rand_range, (BIGNUM *rnd, const BIGNUM *range), (rnd, range), 0)                                  \
    V(CMS_ContentInfo_free, (CMS_ContentInfo *a), (a))                                                               \
    F(CMS_SignerInfo *, CMS_add1_signer, (CMS_ContentInfo *cms, X509 *signer, EVP_PKEY *pk, const EVP_MD *md,        \
      unsigned int flags),                                                                                           \
      (cms, signer, pk, md, flags), NULL)                                                                            \
    F(int, CMS_final, (CMS_ContentInfo *cms, BIO *data, BIO *dcont, unsigned int flags),                             \
      (cms, data, dcont, flags), 0)                                                                                  \
    F(const ASN1_OBJECT *, CMS_get0_eContentType, (CMS_ContentInfo *cms), (cms), NULL)                               \
    F(const ASN1_OBJECT *, CMS_get0_type, (const CMS_ContentInfo *cms), (cms), NULL)                                 \
    F(int, CMS_set1_eContentType, (CMS_ContentInfo *cms, const ASN1_OBJECT *oid), (cms, oid), 0)                     \
    F(CMS_ContentInfo *, CMS_sign, (X509 *signcert, EVP_PKEY *pkey, struct stack_st_X509 *certs, BIO *data,          \
      unsigned int flags),                                                                                           \
      (signcert, pkey, certs, data, flags), NULL)                                                                    \
    F(int, CMS_verify, (CMS_ContentInfo *cms, struct stack_st_X509 *certs, X509_STORE *store, BIO *dcont,            \
      BIO *out, unsigned int flags),                                                                                 \
      (cms, certs, store, dcont, out, flags), 0)                                                                     \
    V(CRYPTO_free, (void *ptr, const char *file, int line), (ptr, file, line))                                       \
    F(int, CRYPTO_get_ex_new_index, (int class_index, long argl, void *argp, CRYPTO_EX_new *new_func,                \
      CRYPTO_EX_dup *dup_func, CRYPTO_EX_free *free_func),                                                           \
      (class_index, argl, argp, new_func, dup_func, free_func), -1)                                                  \
    F(void *, CRYPTO_malloc, (size_t num, const char *file, int line), (num, file, line), NULL)                      \
    F(int, CRYPTO_memcmp, (const void *in_a, const void *in_b, size_t len), (in_a, in_b, len), 1)                    \
    V(ECDSA_SIG_free, (ECDSA_SIG *sig), (sig))                                                                       \
    V(ECDSA_SIG_get0, (const ECDSA_SIG *sig, const BIGNUM **pr, const BIGNUM **ps), (sig, pr, ps))                   \
    F(ECDSA_SIG *, ECDSA_SIG_new, (void), (), NULL)                                                                  \
    F(int, ECDSA_SIG_set0, (ECDSA_SIG *sig, BIGNUM *r, BIGNUM *s), (sig, r, s), 0)                                   \
    V(EC_GROUP_free, (EC_GROUP *group), (group))                                                                     \
    F(const EC_POINT *, EC_GROUP_get0_generator, (const EC_GROUP *group), (group), NULL)                             \
    F(const BIGNUM *, EC_GROUP_get0_order, (const EC_GROUP *group), (group), NULL)                                   \
    F(int, EC_GROUP_get_cofactor, (const EC_GROUP *group, BIGNUM *cofactor, BN_CTX *ctx), (group, cofactor, ctx), 0) \
    F(int, EC_GROUP_get_curve, (const EC_GROUP *group, BIGNUM *p, BIGNUM *a, BIGNUM *b, BN_CTX *ctx),                \
      (group, p, a, b, ctx), 0)                                                                                      \
    F(int, EC_GROUP_get_degree, (const EC_GROUP *group), (group), 0)                                                 \
    F(EC_GROUP *, EC_GROUP_new_by_curve_name, (int nid), (nid), NULL)                                                \
    F(int, EC_POINT_add, (const EC_GROUP *group, EC_POINT *r, const EC_POINT *a, const EC_POINT *b, BN_CTX *ctx),    \
      (group, r, a, b, ctx), 0)                                                                                      \
    V(EC_POINT_clear_free, (EC_POINT *point), (point))                                                               \
    F(int, EC_POINT_cmp, (const EC_GROUP *group, const EC_POINT *a, const EC_POINT *b, BN_CTX *ctx),                 \
      (group, a, b, ctx), -1)                                                                                        \
    F(EC_POINT *, EC_POINT_dup, (const EC_POINT *src, const EC_GROUP *group), (src, group), NULL)                    \
    F(int, EC_POINT_is_at_infinity, (const EC_GROUP *group, const EC_POINT *p), (group, p), 0)                       \
    F(int, EC_POINT_is_on_curve, (const EC_GROUP *group, const EC_POINT *point, BN_CTX *ctx),                        \
      (group, point, ctx), -1)                                                                                       \
    F(int, EC_POINT_mul, (const EC_GROUP *group, EC_POINT *r, const BIGNUM *n, const EC_POINT *q,                    \
      const BIGNUM *m, BN_CTX *ctx),                                                                                 \
      (group, r, n, q, m, ctx), 0)                                                                                   \
    F(EC_POINT *, EC_POINT_new, (const EC_GROUP *group), (group), NULL)                                              \
    F(int, EC_POINT_oct2point, (const EC_GROUP *group, EC_POINT *p, const unsigned char *buf, size_t len,            \
      BN_CTX *ctx),                                                                                                  \
      (group, p, buf, len, ctx), 0)                                                                                  \
    F(size_t, EC_POINT_point2oct, (const EC_GROUP *group, const EC_POINT *p, point_conversion_form_t form,           \
      unsigned char *buf, size_t len, BN_CTX *ctx),                                                                  \
      (group, p, form, buf, len, ctx), 0)                                                                            \
    V(ERR_clear_error, (void), ())                                                                                   \
    F(unsigned long, ERR_peek_last_error, (void), (), 0)                                                             \
    F(const char *, ERR_reason_error_string, (unsigned long e), (e), NULL)                                           \
    V(EVP_CIPHER_CTX_free, (EVP_CIPHER_CTX *c), (c))                                                                 \
    F(EVP_CIPHER_CTX *, EVP_CIPHER_CTX_new, (void), (), NULL)                                                        \
    F(int, EVP_CIPHER_CTX_set_padding, (EVP_CIPHER_CTX *c, int pad), (c, pad), 0)                                    \
    F(int, EVP_CipherFinal_ex, (EVP_CIPHER_CTX *ctx, unsigned char *outm, int *outl), (ctx, outm, outl), 0)          \
    F(int, EVP_CipherInit_ex2, (EVP_CIPHER_CTX *ctx, const EVP_CIPHER *cipher, const unsigned char *key,             \
      const unsigned char *iv, int enc, const OSSL_PARAM *params),                                                   \
      (ctx, cipher, key, iv, enc, params), 0)                                                                        \
    F(int, EVP_CipherUpdate, (EVP_CIPHER_CTX *ctx, unsigned char *out, int *outl, const unsigned char *in, int inl), \
      (ctx, out, outl, in, inl), 0)                                                                                  \
    F(int, EVP_DecodeBlock, (unsigned char *t, const unsigned char *f, int n), (t, f, n), -1)                        \
    F(int, EVP_Digest, (const void *data, size_t count, unsigned char *md, unsigned int *size,                       \
      const EVP_MD *type, ENGINE *impl),                                                                             \
      (data, count, md, size, type, impl), 0)                                                                        \
    F(int, EVP_DigestSign, (EVP_MD_CTX *ctx, unsigned char *sigret, size_t *siglen, const unsigned char *tbs,        \
      size_t tbslen),                                                                                                \
      (ctx, sigret, siglen, tbs, tbslen), 0)                                                                         \
    F(int, EVP_DigestSignInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e,                 \
      EVP_PKEY *pkey),                                                                                               \
      (ctx, pctx, type, e, pkey), 0)                                                                                 \
    F(int, EVP_DigestVerify, (EVP_MD_CTX *ctx, const unsigned char *sigret, size_t siglen,                           \
      const unsigned char *tbs, size_t tbslen),                                                                      \
      (ctx, sigret, siglen, tbs, tbslen), 0)                                                                         \
    F(int, EVP_DigestVerifyInit, (EVP_MD_CTX *ctx, EVP_PKEY_CTX **pctx, const EVP_MD *type, ENGINE *e,               \
      EVP_PKEY *pkey),                                                                                               \
      (ctx, pctx, type, e, pkey), 0)                                                                                 \
    V(EVP_MAC_CTX_free, (EVP_MAC_CTX *ctx), (ctx))                                                                   \
    F(EVP_MAC_CTX *, EVP_MAC_CTX_new, (EVP_MAC *mac), (mac), NULL)                                                   \
    F(EVP_MAC *, EVP_MAC_fetch, (OSSL_LIB_CTX *libctx, const char *algorithm, const char *properties),               \
      (libctx, algorithm, properties), NULL)                                                                         \
    F(int, EVP_MAC_final, (EVP_MAC_CTX *ctx, unsigned char *out, size_t *outl, size_t outsize),                      \
      (ctx, out, outl, outsize), 0)                                                                                  \
    V(EVP_MAC_free, (EVP_MAC *mac), (mac))                                                                           \
    F(int, EVP_MAC_init, (EVP_MAC_CTX *ctx, const unsigned char *key, size_t keylen, const OSSL_PARAM *params),      \
      (ctx, key, keylen, params), 0)                                                                                 \
    F(int, EVP_MAC_update, (EVP_MAC_CTX *ctx, const unsigned char *data, size_t datalen), (ctx, data, datalen), 0)   \
    V(EVP_MD_CTX_free, (EVP_MD_CTX *ctx), (ctx))                                                                     \
    F(EVP_MD_CTX *, EVP_MD_CTX_new, (void), (), NULL)                                                                \
    F(PKCS8_PRIV_KEY_INFO *, EVP_PKEY2PKCS8, (const EVP_PKEY *pkey), (pkey), NULL)                                   \
    V(EVP_PKEY_CTX_free, (EVP_PKEY_CTX *ctx), (ctx))                                                                 \
    F(EVP_PKEY_CTX *, EVP_PKEY_CTX_new_from_name, (OSSL_LIB_CTX *libctx, const char *name, const char *propquery),   \
      (libctx, name, propquery), NULL)                                                                               \
    F(int, EVP_PKEY_CTX_set_rsa_keygen_bits, (EVP_PKEY_CTX *ctx, int bits), (ctx, bits), 0)                          \
    V(EVP_PKEY_free, (EVP_PKEY *pkey), (pkey))                                                                       \
    F(int, EVP_PKEY_fromdata, (EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey, int selection, OSSL_PARAM *param),               \
      (ctx, ppkey, selection, param), 0)                                                                             \
    F(int, EVP_PKEY_fromdata_init, (EVP_PKEY_CTX *ctx), (ctx), 0)                                                    \
    F(int, EVP_PKEY_generate, (EVP_PKEY_CTX *ctx, EVP_PKEY **ppkey), (ctx, ppkey), 0)                                \
    F(const char *, EVP_PKEY_get0_type_name, (const EVP_PKEY *key), (key), NULL)                                     \
    F(int, EVP_PKEY_get_base_id, (const EVP_PKEY *pkey), (pkey), 0)                                                  \
    F(int, EVP_PKEY_get_bits, (const EVP_PKEY *pkey), (pkey), 0)                                                     \
    F(int, EVP_PKEY_is_a, (const EVP_PKEY *pkey, const char *name), (pkey, name), 0)                                 \
    F(int, EVP_PKEY_keygen_init, (EVP_PKEY_CTX *ctx), (ctx), 0)                                                      \
    F(const EVP_CIPHER *, EVP_aes_128_cbc, (void), (), NULL)                                                         \
    F(const EVP_CIPHER *, EVP_aes_128_ecb, (void), (), NULL)                                                         \
    F(const EVP_CIPHER *, EVP_aes_192_cbc, (void), (), NULL)                                                         \
    F(const EVP_CIPHER *, EVP_aes_192_ecb, (void), (), NULL)                                                         \
    F(const EVP_CIPHER *, EVP_aes_256_cbc, (void), (), NULL)                                                         \
    F(const EVP_CIPHER *, EVP_aes_256_ecb, (void), (), NULL)                                                         \
    F(const EVP_MD *, EVP_sha1, (void), (), NULL)                                                                    \
    F(const EVP_MD *, EVP_sha224, (void), (), NULL)                                                                  \
    F(const EVP_MD *, EVP_sha256, (void), (), NULL)                                                                  \
    F(const EVP_MD *, EVP_sha384, (void), (), NULL)                                                                  \
    F(const EVP_MD *, EVP_sha512, (void), (), NULL)                                                                  \
    F(int, OBJ_cmp, (const ASN1_OBJECT *a, const ASN1_OBJECT *b), (a, b), -2)                                        \
    F(ASN1_OBJECT *, OBJ_nid2obj, (int n), (n), NULL)                                                                \
    F(const char *, OBJ_nid2sn, (int n), (n), NULL)                                                                  \
    F(int, OBJ_obj2txt, (char *buf, int buf_len, const ASN1_OBJECT *a, int no_name), (buf, buf_len, a, no_name), -1) \
    F(ASN1_OBJECT *, OBJ_txt2obj, (const char *s, int no_name), (s, no_name), NULL)                                  \
    V(OSSL_PARAM_BLD_free, (OSSL_PARAM_BLD *bld), (bld))                                                             \
    F(OSSL_PARAM_BLD *, OSSL_PARAM_BLD_new, (void), (), NULL)                                                        \
    F(int, OSSL_PARAM_BLD_push_BN, (OSSL_PARAM_BLD *bld, const char *key, const BIGNUM *bn), (bld, key, bn), 0)      \
    F(int, OSSL_PARAM_BLD_push_octet_string, (OSSL_PARAM_BLD *bld, const char *key, const void *buf, size_t bsize),  \
      (bld, key, buf, bsize), 0)                                                                                     \
    F(int, OSSL_PARAM_BLD_push_utf8_string, (OSSL_PARAM_BLD *bld, const char *key, const char *buf, size_t bsize),   \
      (bld, key, buf, bsize), 0)                                                                                     \
    F(OSSL_PARAM *, OSSL_PARAM_BLD_to_param, (OSSL_PARAM_BLD *bld), (bld), NULL)                                     \
    F(OSSL_PARAM, OSSL_PARAM_construct_end, (void), (), unloaded_param)                                              \
    F(OSSL_PARAM, OSSL_PARAM_construct_utf8_string, (const char *key, char *buf, size_t bsize),                      \
      (key, buf, bsize), unloaded_param)                                                                             \
    V(OSSL_PARAM_free, (OSSL_PARAM *p), (p))                                                                         \
    F(OSSL_PARAM *, OSSL_PARAM_locate, (OSSL_PARAM *p, const char *key), (p, key), NULL)                             \
    F(EVP_PKEY *, PEM_read_bio_PrivateKey, (BIO *bp, EVP_PKEY **x, pem_password_cb *cb, void *u), (bp, x, cb, u), NULL) \
    F(X509 *, PEM_read_bio_X509, (BIO *bp, X509 **x, pem_password_cb *cb, void *u), (bp, x, cb, u), NULL)            \
    F(int, PEM_write_bio_PKCS8PrivateKey, (BIO *bp, const EVP_PKEY *x, const EVP_CIPHER *enc, const char *kstr,      \
      int klen, pem_password_cb *cb, void *u),                                                                       \
      (bp, x, enc, kstr, klen, cb, u), 0)                                                                            \
    F(int, PEM_write_bio_X509, (BIO *bp, const X509 *x), (bp, x), 0)                                                 \
    V(PKCS8_PRIV_KEY_INFO_free, (PKCS8_PRIV_KEY_INFO *a), (a))                                                       \
    F(int, RAND_bytes, (unsigned char *buf, int num), (buf, num), 0)                                                 \
    F(X509_EXTENSION *, X509V3_EXT_conf_nid, (struct lhash_st_CONF_VALUE *conf, X509V3_CTX *ctx, int ext_nid,        \
      const char *value),                                                                                            \
      (conf, ctx, ext_nid, value), NULL)                                                                             \
    V(X509V3_set_ctx, (X509V3_CTX *ctx, X509 *issuer, X509 *subject, X509_REQ *req, X509_CRL *crl, int flags),       \
      (ctx, issuer, subject, req, crl, flags))                                                                       \
    V(X509_EXTENSION_free, (X509_EXTENSION *a), (a))                                                                 \
    F(int, X509_NAME_add_entry_by_txt, (X509_NAME *name, const char *field, int type, const unsigned char *bytes,    \
      int len, int loc, int set),                                                                                    \
      (name, field, type, bytes, len, loc, set), 0)                                                                  \
    V(X509_NAME_free, (X509_NAME *a), (a))                                                                           \
    F(X509_NAME *, X509_NAME_new, (void), (), NULL)                                                                  \
    F(X509 *, X509_STORE_CTX_get_current_cert, (const X509_STORE_CTX *ctx), (ctx), NULL)                             \
    F(int, X509_STORE_CTX_get_error, (const X509_STORE_CTX *ctx), (ctx), X509_V_ERR_UNSPECIFIED)                     \
    F(int, X509_STORE_CTX_get_error_depth, (const X509_STORE_CTX *ctx), (ctx), -1)                                   \
    F(void *, X509_STORE_CTX_get_ex_data, (const X509_STORE_CTX *ctx, int idx), (ctx, idx), NULL)                    \
    F(int, X509_STORE_add_cert, (X509_STORE *ctx, X509 *x), (ctx, x), 0)                                             \
    V(X509_STORE_free, (X509_STORE *v), (v))                                                                         \
    F(X509_VERIFY_PARAM *, X509_STORE_get0_param, (const X509_STORE *ctx), (ctx), NULL)                              \
    F(int, X509_STORE_load_file, (X509_STORE *ctx, const char *file), (ctx, file), 0)                                \
    F(X509_STORE *, X509_STORE_new, (void), (), NULL)                                                                \
    F(int, X509_STORE_set_default_paths, (X509_STORE *ctx), (ctx), 0)                                                \
    F(int, X509_STORE_set_purpose, (X509_STORE *ctx, int purpose), (ctx, purpose), 0)                                \
    F(int, X509_VERIFY_PARAM_set1_host, (X509_VERIFY_PARAM *param, const char *name, size_t namelen),                \
      (param, name, namelen), 0)                                                                                     \
    F(int, X509_VERIFY_PARAM_set1_ip_asc, (X509_VERIFY_PARAM *param, const char *ipasc), (param, ipasc), 0)          \
    V(X509_VERIFY_PARAM_set_time, (X509_VERIFY_PARAM *param, time_t t), (param, t))                                  \
    F(int, X509_add_ext, (X509 *x, X509_EXTENSION *ex, int loc), (x, ex, loc), 0)                                    \
    F(int, X509_check_private_key, (const X509 *x, const EVP_PKEY *pkey), (x, pkey), 0)                              \
    V(X509_free, (X509 *a), (a))                                                                                     \
    F(EVP_PKEY *, X509_get0_pubkey, (const X509 *x), (x), NULL)                                                      \
    F(ASN1_INTEGER *, X509_get_serialNumber, (X509 *x), (x), NULL)                                                   \
    F(X509_NAME *, X509_get_subject_name, (const X509 *a), (a), NULL)                                                \
    F(ASN1_TIME *, X509_getm_notAfter, (const X509 *x), (x), NULL)                                                   \
    F(ASN1_TIME *, X509_getm_notBefore, (const X509 *x), (x), NULL)                                                  \
    F(X509 *, X509_new, (void), (), NULL)                                                                            \
    F(int, X509_set_issuer_name, (X509 *x, const X509_NAME *name), (x, name), 0)                                     \
    F(int, X509_set_pubkey, (X509 *x, EVP_PKEY *pkey), (x, pkey), 0)                                                 \
    F(int, X509_set_subject_name, (X509 *x, const X509_NAME *name), (x, name), 0)                                    \
    F(int, X509_set_version, (X509 *x, long version), (x, version), 0)                                               \
    F(int, X509_sign, (X509 *x, EVP_PKEY *pkey, const EVP_MD *md), (x, pkey, md), 0)                                 \
    F(ASN1_TIME *, X509_time_adj_ex, (ASN1_TIME *s, int offset_day, long offset_sec, time_t *t),                     \
      (s, offset_day, offset_sec, t), NULL)                                                                          \
    F(const char *, X509_verify_cert_error_string, (long n), (n), "libcrypto is not loaded")                         \
    F(EVP_PKEY *, d2i_AutoPrivateKey, (EVP_PKEY **a, const unsigned char **pp, long length), (a, pp, length), NULL)  \
    F(CMS_ContentInfo *, d2i_CMS_ContentInfo, (CMS_ContentInfo **a, const unsigned char **in, long len),             \
      (a, in, len), NULL)                                                                                            \
    F(ECDSA_SIG *, d2i_ECDSA_SIG, (ECDSA_SIG **a, const unsigned char **in, long len), (a, in, len), NULL)           \
    F(X509 *, d2i_X509, (X509 **a, const unsigned char **in, long len), (a, in, len), NULL)                          \
    F(int, i2d_CMS_ContentInfo, (const CMS_ContentInfo *a, unsigned char **out), (a, out), 0)                        \
    F(int, i2d_ECDSA_SIG, (const ECDSA_SIG *a, unsigned char **out), (a, out), 0)                                    \
    F(int, i2d_PKCS8_PRIV_KEY_INFO, (const PKCS8_PRIV_KEY_INFO *a, unsigned char **out), (a, out), 0)                \
    F(int, i2d_X509, (const X509 *a, unsigned char **out), (a, out), 0)

#endif
