#ifndef CCURL_LIBRARY_H
#define CCURL_LIBRARY_H

/* Between CurlLibrary.c and CurlWrappers.c: libcurl's variadic functions as loaded, valid once
 * eid_curl_load() has returned NULL. */
#include "include/CCurl.h"

extern CURLcode (*eid_curl_easy_setopt_loaded)(CURL *, CURLoption, ...);
extern CURLcode (*eid_curl_easy_getinfo_loaded)(CURL *, CURLINFO, ...);
extern CURLSHcode (*eid_curl_share_setopt_loaded)(CURLSH *, CURLSHoption, ...);

#endif
