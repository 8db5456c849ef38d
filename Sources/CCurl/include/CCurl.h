#ifndef SHARE_CCURL_H
#define SHARE_CCURL_H
/* libcurl from Swift: curl_easy_setopt and curl_easy_getinfo are variadic,
   which Swift cannot call, so each argument type gets a typed setter. */
#include <curl/curl.h>

CURLcode share_curl_setopt_long(CURL *handle, CURLoption option, long value);
CURLcode share_curl_setopt_string(CURL *handle, CURLoption option, const char *value);
CURLcode share_curl_setopt_pointer(CURL *handle, CURLoption option, void *value);
CURLcode share_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value);
CURLcode share_curl_setopt_read_function(CURL *handle, curl_read_callback callback);
CURLcode share_curl_setopt_debug_function(CURL *handle, curl_debug_callback callback);
CURLcode share_curl_getinfo_long(CURL *handle, CURLINFO info, long *value);
#endif
