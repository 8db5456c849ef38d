#include "CCrypto.h"

#include "CLoader.h"

#include <stdio.h>

/* The prototypes of <openssl/hmac.h> and <openssl/evp.h> (OpenSSL 3's ABI),
   with the digest kept opaque. */
static struct {
    const void *(*sha1)(void);
    const void *(*sha256)(void);
    unsigned char *(*hmac)(const void *digest, const void *key, int key_length, const unsigned char *data,
                           size_t length, unsigned char *out, unsigned int *out_length);
    struct evp_md_ctx_st *(*context_new)(void);
    void (*context_free)(struct evp_md_ctx_st *context);
    int (*context_copy)(struct evp_md_ctx_st *out, const struct evp_md_ctx_st *in);
    int (*init)(struct evp_md_ctx_st *context, const void *digest, void *engine);
    int (*update)(struct evp_md_ctx_st *context, const void *data, size_t length);
    int (*final)(struct evp_md_ctx_st *context, unsigned char *out, unsigned int *out_length);
} lib;

static struct share_library library = {
    .sonames = {"libcrypto.so.3"},
    .symbols = (const struct share_symbol[]){
        {"EVP_sha1", &lib.sha1}, {"EVP_sha256", &lib.sha256}, {"HMAC", &lib.hmac},
        {"EVP_MD_CTX_new", &lib.context_new}, {"EVP_MD_CTX_free", &lib.context_free},
        {"EVP_MD_CTX_copy_ex", &lib.context_copy}, {"EVP_DigestInit_ex", &lib.init},
        {"EVP_DigestUpdate", &lib.update}, {"EVP_DigestFinal_ex", &lib.final}, {NULL, NULL}},
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

int share_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length,
                      unsigned char out[32], char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    if (key_length > 0x7fffffff) {
        snprintf(error, error_size, "the key is too long");
        return -1;
    }
    unsigned int written = 0;
    if (!lib.hmac(lib.sha256(), key, (int)key_length, data, length, out, &written) || written != 32) {
        snprintf(error, error_size, "libcrypto could not compute the HMAC");
        return -1;
    }
    return 0;
}

/* Every digest below exists only once the library loaded. */
struct evp_md_ctx_st *share_sha256_new(char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return NULL;
    struct evp_md_ctx_st *digest = lib.context_new();
    if (digest && lib.init(digest, lib.sha256(), NULL) == 1) return digest;
    lib.context_free(digest);
    snprintf(error, error_size, "libcrypto could not start a SHA-256 digest");
    return NULL;
}

int share_sha256_add(struct evp_md_ctx_st *digest, const void *data, size_t length) {
    return length == 0 || lib.update(digest, data, length) == 1 ? 0 : -1;
}

int share_sha256_finish(struct evp_md_ctx_st *digest, unsigned char out[32]) {
    unsigned int written = 0;
    int done = lib.final(digest, out, &written) == 1 && written == 32;
    return lib.init(digest, lib.sha256(), NULL) == 1 && done ? 0 : -1;
}

struct evp_md_ctx_st *share_sha256_copy(const struct evp_md_ctx_st *digest) {
    struct evp_md_ctx_st *copy = lib.context_new();
    if (copy && lib.context_copy(copy, digest) == 1) return copy;
    lib.context_free(copy);
    return NULL;
}

void share_sha256_free(struct evp_md_ctx_st *digest) { lib.context_free(digest); }
