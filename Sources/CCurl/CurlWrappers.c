/* The typed wrappers of include/CCurl.h over libcurl's variadic functions. */
#include "CurlLibrary.h"

/* libcurl's variadic calls once it is loaded; CURLE_FAILED_INIT when it is not. */
#define EID_SETOPT(h, option, value)                                                                       \
    (eid_curl_load() != NULL ? CURLE_FAILED_INIT : eid_curl_easy_setopt_loaded(h, option, value))
#define EID_GETINFO(h, info, value)                                                                        \
    (eid_curl_load() != NULL ? CURLE_FAILED_INIT : eid_curl_easy_getinfo_loaded(h, info, value))

CURLcode eid_curl_setopt_long(CURL *h, CURLoption o, long v) { return EID_SETOPT(h, o, v); }
CURLcode eid_curl_setopt_pointer(CURL *h, CURLoption o, void *v) { return EID_SETOPT(h, o, v); }
CURLcode eid_curl_setopt_string(CURL *h, CURLoption o, const char *v) { return EID_SETOPT(h, o, v); }
CURLcode eid_curl_setopt_offset(CURL *h, CURLoption o, curl_off_t v) { return EID_SETOPT(h, o, v); }
CURLcode eid_curl_set_write_function(CURL *h, curl_write_callback f) { return EID_SETOPT(h, CURLOPT_WRITEFUNCTION, f); }
CURLcode eid_curl_set_header_function(CURL *h, curl_write_callback f) {
    return EID_SETOPT(h, CURLOPT_HEADERFUNCTION, f);
}
CURLcode eid_curl_set_xferinfo_function(CURL *h, curl_xferinfo_callback f) {
    return EID_SETOPT(h, CURLOPT_XFERINFOFUNCTION, f);
}
CURLcode eid_curl_set_ssl_ctx_function(CURL *h, curl_ssl_ctx_callback f) {
    return EID_SETOPT(h, CURLOPT_SSL_CTX_FUNCTION, f);
}
CURLcode eid_curl_set_prereq_function(CURL *h, curl_prereq_callback f) {
    return EID_SETOPT(h, CURLOPT_PREREQFUNCTION, f);
}

CURLcode eid_curl_getinfo_long(CURL *h, CURLINFO i, long *v) { return EID_GETINFO(h, i, v); }
CURLcode eid_curl_getinfo_offset(CURL *h, CURLINFO i, curl_off_t *v) { return EID_GETINFO(h, i, v); }
CURLcode eid_curl_getinfo_string(CURL *h, CURLINFO i, char **v) { return EID_GETINFO(h, i, v); }
SSL *eid_curl_tls_ssl(CURL *h) {
    struct curl_tlssessioninfo *info = NULL;
    if (eid_curl_load() != NULL || eid_curl_easy_getinfo_loaded(h, CURLINFO_TLS_SSL_PTR, &info) != CURLE_OK
        || info == NULL || info->backend != CURLSSLBACKEND_OPENSSL) {
        return NULL;
    }
    return (SSL *)info->internals;
}

CURLSHcode eid_curl_share_data(CURLSH *s, curl_lock_data d) {
    if (eid_curl_load() != NULL) return CURLSHE_NOT_BUILT_IN;
    return eid_curl_share_setopt_loaded(s, CURLSHOPT_SHARE, d);
}
