#include "CCurl.h"

#include "CLoader.h"

#include <stdio.h>
#include <string.h>

static struct {
    CURLcode (*global_init)(long);
    CURL *(*easy_init)(void);
    void (*easy_cleanup)(CURL *);
    CURLcode (*easy_perform)(CURL *);
    const char *(*easy_strerror)(CURLcode);
    CURLcode (*easy_setopt)(CURL *, CURLoption, ...);
    CURLcode (*easy_getinfo)(CURL *, CURLINFO, ...);
    struct curl_slist *(*slist_append)(struct curl_slist *, const char *);
    void (*slist_free_all)(struct curl_slist *);
    curl_mime *(*mime_init)(CURL *);
    void (*mime_free)(curl_mime *);
    curl_mimepart *(*mime_addpart)(curl_mime *);
    CURLcode (*mime_name)(curl_mimepart *, const char *);
    CURLcode (*mime_filename)(curl_mimepart *, const char *);
    CURLcode (*mime_type)(curl_mimepart *, const char *);
    CURLcode (*mime_data)(curl_mimepart *, const char *, size_t);
    CURLcode (*mime_data_cb)(curl_mimepart *, curl_off_t, curl_read_callback, curl_seek_callback, curl_free_callback, void *);
} curl;

static int initialize(char *error, size_t size) {
    if (curl.global_init(CURL_GLOBAL_DEFAULT) == CURLE_OK) return 0;
    snprintf(error, size, "curl_global_init failed");
    return -1;
}

static struct share_library library = {
    .sonames = {"libcurl.so.4"},
    .symbols = (const struct share_symbol[]){
        {"curl_global_init", &curl.global_init}, {"curl_easy_init", &curl.easy_init},
        {"curl_easy_cleanup", &curl.easy_cleanup}, {"curl_easy_perform", &curl.easy_perform},
        {"curl_easy_strerror", &curl.easy_strerror}, {"curl_easy_setopt", &curl.easy_setopt},
        {"curl_easy_getinfo", &curl.easy_getinfo}, {"curl_slist_append", &curl.slist_append},
        {"curl_slist_free_all", &curl.slist_free_all}, {"curl_mime_init", &curl.mime_init},
        {"curl_mime_free", &curl.mime_free}, {"curl_mime_addpart", &curl.mime_addpart},
        {"curl_mime_name", &curl.mime_name}, {"curl_mime_filename", &curl.mime_filename},
        {"curl_mime_type", &curl.mime_type}, {"curl_mime_data", &curl.mime_data},
        {"curl_mime_data_cb", &curl.mime_data_cb}, {NULL, NULL}},
    .initialize = initialize,
};

int share_curl_load(char *error, size_t size) { return share_library_load(&library, error, size); }

/* Every function below is called only after share_curl_load returned 0. */
CURLcode share_curl_global_init(long flags) { return curl.global_init(flags); }
CURL *share_curl_easy_init(void) { return curl.easy_init(); }
void share_curl_easy_cleanup(CURL *handle) { curl.easy_cleanup(handle); }
CURLcode share_curl_easy_perform(CURL *handle) { return curl.easy_perform(handle); }
const char *share_curl_easy_strerror(CURLcode code) { return curl.easy_strerror(code); }
struct curl_slist *share_curl_slist_append(struct curl_slist *list, const char *text) {
    return curl.slist_append(list, text);
}
void share_curl_slist_free_all(struct curl_slist *list) { curl.slist_free_all(list); }
curl_mime *share_curl_mime_init(CURL *handle) { return curl.mime_init(handle); }
void share_curl_mime_free(curl_mime *mime) { curl.mime_free(mime); }
curl_mimepart *share_curl_mime_addpart(curl_mime *mime) { return curl.mime_addpart(mime); }
CURLcode share_curl_mime_name(curl_mimepart *part, const char *name) { return curl.mime_name(part, name); }
CURLcode share_curl_mime_filename(curl_mimepart *part, const char *filename) { return curl.mime_filename(part, filename); }
CURLcode share_curl_mime_type(curl_mimepart *part, const char *type) { return curl.mime_type(part, type); }
CURLcode share_curl_mime_data(curl_mimepart *part, const void *data, size_t length) {
    return curl.mime_data(part, data, length);
}
CURLcode share_curl_mime_data_cb(curl_mimepart *part, curl_off_t length, curl_read_callback read,
                                 curl_seek_callback seek, void *context) {
    return curl.mime_data_cb(part, length, read, seek, NULL, context);
}
CURLcode share_curl_setopt_mime(CURL *handle, CURLoption option, curl_mime *mime) {
    return curl.easy_setopt(handle, option, mime);
}

CURLcode share_curl_setopt_long(CURL *handle, CURLoption option, long value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode share_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode share_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode share_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
    return curl.easy_setopt(handle, option, value);
}
CURLcode share_curl_setopt_read_function(CURL *handle, curl_read_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_READFUNCTION, callback);
}
CURLcode share_curl_setopt_debug_function(CURL *handle, curl_debug_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_DEBUGFUNCTION, callback);
}
CURLcode share_curl_setopt_write_function(CURL *handle, curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, callback);
}
CURLcode share_curl_setopt_header_function(CURL *handle, curl_write_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, callback);
}
CURLcode share_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback) {
    return curl.easy_setopt(handle, CURLOPT_XFERINFOFUNCTION, callback);
}
CURLcode share_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
    return curl.easy_getinfo(handle, info, value);
}
CURLcode share_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value) {
    return curl.easy_getinfo(handle, info, value);
}

/* libssl's (OpenSSL 3) calls for a verification of our own, objects opaque. */
static struct {
    void (*set_verify)(void *context, int mode, void *callback);
    void (*set_cert_verify_callback)(void *context, int (*callback)(void *store, void *argument), void *argument);
    void *(*leaf)(void *store);
    int (*digest)(const void *cert, const void *type, unsigned char *out, unsigned int *length);
    const void *(*sha256)(void);
} ssl;

static struct share_library ssl_library = {
    .sonames = {"libssl.so.3"},
    .symbols = (const struct share_symbol[]){
        {"SSL_CTX_set_verify", &ssl.set_verify}, {"SSL_CTX_set_cert_verify_callback", &ssl.set_cert_verify_callback},
        /* libcrypto's, found through libssl, which needs it. */
        {"X509_STORE_CTX_get0_cert", &ssl.leaf}, {"X509_digest", &ssl.digest}, {"EVP_sha256", &ssl.sha256}, {NULL, NULL}},
    .missing = "libssl is not installed (Debian: apt install libssl3)",
};

/* In place of the chain's verification: the leaf's digest is the one expected, or the handshake fails. */
static int check_fingerprint(void *store, void *expected) {
    void *cert = ssl.leaf(store);
    unsigned char digest[64];
    unsigned int length = 0;
    if (!cert || ssl.digest(cert, ssl.sha256(), digest, &length) != 1 || length != 32) return 0;
    return memcmp(digest, expected, 32) == 0;
}

/* libcurl hands over each connection's SSL_CTX after setting its own verification mode. */
static CURLcode pin_context(CURL *handle, void *context, void *expected) {
    (void)handle;
    ssl.set_verify(context, 1 /* SSL_VERIFY_PEER: a failed check ends the handshake */, NULL);
    ssl.set_cert_verify_callback(context, check_fingerprint, expected);
    return CURLE_OK;
}

int share_curl_pin_certificate(CURL *handle, const unsigned char *fingerprint, char *error, size_t size) {
    if (share_library_load(&ssl_library, error, size) != 0) return -1;
    if (curl.easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, pin_context) != CURLE_OK ||
        curl.easy_setopt(handle, CURLOPT_SSL_CTX_DATA, fingerprint) != CURLE_OK) {
        snprintf(error, size, "libcurl is not built on OpenSSL, so a certificate cannot be checked by its fingerprint");
        return -1;
    }
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYPEER, 0L);
    curl.easy_setopt(handle, CURLOPT_SSL_VERIFYHOST, 0L);
    /* A resumed session shows no certificate: every connection shows its own. */
    curl.easy_setopt(handle, CURLOPT_SSL_SESSIONID_CACHE, 0L);
    return 0;
}
