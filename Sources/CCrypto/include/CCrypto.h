#ifndef SHARE_CCRYPTO_H
#define SHARE_CCRYPTO_H
/* OpenSSL's libcrypto from Swift, for the signatures of OAuth 1.0a and
   AWS Signature Version 4 (S3), and SHA-256 digests.

   libcrypto is loaded with dlopen the first time it is needed (libcurl
   loads it anyway for TLS), so share's start never pays for it. Used: the
   one-shot HMAC (SHA-1, SHA-256), the EVP digest SHA-256, and LocalSend's
   self-signed certificate (made, and its key checked against it). */
#include <stddef.h>

/* HMAC-SHA1 of data under key into out (20 bytes). Returns 0, or -1 with
   a message in error (libcrypto missing). */
int share_hmac_sha1(const void *key, size_t key_length, const void *data, size_t length,
                    unsigned char out[20], char *error, size_t error_size);

/* HMAC-SHA256 of data under key into out (32 bytes), for AWS Signature
   Version 4. Returns 0, or -1 with a message in error (libcrypto missing). */
int share_hmac_sha256(const void *key, size_t key_length, const void *data, size_t length,
                      unsigned char out[32], char *error, size_t error_size);

/* A SHA-256 digest under way: libcrypto's EVP_MD_CTX. */
struct evp_md_ctx_st;

/* A new digest, or NULL with a message in error (libcrypto missing). */
struct evp_md_ctx_st *share_sha256_new(char *error, size_t error_size);
/* Adds length bytes to digest. Returns 0, or -1 when libcrypto fails. */
int share_sha256_add(struct evp_md_ctx_st *digest, const void *data, size_t length);
/* The digest of what was added, into out (32 bytes); digest starts afresh.
   Returns 0, or -1 when libcrypto fails. */
int share_sha256_finish(struct evp_md_ctx_st *digest, unsigned char out[32]);
/* A copy of digest, at the same point; NULL when libcrypto fails. */
struct evp_md_ctx_st *share_sha256_copy(const struct evp_md_ctx_st *digest);
void share_sha256_free(struct evp_md_ctx_st *digest);

/* A new self-signed certificate for a TLS server that peers know by its
   fingerprint (LocalSend): an EC P-256 key, common name `name`, valid ten
   years from now, signed with SHA-256. Writes the certificate and the
   private key (PKCS#8, unencrypted) as PEM, NUL-terminated, into cert and
   key. Returns 0, or -1 with a message in error (libcrypto missing, a
   buffer too small). */
int share_self_signed_certificate(const char *name, long serial, char *cert, size_t cert_size, char *key, size_t key_size,
                                  char *error, size_t error_size);

/* Whether the first private key in key_pem is the one of the first
   certificate in cert_pem (both may be the same text, holding both): 1
   when it is, 0 when not or when either cannot be read (an encrypted key
   is not read), -1 with a message in error (libcrypto missing). */
int share_key_matches_certificate(const char *cert_pem, const char *key_pem, char *error, size_t error_size);
#endif
