#include "CCrypto.h"

#include "CLoader.h"

#include <stdio.h>
#include <string.h>

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
    /* A self-signed certificate (<openssl/x509.h>, <openssl/pem.h>, <openssl/bio.h>), every object opaque. */
    void *(*keygen)(void *library, const char *properties, const char *type, ...);
    void (*key_free)(void *key);
    void *(*x509_new)(void);
    void (*x509_free)(void *cert);
    int (*set_version)(void *cert, long version);
    void *(*serial_number)(void *cert);
    int (*integer_set)(void *integer, long value);
    void *(*not_before)(const void *cert);
    void *(*not_after)(const void *cert);
    void *(*gmtime_adj)(void *time, long seconds);
    int (*set_pubkey)(void *cert, void *key);
    void *(*subject_name)(const void *cert);
    int (*name_add)(void *name, const char *field, int type, const unsigned char *bytes, int length, int location, int set);
    int (*set_issuer)(void *cert, const void *name);
    int (*sign)(void *cert, void *key, const void *digest);
    const void *(*bio_memory)(void);
    void *(*bio_new)(const void *method);
    int (*bio_free)(void *bio);
    long (*bio_ctrl)(void *bio, int command, long argument, void *pointer);
    int (*write_cert)(void *bio, void *cert);
    int (*write_key)(void *bio, const void *key, const void *cipher, const unsigned char *secret, int length, void *callback,
                     void *context);
    /* Reading a key and a certificate back, and whether they belong together. */
    void *(*bio_memory_buffer)(const void *bytes, int length);
    void *(*read_cert)(void *bio, void **cert, void *callback, void *context);
    void *(*read_key)(void *bio, void **key, void *callback, void *context);
    int (*check_key)(const void *cert, const void *key);
    void (*clear_errors)(void);
} lib;

static struct share_library library = {
    .sonames = {"libcrypto.so.3"},
    .symbols = (const struct share_symbol[]){
        {"EVP_sha1", &lib.sha1}, {"EVP_sha256", &lib.sha256}, {"HMAC", &lib.hmac},
        {"EVP_MD_CTX_new", &lib.context_new}, {"EVP_MD_CTX_free", &lib.context_free},
        {"EVP_MD_CTX_copy_ex", &lib.context_copy}, {"EVP_DigestInit_ex", &lib.init},
        {"EVP_DigestUpdate", &lib.update}, {"EVP_DigestFinal_ex", &lib.final},
        {"EVP_PKEY_Q_keygen", &lib.keygen}, {"EVP_PKEY_free", &lib.key_free}, {"X509_new", &lib.x509_new},
        {"X509_free", &lib.x509_free}, {"X509_set_version", &lib.set_version}, {"X509_get_serialNumber", &lib.serial_number},
        {"ASN1_INTEGER_set", &lib.integer_set}, {"X509_getm_notBefore", &lib.not_before},
        {"X509_getm_notAfter", &lib.not_after}, {"X509_gmtime_adj", &lib.gmtime_adj}, {"X509_set_pubkey", &lib.set_pubkey},
        {"X509_get_subject_name", &lib.subject_name}, {"X509_NAME_add_entry_by_txt", &lib.name_add},
        {"X509_set_issuer_name", &lib.set_issuer}, {"X509_sign", &lib.sign}, {"BIO_s_mem", &lib.bio_memory},
        {"BIO_new", &lib.bio_new}, {"BIO_free", &lib.bio_free}, {"BIO_ctrl", &lib.bio_ctrl},
        {"PEM_write_bio_X509", &lib.write_cert}, {"PEM_write_bio_PrivateKey", &lib.write_key},
        {"BIO_new_mem_buf", &lib.bio_memory_buffer}, {"PEM_read_bio_X509", &lib.read_cert},
        {"PEM_read_bio_PrivateKey", &lib.read_key}, {"X509_check_private_key", &lib.check_key},
        {"ERR_clear_error", &lib.clear_errors}, {NULL, NULL}},
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

/* Writes what a memory BIO holds into out as a string; 0, or -1 when it does not fit. */
static int take_pem(void *bio, char *out, size_t size) {
    char *data = NULL;
    long length = lib.bio_ctrl(bio, 3 /* BIO_CTRL_INFO: the memory and its length */, 0, &data);
    if (length <= 0 || !data || (size_t)length >= size) return -1;
    memcpy(out, data, (size_t)length);
    out[length] = 0;
    return 0;
}

int share_self_signed_certificate(const char *name, long serial, char *cert_pem, size_t cert_size, char *key_pem, size_t key_size,
                                  char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    void *key = lib.keygen(NULL, NULL, "EC", "P-256");
    void *cert = key ? lib.x509_new() : NULL;
    void *cert_bio = cert ? lib.bio_new(lib.bio_memory()) : NULL;
    void *key_bio = cert_bio ? lib.bio_new(lib.bio_memory()) : NULL;
    int ok = key_bio != NULL;
    void *subject = ok ? lib.subject_name(cert) : NULL;
    ok = ok && subject && lib.set_version(cert, 2) == 1 && lib.integer_set(lib.serial_number(cert), serial) == 1 &&
         lib.gmtime_adj(lib.not_before(cert), -3600) && lib.gmtime_adj(lib.not_after(cert), 3650L * 24 * 3600) &&
         lib.set_pubkey(cert, key) == 1 &&
         lib.name_add(subject, "CN", 0x1000 /* MBSTRING_UTF8 */, (const unsigned char *)name, -1, -1, 0) == 1 &&
         lib.set_issuer(cert, subject) == 1 && lib.sign(cert, key, lib.sha256()) > 0 &&
         lib.write_cert(cert_bio, cert) == 1 && lib.write_key(key_bio, key, NULL, NULL, 0, NULL, NULL) == 1;
    if (!ok) snprintf(error, error_size, "libcrypto could not make a certificate");
    else if (take_pem(cert_bio, cert_pem, cert_size) != 0 || take_pem(key_bio, key_pem, key_size) != 0) {
        snprintf(error, error_size, "the certificate is longer than its buffer");
        ok = 0;
    }
    if (key_bio) lib.bio_free(key_bio);
    if (cert_bio) lib.bio_free(cert_bio);
    if (cert) lib.x509_free(cert);
    if (key) lib.key_free(key);
    return ok ? 0 : -1;
}

int share_key_matches_certificate(const char *cert_pem, const char *key_pem, char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    void *cert_bio = lib.bio_memory_buffer(cert_pem, -1);
    void *key_bio = lib.bio_memory_buffer(key_pem, -1);
    void *cert = cert_bio ? lib.read_cert(cert_bio, NULL, NULL, NULL) : NULL;
    void *key = key_bio ? lib.read_key(key_bio, NULL, NULL, (void *)"") : NULL;
    int matches = cert && key && lib.check_key(cert, key) == 1;
    if (key) lib.key_free(key);
    if (cert) lib.x509_free(cert);
    if (key_bio) lib.bio_free(key_bio);
    if (cert_bio) lib.bio_free(cert_bio);
    /* A mismatch or a text that is not PEM leaves errors on the thread's queue: none for the next caller. */
    lib.clear_errors();
    return matches;
}
