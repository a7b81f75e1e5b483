/* libcrypto.so.3, loaded on first use (include/shim.h): every libcrypto function eid calls is defined
 * here under its own name (hidden: only eid's own code binds to these, never a library) and forwards to
 * the loaded library. When libcrypto is missing, each answers as OpenSSL answers a failure, so no caller
 * crashes, and eid_crypto_load says why (CryptoError's description carries the sentence). */
#include "CryptoFunctions.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define EID_HIDDEN __attribute__((visibility("hidden")))

/* One pointer per function, filled by load(). */
#define EID_POINTER(type, name, parameters, arguments, fallback) static type(*loaded_##name) parameters;
#define EID_VOID_POINTER(name, parameters, arguments) static void(*loaded_##name) parameters;
EID_CRYPTO_FUNCTIONS(EID_POINTER, EID_VOID_POINTER)
static EVP_PKEY *(*loaded_EVP_PKEY_Q_keygen)(OSSL_LIB_CTX *, const char *, const char *, ...);
static void (*loaded_OPENSSL_cleanse)(void *, size_t);

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *problem = "libcrypto is not loaded";
static char problem_text[512];
static const OSSL_PARAM unloaded_param = {NULL, 0, NULL, 0, 0};

/* The first missing function's name, or NULL. */
#define EID_RESOLVE(name)                                                                                   \
    if ((*(void **)&loaded_##name = dlsym(library, #name)) == NULL) return #name;
#define EID_RESOLVE_FUNCTION(type, name, parameters, arguments, fallback) EID_RESOLVE(name)
#define EID_RESOLVE_VOID(name, parameters, arguments) EID_RESOLVE(name)

static const char *resolve(void *library) {
    EID_CRYPTO_FUNCTIONS(EID_RESOLVE_FUNCTION, EID_RESOLVE_VOID)
    EID_RESOLVE(EVP_PKEY_Q_keygen)
    EID_RESOLVE(OPENSSL_cleanse)
    return NULL;
}

static void load(void) {
    /* The soname libssl.so.3 and libcurl's OpenSSL flavour link: when either is in the process already
     * (eid-testserver, OpenPACE in the tests, or libcurl loaded first), this is the same library, so every
     * object (EVP_PKEY, X509, BIO) passed between them comes from one libcrypto. RTLD_LOCAL: nothing else
     * binds to it by accident; libssl finds it by its soname. */
    void *library = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (library == NULL) {
        snprintf(problem_text, sizeof problem_text,
                 "OpenSSL's libcrypto is not installed (%s); eid needs it for every card and online operation: "
                 "apt install libssl3",
                 dlerror());
        problem = problem_text;
        return;
    }
    const char *missing = resolve(library);
    if (missing != NULL) {
        snprintf(problem_text, sizeof problem_text, "the installed libcrypto has no %s; eid needs libssl3 3.0 or newer",
                 missing);
        problem = problem_text;
        return;
    }
    problem = NULL;
}

EID_HIDDEN const char *eid_crypto_load(void) {
    pthread_once(&once, load);
    return problem;
}

/* The forwarding definitions, under libcrypto's own names. */
#define EID_FORWARD(type, name, parameters, arguments, fallback)                                            \
    EID_HIDDEN type name parameters {                                                                       \
        if (eid_crypto_load() != NULL) return fallback;                                                     \
        return loaded_##name arguments;                                                                     \
    }
#define EID_FORWARD_VOID(name, parameters, arguments)                                                       \
    EID_HIDDEN void name parameters {                                                                       \
        if (eid_crypto_load() != NULL) return;                                                              \
        loaded_##name arguments;                                                                            \
    }
EID_CRYPTO_FUNCTIONS(EID_FORWARD, EID_FORWARD_VOID)

/* Variadic: the key type's one parameter (EC: the curve's name; RSA: the modulus bits) passed on, as
 * EVP_PKEY_Q_keygen reads it. Other types take none. */
EID_HIDDEN EVP_PKEY *EVP_PKEY_Q_keygen(OSSL_LIB_CTX *libctx, const char *propq, const char *type, ...) {
    if (eid_crypto_load() != NULL) return NULL;
    va_list parameters;
    va_start(parameters, type);
    EVP_PKEY *key = NULL;
    if (strcmp(type, "EC") == 0) {
        key = loaded_EVP_PKEY_Q_keygen(libctx, propq, type, va_arg(parameters, const char *));
    } else if (strcmp(type, "RSA") == 0) {
        key = loaded_EVP_PKEY_Q_keygen(libctx, propq, type, va_arg(parameters, size_t));
    } else {
        key = loaded_EVP_PKEY_Q_keygen(libctx, propq, type);
    }
    va_end(parameters);
    return key;
}

/* Wipes even when libcrypto is missing: a secret is zeroed whatever happened before. */
EID_HIDDEN void OPENSSL_cleanse(void *ptr, size_t len) {
    if (eid_crypto_load() != NULL) {
        explicit_bzero(ptr, len);
        return;
    }
    loaded_OPENSSL_cleanse(ptr, len);
}
