/* libssl.so.3, loaded on first use (include/CLibSSL.h): every libssl function eid calls is defined here under
 * its own name and forwards to the loaded library. When the library is missing, each answers as OpenSSL
 * answers a failure (NULL, 0, nothing), so no caller crashes; callers ask eid_libssl_load first and report
 * why. */
#include "include/CLibSSL.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The functions, with their parameters, the arguments they pass on and the value they answer when the
 * library could not be loaded. */
#define EID_SSL_FUNCTIONS(F, V)                                                                            \
    F(const char *, SSL_CIPHER_get_name, (const SSL_CIPHER *c), (c), "(none)")                             \
    F(const SSL_METHOD *, TLS_client_method, (void), (), NULL)                                             \
    F(SSL_CTX *, SSL_CTX_new, (const SSL_METHOD *method), (method), NULL)                                   \
    V(SSL_CTX_free, (SSL_CTX * ctx), (ctx))                                                                \
    F(int, SSL_CTX_check_private_key, (const SSL_CTX *ctx), (ctx), 0)                                      \
    F(X509_VERIFY_PARAM *, SSL_CTX_get0_param, (SSL_CTX * ctx), (ctx), NULL)                               \
    F(void *, SSL_CTX_get_ex_data, (const SSL_CTX *ctx, int index), (ctx, index), NULL)                    \
    V(SSL_CTX_set1_cert_store, (SSL_CTX * ctx, X509_STORE *store), (ctx, store))                           \
    F(int, SSL_CTX_set_cipher_list, (SSL_CTX * ctx, const char *list), (ctx, list), 0)                    \
    F(int, SSL_CTX_set_ex_data, (SSL_CTX * ctx, int index, void *data), (ctx, index, data), 0)            \
    V(SSL_CTX_set_info_callback, (SSL_CTX * ctx, void (*cb)(const SSL *ssl, int type, int val)), (ctx, cb)) \
    V(SSL_CTX_set_psk_client_callback, (SSL_CTX * ctx, SSL_psk_client_cb_func cb), (ctx, cb))              \
    V(SSL_CTX_set_verify, (SSL_CTX * ctx, int mode, SSL_verify_cb cb), (ctx, mode, cb))                   \
    F(uint64_t, SSL_CTX_set_options, (SSL_CTX * ctx, uint64_t options), (ctx, options), 0)                \
    F(long, SSL_CTX_ctrl, (SSL_CTX * ctx, int cmd, long larg, void *parg), (ctx, cmd, larg, parg), 0)     \
    F(int, SSL_CTX_use_certificate, (SSL_CTX * ctx, X509 *cert), (ctx, cert), 0)                          \
    F(int, SSL_CTX_use_PrivateKey, (SSL_CTX * ctx, EVP_PKEY *key), (ctx, key), 0)                         \
    F(SSL *, SSL_new, (SSL_CTX * ctx), (ctx), NULL)                                                        \
    V(SSL_free, (SSL * ssl), (ssl))                                                                        \
    V(SSL_set_bio, (SSL * ssl, BIO *rbio, BIO *wbio), (ssl, rbio, wbio))                                   \
    V(SSL_set_connect_state, (SSL * ssl), (ssl))                                                           \
    F(int, SSL_do_handshake, (SSL * ssl), (ssl), -1)                                                       \
    F(int, SSL_get_error, (const SSL *ssl, int ret), (ssl, ret), SSL_ERROR_SSL)                            \
    F(int, SSL_read, (SSL * ssl, void *buffer, int count), (ssl, buffer, count), -1)                       \
    F(int, SSL_write_ex, (SSL * ssl, const void *buffer, size_t count, size_t *written),                   \
      (ssl, buffer, count, written), 0)                                                                    \
    F(int, SSL_shutdown, (SSL * ssl), (ssl), -1)                                                           \
    F(long, SSL_ctrl, (SSL * ssl, int cmd, long larg, void *parg), (ssl, cmd, larg, parg), 0)             \
    F(X509 *, SSL_get0_peer_certificate, (const SSL *ssl), (ssl), NULL)                                    \
    F(SSL_CTX *, SSL_get_SSL_CTX, (const SSL *ssl), (ssl), NULL)                                           \
    F(const SSL_CIPHER *, SSL_get_current_cipher, (const SSL *ssl), (ssl), NULL)                           \
    F(int, SSL_get_ex_data_X509_STORE_CTX_idx, (void), (), -1)                                             \
    F(long, SSL_get_verify_result, (const SSL *ssl), (ssl), X509_V_ERR_UNSPECIFIED)                        \
    F(const char *, SSL_get_version, (const SSL *ssl), (ssl), "unknown")                                   \
    F(int, SSL_session_reused, (const SSL *ssl), (ssl), 0)

/* One pointer per function, filled by load(). */
#define EID_POINTER(type, name, parameters, arguments, fallback) static type(*loaded_##name) parameters;
#define EID_VOID_POINTER(name, parameters, arguments) static void(*loaded_##name) parameters;
EID_SSL_FUNCTIONS(EID_POINTER, EID_VOID_POINTER)

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem = "libssl is not loaded";
static char problem_text[512];

/* The first missing function's name, or NULL. */
#define EID_RESOLVE(type, name, parameters, arguments, fallback)                                           \
    if ((*(void **)&loaded_##name = dlsym(library, #name)) == NULL) return #name;
#define EID_RESOLVE_VOID(name, parameters, arguments)                                                      \
    if ((*(void **)&loaded_##name = dlsym(library, #name)) == NULL) return #name;

static const char *resolve(void *library) {
    EID_SSL_FUNCTIONS(EID_RESOLVE, EID_RESOLVE_VOID)
    return NULL;
}

static void load(void) {
    /* RTLD_LOCAL: nothing else in the process binds to it by accident. When libcurl brought it already,
     * this only finds it. */
    void *library = dlopen("libssl.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(problem_text, sizeof problem_text,
                 "OpenSSL's libssl is not installed (%s); eid needs it for TLS: apt install libssl3", dlerror());
        problem = problem_text;
        return;
    }
    const char *missing = resolve(library);
    if (missing != NULL) {
        snprintf(problem_text, sizeof problem_text, "the installed libssl has no %s; eid needs libssl3 3.0 or newer",
                 missing);
        problem = problem_text;
        return;
    }
    problem = NULL;
}

const char *eid_libssl_load(void) {
    pthread_once(&once, load);
    return problem;
}

/* The forwarding definitions, under the library's own names. */
#define EID_FORWARD(type, name, parameters, arguments, fallback)                                           \
    type name parameters {                                                                                 \
        if (eid_libssl_load() != NULL) return fallback;                                                    \
        return loaded_##name arguments;                                                                    \
    }
#define EID_FORWARD_VOID(name, parameters, arguments)                                                      \
    void name parameters {                                                                                 \
        if (eid_libssl_load() != NULL) return;                                                             \
        loaded_##name arguments;                                                                           \
    }
EID_SSL_FUNCTIONS(EID_FORWARD, EID_FORWARD_VOID)
