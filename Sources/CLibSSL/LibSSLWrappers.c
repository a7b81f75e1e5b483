/* The typed wrappers of include/CLibSSL.h over OpenSSL's macros. */
#include "include/CLibSSL.h"

#include <pthread.h>

static pthread_once_t index_once = PTHREAD_ONCE_INIT;
static int index_value = -1;
static void take_index(void) { index_value = SSL_CTX_get_ex_new_index(0, NULL, NULL, NULL, NULL); }

int eid_ssl_ctx_ex_index(void) {
    pthread_once(&index_once, take_index);
    return index_value;
}
int eid_ssl_ctx_set_sigalgs(SSL_CTX *ctx, const char *list) { return (int)SSL_CTX_set1_sigalgs_list(ctx, list); }
int eid_ssl_ctx_set_tls12_only(SSL_CTX *ctx) {
    return SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION) == 1
        && SSL_CTX_set_max_proto_version(ctx, TLS1_2_VERSION) == 1;
}
int eid_ssl_ctx_set_groups(SSL_CTX *ctx, const char *list) { return (int)SSL_CTX_set1_groups_list(ctx, list); }
void eid_ssl_ctx_cleanse_plaintext(SSL_CTX *ctx) { SSL_CTX_set_options(ctx, SSL_OP_CLEANSE_PLAINTEXT); }
void eid_ssl_ctx_set_ifd_client_options(SSL_CTX *ctx) {
    SSL_CTX_set_options(ctx, SSL_OP_NO_RENEGOTIATION | SSL_OP_NO_TICKET);
}
EVP_PKEY *eid_ssl_peer_tmp_key(SSL *ssl) {
    EVP_PKEY *key = NULL;
    if (!SSL_get_peer_tmp_key(ssl, &key)) return NULL;
    return key;
}
int eid_ssl_received_alert(int where, int ret) {
    return (where & SSL_CB_READ_ALERT) == SSL_CB_READ_ALERT ? (ret & 0xff) : -1;
}
int eid_x509_der(X509 *cert, unsigned char *out) {
    if (out == NULL) return i2d_X509(cert, NULL);
    unsigned char *p = out;
    return i2d_X509(cert, &p);
}
SSL *eid_ssl_client_connection(SSL_CTX *ctx, BIO **rbio, BIO **wbio) {
    SSL *ssl = SSL_new(ctx);
    *rbio = BIO_new(BIO_s_mem());
    *wbio = BIO_new(BIO_s_mem());
    if (ssl == NULL || *rbio == NULL || *wbio == NULL) {
        SSL_free(ssl);
        BIO_free(*rbio);
        BIO_free(*wbio);
        return NULL;
    }
    BIO_set_mem_eof_return(*rbio, -1);
    SSL_set_bio(ssl, *rbio, *wbio);
    SSL_set_connect_state(ssl);
    return ssl;
}
