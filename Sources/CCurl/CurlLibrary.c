/* libcurl.so.4, loaded on first use (include/CCurl.h), and with it libssl.so.3 (CLibSSL): every libcurl
 * function the TLS target calls is defined here under its own name and forwards to the loaded library. When
 * the library is missing, each answers as libcurl answers a failure (NULL, an error code, nothing), so no
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

/* One pointer per function, filled by load(). */
#define EID_POINTER(type, name, parameters, arguments, fallback) static type(*loaded_##name) parameters;
#define EID_VOID_POINTER(name, parameters, arguments) static void(*loaded_##name) parameters;
EID_CURL_FUNCTIONS(EID_POINTER, EID_VOID_POINTER)

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

static const char *resolve(void *curl) {
    EID_CURL_FUNCTIONS(EID_RESOLVE_CURL, EID_RESOLVE_CURL_VOID)
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
    /* libcurl first: it brings libssl.so.3 (Debian's libcurl4 is built on OpenSSL 3), which CLibSSL's
     * dlopen then only finds. RTLD_LOCAL: nothing else in the process binds to them by accident. */
    void *curl = open_library("libcurl.so.4", "libcurl", "libcurl4");
    if (curl == NULL) return;
    const char *ssl_problem = eid_libssl_load();
    if (ssl_problem != NULL) {
        problem = ssl_problem;
        return;
    }
    const char *missing = resolve(curl);
    if (missing != NULL) {
        snprintf(problem_text, sizeof problem_text, "the installed libcurl has no %s; eid needs libcurl4 7.88 or newer",
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
