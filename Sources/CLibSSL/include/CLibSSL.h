#ifndef CLIBSSL_H
#define CLIBSSL_H

/* OpenSSL's libssl (Debian: libssl3; headers from libssl-dev) for a process that does not link it:
 * libssl.so.3 is loaded (dlopen) on the first call that needs it, so a command that never speaks TLS never
 * maps it (README, "Memory"). LibSSL.c defines each libssl function eid calls under its own name, forwarding
 * to the loaded library; eid_libssl_load says whether that worked and why not. Its users: CCurl (the SSL_CTX
 * and SSL objects libcurl hands the TLS target) and IFDTransport (TLS to a phone as card reader, through
 * memory BIOs). libcrypto is linked (COpenSSL), so its functions (BIO_*, X509_*, EVP_*, ERR_*) are called
 * directly.
 *
 * Swift cannot call OpenSSL's function-like macros (SSL_CTX_set_min_proto_version, SSL_get_peer_tmp_key, ...),
 * so each use gets a typed wrapper (LibSSLWrappers.c). */
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509v3.h>
#include <openssl/evp.h>
#include <openssl/err.h>
#include <openssl/crypto.h>

/* Loads libssl.so.3 once (later calls return the first answer): NULL when it is there with every function
 * eid calls, else a sentence that says what is missing and what to install. */
const char *eid_libssl_load(void);

/* OpenSSL macros. */
/* One SSL_CTX ex_data index for the process, taken on first use. */
int eid_ssl_ctx_ex_index(void);
int eid_ssl_ctx_set_sigalgs(SSL_CTX *ctx, const char *list);
/* TLS 1.2 only (minimum and maximum). 1 on success. */
int eid_ssl_ctx_set_tls12_only(SSL_CTX *ctx);
/* The (EC)DHE groups, e.g. "brainpoolP256r1:P-256". 1 on success. */
int eid_ssl_ctx_set_groups(SSL_CTX *ctx, const char *list);
/* OpenSSL zeroes its copy of each received record's plaintext once it is handed on (a TcToken holds
 * the TLS-2 PSK), instead of keeping it until the buffer is overwritten. */
void eid_ssl_ctx_cleanse_plaintext(SSL_CTX *ctx);
/* A client of the remote IFD: no renegotiation, no session tickets (every connection shows its certificates). */
void eid_ssl_ctx_set_ifd_client_options(SSL_CTX *ctx);
/* The server's ephemeral (EC)DH key of this connection, or NULL (PSK without DHE, or resumed). Free it. */
EVP_PKEY *eid_ssl_peer_tmp_key(SSL *ssl);
/* The alert description when an info callback's `where` reports an alert the peer sent, else -1. */
int eid_ssl_received_alert(int where, int ret);
/* The DER encoding of `cert` into `out` (NULL: only the length). */
int eid_x509_der(X509 *cert, unsigned char *out);
/* A client connection whose TLS records go through two memory BIOs (read: from the peer, write: to the
 * peer), owned by the SSL (freed with SSL_free); an empty read BIO means "wait for more". NULL on failure. */
SSL *eid_ssl_client_connection(SSL_CTX *ctx, BIO **rbio, BIO **wbio);

#endif
