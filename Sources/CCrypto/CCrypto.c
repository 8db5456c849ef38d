#include "CCrypto.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

/* The prototypes of <openssl/hmac.h> and <openssl/evp.h> (OpenSSL 3's ABI),
   with the digest kept opaque. */
static struct {
    const void *(*sha1)(void);
    unsigned char *(*hmac)(const void *digest, const void *key, int key_length, const unsigned char *data,
                           size_t length, unsigned char *out, unsigned int *out_length);
    char error[160];
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *crypto = dlopen("libcrypto.so.3", RTLD_NOW | RTLD_LOCAL);
    if (!crypto) {
        snprintf(lib.error, sizeof lib.error, "libcrypto is not installed (Debian: apt install libssl3)");
        return;
    }
    *(void **)&lib.sha1 = dlsym(crypto, "EVP_sha1");
    *(void **)&lib.hmac = dlsym(crypto, "HMAC");
    if (!lib.sha1 || !lib.hmac) {
        lib.hmac = NULL;
        snprintf(lib.error, sizeof lib.error, "libcrypto.so.3 lacks HMAC or EVP_sha1");
    }
}

int share_hmac_sha1(const void *key, size_t key_length, const void *data, size_t length,
                    unsigned char out[20], char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!lib.hmac) {
        snprintf(error, error_size, "%s", lib.error);
        return -1;
    }
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
