#include "CCrypto.h"

#include "CLoader.h"

#include <stdio.h>

/* The prototypes of <openssl/hmac.h> and <openssl/evp.h> (OpenSSL 3's ABI),
   with the digest kept opaque. */
static struct {
    const void *(*sha1)(void);
    unsigned char *(*hmac)(const void *digest, const void *key, int key_length, const unsigned char *data,
                           size_t length, unsigned char *out, unsigned int *out_length);
} lib;

static struct share_library library = {
    .sonames = {"libcrypto.so.3"},
    .symbols = (const struct share_symbol[]){{"EVP_sha1", &lib.sha1}, {"HMAC", &lib.hmac}, {NULL, NULL}},
    .missing = "libcrypto is not installed (Debian: apt install libssl3)",
};

int share_hmac_sha1(const void *key, size_t key_length, const void *data, size_t length,
                    unsigned char out[20], char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    if (key_length > 0x7fffffff) {
        snprintf(error, error_size, "the key is too long");
        return -1;
    }
    unsigned int written = 0;
    if (!lib.hmac(lib.sha1(), key, (int)key_length, data, length, out, &written) || written != 20) {
        snprintf(error, error_size, "libcrypto could not compute the HMAC");
        return -1;
    }
    return 0;
}
