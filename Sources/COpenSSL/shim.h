#ifndef COPENSSL_SHIM_H
#define COPENSSL_SHIM_H

/* OpenSSL 3 (Debian: libssl-dev), plus typed inline wrappers for what Swift cannot import
 * (function-like macros, variadic functions, OSSL_PARAM construction). */
#include <openssl/bn.h>
#include <openssl/ec.h>
#include <openssl/evp.h>
#include <openssl/rand.h>
#include <openssl/crypto.h>
#include <openssl/err.h>
#include <openssl/core_names.h>
#include <openssl/params.h>

#endif
