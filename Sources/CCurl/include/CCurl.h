#ifndef CCURL_H
#define CCURL_H

/* libcurl (Debian: libcurl4, the OpenSSL 3 flavour) and the OpenSSL TLS calls the TLS target makes on
 * the SSL_CTX and SSL objects libcurl hands it, for a process that does not link either library:
 * libcurl.so.4 and libssl.so.3 are loaded (dlopen) on the first call that needs them, so a command that
 * never goes online never maps them (README, "Memory"). CurlLibrary.c defines each function the TLS
 * target calls under its own name, forwarding to the loaded library; eid_curl_load says whether that
 * worked and why not. The libcrypto functions among them (X509_STORE_*, i2d_X509, ERR_*) are COpenSSL's
 * forwarding functions (CryptoLibrary.c): libssl finds that same libcrypto.so.3 by its soname.
 *
 * Swift cannot call variadic C functions (curl_easy_setopt, curl_easy_getinfo, curl_share_setopt) nor
 * function-like macros (SSL_get_peer_tmp_key, SSL_CTX_set1_sigalgs_list, ...), so each use gets a typed
 * wrapper (CurlWrappers.c). */
#include <curl/curl.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>

/* Loads libcurl.so.4 and libssl.so.3 once (later calls return the first answer): NULL when both are
 * there with every function eid calls, else a sentence that says what is missing and what to install. */
const char *eid_curl_load(void);

/* curl_easy_setopt, one wrapper per argument type. */
CURLcode eid_curl_setopt_long(CURL *h, CURLoption o, long v);
CURLcode eid_curl_setopt_pointer(CURL *h, CURLoption o, void *v);
CURLcode eid_curl_setopt_string(CURL *h, CURLoption o, const char *v);
CURLcode eid_curl_setopt_offset(CURL *h, CURLoption o, curl_off_t v);
CURLcode eid_curl_set_write_function(CURL *h, curl_write_callback f);
CURLcode eid_curl_set_header_function(CURL *h, curl_write_callback f);
CURLcode eid_curl_set_xferinfo_function(CURL *h, curl_xferinfo_callback f);
CURLcode eid_curl_set_ssl_ctx_function(CURL *h, curl_ssl_ctx_callback f);
CURLcode eid_curl_set_prereq_function(CURL *h, curl_prereq_callback f);

/* curl_easy_getinfo */
CURLcode eid_curl_getinfo_long(CURL *h, CURLINFO i, long *v);
CURLcode eid_curl_getinfo_offset(CURL *h, CURLINFO i, curl_off_t *v);
CURLcode eid_curl_getinfo_string(CURL *h, CURLINFO i, char **v);
/* The live connection's SSL object (NULL when there is none, or when the backend is not OpenSSL). */
SSL *eid_curl_tls_ssl(CURL *h);

/* curl_share_setopt: what the share holds (CURL_LOCK_DATA_SSL_SESSION). */
CURLSHcode eid_curl_share_data(CURLSH *s, curl_lock_data d);

/* OpenSSL macros. */
/* One SSL_CTX ex_data index for the process, taken on first use (the caller serialises the first call). */
int eid_ssl_ctx_ex_index(void);
int eid_ssl_ctx_set_sigalgs(SSL_CTX *ctx, const char *list);
/* OpenSSL zeroes its copy of each received record's plaintext once it is handed on (a TcToken holds
 * the TLS-2 PSK), instead of keeping it until the buffer is overwritten. */
void eid_ssl_ctx_cleanse_plaintext(SSL_CTX *ctx);
/* The server's ephemeral (EC)DH key of this connection, or NULL (PSK without DHE, or resumed). Free it. */
EVP_PKEY *eid_ssl_peer_tmp_key(SSL *ssl);
/* The alert description when an info callback's `where` reports an alert the peer sent, else -1. */
int eid_ssl_received_alert(int where, int ret);
/* The DER encoding of `cert` into `out` (NULL: only the length). */
int eid_x509_der(X509 *cert, unsigned char *out);

#endif
