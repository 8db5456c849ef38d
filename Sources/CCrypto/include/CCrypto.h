#ifndef SHARE_CCRYPTO_H
#define SHARE_CCRYPTO_H
/* OpenSSL's libcrypto from Swift, for the signatures of OAuth 1.0a.

   libcrypto is loaded with dlopen the first time a request is signed
   (libcurl loads it anyway for TLS), so share's start never pays for it.
   Only the one-shot HMAC and the SHA-1 digest are used. */
#include <stddef.h>

/* HMAC-SHA1 of data under key into out (20 bytes). Returns 0, or -1 with
   a message in error (libcrypto missing). */
int share_hmac_sha1(const void *key, size_t key_length, const void *data, size_t length,
                    unsigned char out[20], char *error, size_t error_size);
#endif
