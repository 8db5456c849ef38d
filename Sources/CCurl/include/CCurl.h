#ifndef SHARE_CCURL_H
#define SHARE_CCURL_H
/* libcurl from Swift.

   libcurl is loaded with dlopen the first time mail is sent, not linked:
   linking it pulls some thirty libraries (TLS, Kerberos, LDAP, SSH …) into
   every start of share, which costs milliseconds and megabytes that the
   picker and --list never need. The header is only used for its types and
   constants.

   curl_easy_setopt and curl_easy_getinfo are variadic, which Swift cannot
   call, so each argument type gets a typed wrapper. */
#include <curl/curl.h>
#include <stddef.h>

/* Loads libcurl once (thread-safe). Returns 0, or -1 with a message in error. */
int share_curl_load(char *error, size_t size);

CURLcode share_curl_global_init(long flags);
CURL *share_curl_easy_init(void);
void share_curl_easy_cleanup(CURL *handle);
CURLcode share_curl_easy_perform(CURL *handle);
const char *share_curl_easy_strerror(CURLcode code);
struct curl_slist *share_curl_slist_append(struct curl_slist *list, const char *text);
void share_curl_slist_free_all(struct curl_slist *list);

/* A multipart/form-data body (CURLOPT_MIMEPOST): its parts' names, file
   names and types escaped and written by libcurl. A part's bytes are
   copied (share_curl_mime_data) or read as they are sent, through read
   and seek with context (no free function: context is the caller's). */
curl_mime *share_curl_mime_init(CURL *handle);
void share_curl_mime_free(curl_mime *mime);
curl_mimepart *share_curl_mime_addpart(curl_mime *mime);
CURLcode share_curl_mime_name(curl_mimepart *part, const char *name);
CURLcode share_curl_mime_filename(curl_mimepart *part, const char *filename);
CURLcode share_curl_mime_type(curl_mimepart *part, const char *type);
CURLcode share_curl_mime_data(curl_mimepart *part, const void *data, size_t length);
CURLcode share_curl_mime_data_cb(curl_mimepart *part, curl_off_t length, curl_read_callback read,
                                 curl_seek_callback seek, void *context);

CURLcode share_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode share_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode share_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode share_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode share_curl_setopt_mime(CURL *handle, CURLoption option, curl_mime *value);
CURLcode share_curl_setopt_read_function(CURL *handle, curl_read_callback callback);
CURLcode share_curl_setopt_debug_function(CURL *handle, curl_debug_callback callback);
CURLcode share_curl_setopt_write_function(CURL *handle, curl_write_callback callback);
CURLcode share_curl_setopt_header_function(CURL *handle, curl_write_callback callback);
CURLcode share_curl_setopt_xferinfo_function(CURL *handle, curl_xferinfo_callback callback);
CURLcode share_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
CURLcode share_curl_getinfo_offset(CURL *handle, CURLINFO info, curl_off_t *value);

/* Has handle accept only a server whose certificate has the SHA-256
   digest fingerprint (32 bytes of the leaf's DER, as LocalSend announces
   it; kept by the caller until the transfer ends), checked inside the TLS
   handshake, before a byte of the request is sent. Certificate
   authorities and names are not looked at: a self-signed peer known by
   its fingerprint. libssl's verification callback is reached through
   CURLOPT_SSL_CTX_FUNCTION, so libcurl must be built on OpenSSL (Debian's
   libcurl4 is). Returns 0, or -1 with a message in error. */
int share_curl_pin_certificate(CURL *handle, const unsigned char *fingerprint, char *error, size_t size);
#endif
