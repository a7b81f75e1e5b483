#ifndef COPENPACE_SHIM_H
#define COPENPACE_SHIM_H

/* OpenPACE (Debian: libeac-dev), an independent implementation of PACE and EAC secure
 * messaging, for the peer tests only. The inline helpers below reach into OpenPACE's structs
 * and OpenSSL's BUF_MEM so that Swift needs no knowledge of their layout. */
#include <eac/eac.h>
#include <eac/pace.h>
#include <eac/objects.h>
#include <eac/cv_cert.h>
#include <eac/ca.h>
#include <eac/ta.h>
#include <openssl/bn.h>
#include <openssl/buffer.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/objects.h>
#include <string.h>

/* A new BUF_MEM holding a copy of `len` bytes at `data` (NULL on failure). */
static inline BUF_MEM *eid_buf_new(const unsigned char *data, size_t len) {
    BUF_MEM *b = BUF_MEM_new();
    if (!b) return NULL;
    if (len > 0) {
        if (BUF_MEM_grow_clean(b, len) != len) { BUF_MEM_free(b); return NULL; }
        memcpy(b->data, data, len);
    }
    b->length = len;
    return b;
}

static inline size_t eid_buf_length(const BUF_MEM *b) { return b ? b->length : 0; }
static inline const unsigned char *eid_buf_data(const BUF_MEM *b) {
    return b ? (const unsigned char *)b->data : NULL;
}

/* The selected PACE context's protocol NID, or 0 when none is selected. */
static inline int eid_pace_protocol(const EAC_CTX *ctx) {
    return (ctx && ctx->pace_ctx) ? ctx->pace_ctx->protocol : 0;
}

/* KSenc / KSmac derived by PACE_STEP3C_derive_keys (NULL before). Owned by `ctx`. */
static inline const BUF_MEM *eid_pace_k_enc(const EAC_CTX *ctx) {
    return (ctx && ctx->pace_ctx && ctx->pace_ctx->ka_ctx) ? ctx->pace_ctx->ka_ctx->k_enc : NULL;
}
static inline const BUF_MEM *eid_pace_k_mac(const EAC_CTX *ctx) {
    return (ctx && ctx->pace_ctx && ctx->pace_ctx->ka_ctx) ? ctx->pace_ctx->ka_ctx->k_mac : NULL;
}

/* The send sequence counter as `len` big-endian bytes. Returns 1 on success, 0 otherwise. */
static inline int eid_eac_ssc(const EAC_CTX *ctx, unsigned char *out, int len) {
    if (!ctx || !ctx->ssc) return 0;
    return BN_bn2binpad(ctx->ssc, out, len) == len;
}

static inline int eid_eac_id_pace(void) { return EAC_ID_PACE; }

/* The NID of a CV certificate's public key algorithm (id-TA-ECDSA-SHA-*), NID_undef if none. */
static inline int eid_cvc_key_nid(const CVC_CERT *cert) {
    return (cert && cert->body && cert->body->public_key) ? OBJ_obj2nid(cert->body->public_key->oid) : NID_undef;
}

/* KSenc / KSmac derived by Chip Authentication (CA_STEP5/6; NULL before). Owned by `ctx`. */
static inline const BUF_MEM *eid_ca_k_enc(const EAC_CTX *ctx) {
    return (ctx && ctx->ca_ctx && ctx->ca_ctx->ka_ctx) ? ctx->ca_ctx->ka_ctx->k_enc : NULL;
}
static inline const BUF_MEM *eid_ca_k_mac(const EAC_CTX *ctx) {
    return (ctx && ctx->ca_ctx && ctx->ca_ctx->ka_ctx) ? ctx->ca_ctx->ka_ctx->k_mac : NULL;
}

static inline int eid_eac_id_ca(void) { return EAC_ID_CA; }
static inline int eid_nid_ca_ecdh_aes128(void) { return NID_id_CA_ECDH_AES_CBC_CMAC_128; }
static inline int eid_nid_ta_ecdsa_sha256(void) { return NID_id_TA_ECDSA_SHA_256; }
#endif
