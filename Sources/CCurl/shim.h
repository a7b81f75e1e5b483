#ifndef CCURL_SHIM_H
#define CCURL_SHIM_H

/* libcurl (Debian: libcurl4-openssl-dev, the OpenSSL 3 flavour) and the OpenSSL TLS calls the TLS
 * target makes on the SSL_CTX and SSL objects libcurl hands it. Swift cannot call variadic C
 * functions (curl_easy_setopt, curl_easy_getinfo, curl_share_setopt) nor function-like macros
 * (SSL_get_peer_tmp_key, SSL_CTX_set1_sigalgs_list, ...), so each use gets a typed inline wrapper. */
#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>

/* curl_easy_setopt, one wrapper per argument type. */
static inline CURLcode eid_curl_setopt_long(CURL *h, CURLoption o, long v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eid_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eid_curl_setopt_string(CURL *h, CURLoption o, const char *v) {
    return curl_easy_setopt(h, o, v);
}
static inline CURLcode eid_curl_setopt_offset(CURL *h, CURLoption o, curl_off_t v) { return curl_easy_setopt(h, o, v); }
static inline CURLcode eid_curl_set_write_function(CURL *h, curl_write_callback f) {
    return curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, f);
}
static inline CURLcode eid_curl_set_header_function(CURL *h, curl_write_callback f) {
    return curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, f);
}
static inline CURLcode eid_curl_set_xferinfo_function(CURL *h, curl_xferinfo_callback f) {
    return curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, f);
}
static inline CURLcode eid_curl_set_ssl_ctx_function(CURL *h, curl_ssl_ctx_callback f) {
    return curl_easy_setopt(h, CURLOPT_SSL_CTX_FUNCTION, f);
}
static inline CURLcode eid_curl_set_prereq_function(CURL *h, curl_prereq_callback f) {
    return curl_easy_setopt(h, CURLOPT_PREREQFUNCTION, f);
}

/* curl_easy_getinfo */
static inline CURLcode eid_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode eid_curl_getinfo_offset(CURL *h, CURLINFO i, curl_off_t *v) { return curl_easy_getinfo(h, i, v); }
static inline CURLcode eid_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return curl_easy_getinfo(h, i, v); }
/* The live connection's SSL object (NULL when there is none, or when the backend is not OpenSSL). */
static inline SSL *eid_curl_tls_ssl(CURL *h) {
    struct curl_tlssessioninfo *info = NULL;
    if (curl_easy_getinfo(h, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK || info == NULL
        || info->backend != CURLSSLBACKEND_OPENSSL) {
        return NULL;
    }
    return (SSL *)info->internals;
}

/* curl_share_setopt: what the share holds (CURL_LOCK_DATA_SSL_SESSION). */
static inline CURLSHcode eid_curl_share_data(CURLSH *s, curl_lock_data d) {
    return curl_share_setopt(s, CURLSHOPT_SHARE, d);
}

/* OpenSSL macros. */
static inline int eid_ssl_ctx_ex_index(void) {
    /* One index for the process, taken on first use (the caller serialises the first call). */
    static int index = -1;
    if (index < 0) index = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL);
    return index;
}
static inline int eid_ssl_ctx_set_sigalgs(SSL_CTX *ctx, const char *list) { return (int)SSL_CTX_set1_sigalgs_list(ctx, list); }
/* OpenSSL zeroes its copy of each received record's plaintext once it is handed on (a TcToken holds
 * the TLS-2 PSK), instead of keeping it until the buffer is overwritten. */
static inline void eid_ssl_ctx_cleanse_plaintext(SSL_CTX *ctx) { SSL_CTX_set_options(ctx, SSL_OP_CLEANSE_PLAINTEXT); }
/* The server's ephemeral (EC)DH key of this connection, or NULL (PSK without DHE, or resumed). Free it. */
static inline EVP_PKEY *eid_ssl_peer_tmp_key(SSL *ssl) {
    EVP_PKEY *key = NULL;
    if (!SSL_get_peer_tmp_key(ssl, &key)) return NULL;
    return key;
}
/* The alert description when an info callback's `where` reports an alert the peer sent, else -1. */
static inline int eid_ssl_received_alert(int where, int ret) {
    return (where & SSL_CB_READ_ALERT) == SSL_CB_READ_ALERT ? (ret & 0xff) : -1;
}
/* The DER encoding of `cert` into `out` (NULL: only the length). */
static inline int eid_x509_der(X509 *cert, unsigned char *out) {
    if (out == NULL) return i2d_X509(cert, NULL);
    unsigned char *p = out;
    return i2d_X509(cert, &p);
}

#endif
