#ifndef CCURL_H
#define CCURL_H

/* libcurl (Debian: libcurl4, the OpenSSL 3 flavour), with the OpenSSL TLS calls the TLS target makes on
 * the SSL_CTX and SSL objects libcurl hands it (CLibSSL, exported from here), for a process that does not
 * link either library: libcurl.so.4 and libssl.so.3 are loaded (dlopen) on the first call that needs them,
 * so a command that never goes online never maps them (README, "Memory"). CurlLibrary.c defines each
 * libcurl function the TLS target calls under its own name, forwarding to the loaded library; eid_curl_load
 * says whether that worked (libssl included) and why not. The libcrypto functions among these calls are
 * COpenSSL's forwarding functions (CryptoLibrary.c): libssl finds that same libcrypto.so.3 by its soname.
 *
 * Swift cannot call variadic C functions (curl_easy_setopt, curl_easy_getinfo, curl_share_setopt), so each
 * use gets a typed wrapper (CurlWrappers.c). */
#include <curl/curl.h>
#include <CLibSSL.h>

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

#endif
