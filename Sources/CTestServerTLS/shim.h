#ifndef CTESTSERVERTLS_SHIM_H
#define CTESTSERVERTLS_SHIM_H

/* libssl (OpenSSL 3, Debian: libssl-dev) for eid-testserver's TLS server, plus typed wrappers for
 * what Swift cannot import (function-like macros, variadic functions). The TLS records travel
 * through memory BIOs; SwiftNIO moves the bytes (Sources/TestServerHTTPS/OpenSSLServerHandler.swift). */
#include <openssl/ssl.h>
#include <openssl/err.h>
#include <openssl/pem.h>
#include <openssl/bio.h>
#include <openssl/evp.h>
#include <openssl/rsa.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <string.h>

/* A server SSL_CTX: TLS 1.2 and 1.3, `ciphers` for TLS 1.2, `groups` for (EC)DHE, a server-side
 * session cache (session ids) and session tickets with `lifetime` seconds, the certificate and key
 * from PEM text (certificates after the first in `cert_pem` are sent as its chain). NULL on failure. */
static inline SSL_CTX *eid_tls_server_ctx_new(const char *cert_pem, const char *key_pem, const char *ciphers,
                                               const char *groups, long lifetime) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    BIO *cbio = BIO_new_mem_buf(cert_pem, -1), *kbio = BIO_new_mem_buf(key_pem, -1);
    X509 *cert = cbio != NULL ? PEM_read_bio_X509(cbio, NULL, NULL, NULL) : NULL;
    EVP_PKEY *key = kbio != NULL ? PEM_read_bio_PrivateKey(kbio, NULL, NULL, NULL) : NULL;
    static const unsigned char context[] = "eid-testserver";
    int ok = ctx != NULL && cert != NULL && key != NULL
        && SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)
        && SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION)
        && SSL_CTX_set_cipher_list(ctx, ciphers)
        && SSL_CTX_set1_groups_list(ctx, groups)
        && SSL_CTX_use_certificate(ctx, cert) == 1
        && SSL_CTX_use_PrivateKey(ctx, key) == 1
        && SSL_CTX_check_private_key(ctx) == 1
        && SSL_CTX_set_session_id_context(ctx, context, sizeof context - 1);
    for (X509 *extra; ok && (extra = PEM_read_bio_X509(cbio, NULL, NULL, NULL)) != NULL;) {
        ok = SSL_CTX_add0_chain_cert(ctx, extra) == 1;
        if (!ok) X509_free(extra);
    }
    ERR_clear_error(); /* the end of the PEM text */
    if (ok) {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_SERVER);
        SSL_CTX_sess_set_cache_size(ctx, 20000);
        SSL_CTX_set_timeout(ctx, lifetime);
        SSL_CTX_clear_options(ctx, SSL_OP_NO_TICKET);
        SSL_CTX_set_options(ctx, SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
        /* TLS 1.3: no 0-RTT (TR-03116-4), tickets for resumption. */
        SSL_CTX_set_max_early_data(ctx, 0);
    }
    X509_free(cert);
    EVP_PKEY_free(key);
    BIO_free(cbio);
    BIO_free(kbio);
    if (!ok) { SSL_CTX_free(ctx); return NULL; }
    return ctx;
}

/* A server connection whose TLS records go through two memory BIOs (read: from the peer, write:
 * to the peer), owned by the SSL (freed with SSL_free). NULL on failure. */
static inline SSL *eid_tls_server_connection(SSL_CTX *ctx, BIO **rbio, BIO **wbio) {
    SSL *ssl = SSL_new(ctx);
    *rbio = BIO_new(BIO_s_mem());
    *wbio = BIO_new(BIO_s_mem());
    if (ssl == NULL || *rbio == NULL || *wbio == NULL) {
        SSL_free(ssl); BIO_free(*rbio); BIO_free(*wbio);
        return NULL;
    }
    /* An empty read BIO means "wait for more", not end of file. */
    BIO_set_mem_eof_return(*rbio, -1);
    SSL_set_bio(ssl, *rbio, *wbio);
    SSL_set_accept_state(ssl);
    return ssl;
}

/* Serves the certificate and key of `cert_pem`/`key_pem` (PEM text) on this connection instead of the
 * context's, in a session id context of its own, so that no session of the context is resumed on it (a
 * resumed handshake would show no certificate). 1 on success. */
static inline int eid_tls_use_other_certificate(SSL *ssl, const char *cert_pem, const char *key_pem) {
    BIO *cbio = BIO_new_mem_buf(cert_pem, -1), *kbio = BIO_new_mem_buf(key_pem, -1);
    X509 *cert = cbio != NULL ? PEM_read_bio_X509(cbio, NULL, NULL, NULL) : NULL;
    EVP_PKEY *key = kbio != NULL ? PEM_read_bio_PrivateKey(kbio, NULL, NULL, NULL) : NULL;
    static const unsigned char context[] = "eid-testserver other certificate";
    int ok = cert != NULL && key != NULL && SSL_use_certificate(ssl, cert) == 1 && SSL_use_PrivateKey(ssl, key) == 1
        && SSL_check_private_key(ssl) == 1 && SSL_set_session_id_context(ssl, context, sizeof context - 1) == 1;
    X509_free(cert);
    EVP_PKEY_free(key);
    BIO_free(cbio);
    BIO_free(kbio);
    return ok;
}

/* The PSK identity the client sent on this connection, or NULL (not a PSK connection). */
static inline const char *eid_tls_psk_identity(const SSL *ssl) { return SSL_get_psk_identity(ssl); }

/* The negotiated cipher's OpenSSL name, e.g. "RSA-PSK-AES256-GCM-SHA384". */
static inline const char *eid_tls_cipher_name(const SSL *ssl) { return SSL_get_cipher_name(ssl); }

/* A fresh RSA key of `bits` bits. NULL on failure. */
static inline EVP_PKEY *eid_rsa_generate(unsigned int bits) {
    EVP_PKEY *key = NULL;
    EVP_PKEY_CTX *ctx = EVP_PKEY_CTX_new_from_name(NULL, "RSA", NULL);
    if (ctx == NULL || EVP_PKEY_keygen_init(ctx) != 1 || EVP_PKEY_CTX_set_rsa_keygen_bits(ctx, bits) != 1
        || EVP_PKEY_generate(ctx, &key) != 1) {
        key = NULL;
    }
    EVP_PKEY_CTX_free(ctx);
    return key;
}

/* A self-signed TLS server certificate for `key`: CN=`common_name`, subjectAltName `san` (e.g.
 * "DNS:localhost,IP:127.0.0.1"), serverAuth, valid `days` days from now, SHA-256. NULL on failure. */
static inline X509 *eid_tls_self_signed(EVP_PKEY *key, const char *common_name, const char *san, long serial,
                                        int days) {
    X509 *cert = X509_new();
    X509_NAME *name = X509_NAME_new();
    X509V3_CTX v3;
    int ok = cert != NULL && name != NULL && X509_set_version(cert, X509_VERSION_3)
        && ASN1_INTEGER_set(X509_get_serialNumber(cert), serial)
        && X509_gmtime_adj(X509_getm_notBefore(cert), -3600) != NULL
        && X509_time_adj_ex(X509_getm_notAfter(cert), days, 0, NULL) != NULL
        && X509_set_pubkey(cert, key)
        && X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, (const unsigned char *)common_name, -1, -1, 0)
        && X509_set_subject_name(cert, name) && X509_set_issuer_name(cert, name);
    if (ok) {
        X509V3_set_ctx(&v3, cert, cert, NULL, NULL, 0);
        const int nids[] = {NID_subject_alt_name, NID_ext_key_usage, NID_basic_constraints, NID_key_usage};
        const char *values[] = {san, "serverAuth", "critical,CA:FALSE", "critical,digitalSignature,keyEncipherment"};
        for (int i = 0; ok && i < 4; i++) {
            X509_EXTENSION *ext = X509V3_EXT_conf_nid(NULL, &v3, nids[i], values[i]);
            ok = ext != NULL && X509_add_ext(cert, ext, -1);
            X509_EXTENSION_free(ext);
        }
        ok = ok && X509_sign(cert, key, EVP_sha256()) > 0;
    }
    X509_NAME_free(name);
    if (!ok) { X509_free(cert); return NULL; }
    return cert;
}

/* PEM text of a certificate / of a private key (PKCS#8, unencrypted) into `out` (`cap` bytes,
 * NUL-terminated). Returns the length, or 0 on failure or when it does not fit. */
static inline size_t eid_pem_of(X509 *cert, EVP_PKEY *key, char *out, size_t cap) {
    BIO *bio = BIO_new(BIO_s_mem());
    char *data = NULL;
    size_t n = 0;
    if (bio != NULL && (cert != NULL ? PEM_write_bio_X509(bio, cert)
                                     : PEM_write_bio_PKCS8PrivateKey(bio, key, NULL, NULL, 0, NULL, NULL))) {
        long len = BIO_get_mem_data(bio, &data);
        if (len > 0 && (size_t)len < cap) {
            memcpy(out, data, (size_t)len);
            out[len] = 0;
            n = (size_t)len;
        }
        if (len > 0) OPENSSL_cleanse(data, (size_t)len);
    }
    BIO_free(bio);
    return n;
}

/* The DER of the first certificate in PEM text (OPENSSL_free), for CommCertificates hashes. 0 on failure. */
static inline size_t eid_pem_certificate_der(const char *pem, unsigned char **out) {
    *out = NULL;
    BIO *bio = BIO_new_mem_buf(pem, -1);
    X509 *cert = bio != NULL ? PEM_read_bio_X509(bio, NULL, NULL, NULL) : NULL;
    int n = cert != NULL ? i2d_X509(cert, out) : 0;
    X509_free(cert);
    BIO_free(bio);
    return n > 0 ? (size_t)n : 0;
}

/* A TLS 1.2 server SSL_CTX for a phone as card reader (TR-03112-6 IFD): `ciphers` only (the RSA-PSK suites
 * while pairing, ECDHE-RSA otherwise), the certificate and key from PEM text, a client certificate
 * required and judged by `verify` (the clients' certificates are self-signed: OpenSSL's own verdict
 * is replaced), no session resumption (every connection shows its certificate). NULL on failure. */
static inline SSL_CTX *eid_tls_ifd_ctx_new(const char *cert_pem, const char *key_pem, const char *ciphers,
                                            SSL_verify_cb verify) {
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    BIO *cbio = BIO_new_mem_buf(cert_pem, -1), *kbio = BIO_new_mem_buf(key_pem, -1);
    X509 *cert = cbio != NULL ? PEM_read_bio_X509(cbio, NULL, NULL, NULL) : NULL;
    EVP_PKEY *key = kbio != NULL ? PEM_read_bio_PrivateKey(kbio, NULL, NULL, NULL) : NULL;
    int ok = ctx != NULL && cert != NULL && key != NULL
        && SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION)
        && SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION)
        && SSL_CTX_set_cipher_list(ctx, ciphers)
        && SSL_CTX_use_certificate(ctx, cert) == 1
        && SSL_CTX_use_PrivateKey(ctx, key) == 1
        && SSL_CTX_check_private_key(ctx) == 1;
    if (ok) {
        SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
        SSL_CTX_set_options(ctx, SSL_OP_NO_TICKET | SSL_OP_CIPHER_SERVER_PREFERENCE | SSL_OP_NO_RENEGOTIATION);
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_FAIL_IF_NO_PEER_CERT, verify);
    }
    X509_free(cert);
    EVP_PKEY_free(key);
    BIO_free(cbio);
    BIO_free(kbio);
    if (!ok) { SSL_CTX_free(ctx); ERR_clear_error(); return NULL; }
    return ctx;
}

/* The SSL_CTX of the connection whose certificate chain `store` verifies (in a verify callback). */
static inline SSL_CTX *eid_tls_verifying_ctx(X509_STORE_CTX *store) {
    SSL *ssl = X509_STORE_CTX_get_ex_data(store, SSL_get_ex_data_X509_STORE_CTX_idx());
    return ssl != NULL ? SSL_get_SSL_CTX(ssl) : NULL;
}

/* The DER of `cert` (OPENSSL_free). 0 on failure. */
static inline size_t eid_x509_der(X509 *cert, unsigned char **out) {
    *out = NULL;
    int n = cert != NULL ? i2d_X509(cert, out) : 0;
    return n > 0 ? (size_t)n : 0;
}

/* The DER of the peer's certificate on this connection (OPENSSL_free), 0 when there is none. */
static inline size_t eid_tls_peer_certificate_der(const SSL *ssl, unsigned char **out) {
    X509 *cert = SSL_get1_peer_certificate(ssl);
    size_t n = eid_x509_der(cert, out);
    X509_free(cert);
    return n;
}

static inline void eid_tls_openssl_free(void *p) { OPENSSL_free(p); }

#endif
