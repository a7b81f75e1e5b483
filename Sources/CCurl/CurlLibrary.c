/* libcurl.so.4 and libssl.so.3, loaded on first use (include/CCurl.h): every function the TLS target
 * calls is defined here under its own name and forwards to the loaded library. When the library is
 * missing, each answers as libcurl or OpenSSL answer a failure (NULL, an error code, nothing), so no
 * caller crashes; CurlTransfer asks eid_curl_load first and reports why. */
#include "CurlLibrary.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The functions, with their parameters, the arguments they pass on and the value they answer when the
 * library could not be loaded. */
#define EID_CURL_FUNCTIONS(F, V)                                                                           \
    F(CURLcode, curl_global_init, (long flags), (flags), CURLE_FAILED_INIT)                                \
    F(CURL *, curl_easy_init, (void), (), NULL)                                                            \
    V(curl_easy_cleanup, (CURL * handle), (handle))                                                        \
    F(CURLcode, curl_easy_perform, (CURL * handle), (handle), CURLE_FAILED_INIT)                           \
    F(const char *, curl_easy_strerror, (CURLcode code), (code), "libcurl is not loaded")                  \
    V(curl_free, (void *pointer), (pointer))                                                               \
    F(CURLSH *, curl_share_init, (void), (), NULL)                                                         \
    F(CURLSHcode, curl_share_cleanup, (CURLSH * share), (share), CURLSHE_NOT_BUILT_IN)                     \
    F(struct curl_slist *, curl_slist_append, (struct curl_slist * list, const char *string),             \
      (list, string), NULL)                                                                                \
    V(curl_slist_free_all, (struct curl_slist * list), (list))                                             \
    F(CURLU *, curl_url, (void), (), NULL)                                                                 \
    V(curl_url_cleanup, (CURLU * handle), (handle))                                                        \
    F(CURLUcode, curl_url_get, (CURLU * handle, CURLUPart what, char **part, unsigned int flags),          \
      (handle, what, part, flags), CURLUE_OUT_OF_MEMORY)                                                   \
    F(CURLUcode, curl_url_set, (CURLU * handle, CURLUPart what, const char *part, unsigned int flags),     \
      (handle, what, part, flags), CURLUE_OUT_OF_MEMORY)

#define EID_SSL_FUNCTIONS(F, V)                                                                            \
    F(const char *, SSL_CIPHER_get_name, (const SSL_CIPHER *c), (c), "(none)")                             \
    F(X509_VERIFY_PARAM *, SSL_CTX_get0_param, (SSL_CTX * ctx), (ctx), NULL)                               \
    F(void *, SSL_CTX_get_ex_data, (const SSL_CTX *ctx, int index), (ctx, index), NULL)                    \
    V(SSL_CTX_set1_cert_store, (SSL_CTX * ctx, X509_STORE *store), (ctx, store))                           \
    F(int, SSL_CTX_set_ex_data, (SSL_CTX * ctx, int index, void *data), (ctx, index, data), 0)            \
    V(SSL_CTX_set_info_callback, (SSL_CTX * ctx, void (*cb)(const SSL *ssl, int type, int val)), (ctx, cb)) \
    V(SSL_CTX_set_psk_client_callback, (SSL_CTX * ctx, SSL_psk_client_cb_func cb), (ctx, cb))              \
    V(SSL_CTX_set_verify, (SSL_CTX * ctx, int mode, SSL_verify_cb cb), (ctx, mode, cb))                   \
    F(uint64_t, SSL_CTX_set_options, (SSL_CTX * ctx, uint64_t options), (ctx, options), 0)                \
    F(long, SSL_CTX_ctrl, (SSL_CTX * ctx, int cmd, long larg, void *parg), (ctx, cmd, larg, parg), 0)     \
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
EID_CURL_FUNCTIONS(EID_POINTER, EID_VOID_POINTER)
EID_SSL_FUNCTIONS(EID_POINTER, EID_VOID_POINTER)

CURLcode (*eid_curl_easy_setopt_loaded)(CURL *, CURLoption, ...);
CURLcode (*eid_curl_easy_getinfo_loaded)(CURL *, CURLINFO, ...);
CURLSHcode (*eid_curl_share_setopt_loaded)(CURLSH *, CURLSHoption, ...);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem = "libcurl is not loaded";
static char problem_text[512];

/* The first missing function's name, or NULL. */
#define EID_RESOLVE(library, name)                                                                         \
    if ((*(void **)&loaded_##name = dlsym(library, #name)) == NULL) return #name;
#define EID_RESOLVE_CURL(type, name, parameters, arguments, fallback) EID_RESOLVE(curl, name)
#define EID_RESOLVE_CURL_VOID(name, parameters, arguments) EID_RESOLVE(curl, name)
#define EID_RESOLVE_SSL(type, name, parameters, arguments, fallback) EID_RESOLVE(ssl, name)
#define EID_RESOLVE_SSL_VOID(name, parameters, arguments) EID_RESOLVE(ssl, name)

static const char *resolve(void *curl, void *ssl) {
    EID_CURL_FUNCTIONS(EID_RESOLVE_CURL, EID_RESOLVE_CURL_VOID)
    EID_SSL_FUNCTIONS(EID_RESOLVE_SSL, EID_RESOLVE_SSL_VOID)
    if ((*(void **)&eid_curl_easy_setopt_loaded = dlsym(curl, "curl_easy_setopt")) == NULL) return "curl_easy_setopt";
    if ((*(void **)&eid_curl_easy_getinfo_loaded = dlsym(curl, "curl_easy_getinfo")) == NULL) {
        return "curl_easy_getinfo";
    }
    if ((*(void **)&eid_curl_share_setopt_loaded = dlsym(curl, "curl_share_setopt")) == NULL) {
        return "curl_share_setopt";
    }
    return NULL;
}

/* Opens `file`; NULL, with the sentence of what to install, when it cannot. */
static void *open_library(const char *file, const char *name, const char *package) {
    void *library = dlopen(file, RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(problem_text, sizeof problem_text, "%s is not installed (%s); eid needs it to go online: apt install %s",
                 name, dlerror(), package);
        problem = problem_text;
    }
    return library;
}

static void load(void) {
    /* libcurl first: it brings libssl.so.3 (Debian's libcurl4 is built on OpenSSL 3), which the second
     * dlopen then only finds. RTLD_LOCAL: nothing else in the process binds to them by accident. */
    void *curl = open_library("libcurl.so.4", "libcurl", "libcurl4");
    void *ssl = curl == NULL ? NULL : open_library("libssl.so.3", "OpenSSL's libssl", "libssl3");
    if (ssl == NULL) return;
    const char *missing = resolve(curl, ssl);
    if (missing != NULL) {
        snprintf(problem_text, sizeof problem_text,
                 "the installed libcurl or libssl has no %s; eid needs libcurl4 7.88 and libssl3 3.0 or newer",
                 missing);
        problem = problem_text;
        return;
    }
    problem = NULL;
}

const char *eid_curl_load(void) {
    pthread_once(&once, load);
    return problem;
}

/* The forwarding definitions, under the libraries' own names. */
#define EID_FORWARD(type, name, parameters, arguments, fallback)                                           \
    type name parameters {                                                                                 \
        if (eid_curl_load() != NULL) return fallback;                                                      \
        return loaded_##name arguments;                                                                    \
    }
#define EID_FORWARD_VOID(name, parameters, arguments)                                                      \
    void name parameters {                                                                                 \
        if (eid_curl_load() != NULL) return;                                                               \
        loaded_##name arguments;                                                                           \
    }
EID_CURL_FUNCTIONS(EID_FORWARD, EID_FORWARD_VOID)
EID_SSL_FUNCTIONS(EID_FORWARD, EID_FORWARD_VOID)
