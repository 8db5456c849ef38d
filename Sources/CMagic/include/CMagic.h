#ifndef SHARE_CMAGIC_H
#define SHARE_CMAGIC_H
/* libmagic, loaded with dlopen the first time a content type is needed:
   linking it loaded it and its three compression libraries at every start,
   picker and --list included. The header is used for types and constants. */
#include <magic.h>
#include <stddef.h>

/* Loads libmagic once (thread-safe). Returns 0, or -1 with a message in error. */
int share_magic_load_library(char *error, size_t size);

magic_t share_magic_open(int flags);
void share_magic_close(magic_t cookie);
int share_magic_load(magic_t cookie, const char *path);
int share_magic_setparam(magic_t cookie, int param, const void *value);
const char *share_magic_file(magic_t cookie, const char *path);
const char *share_magic_buffer(magic_t cookie, const void *buffer, size_t length);
const char *share_magic_error(magic_t cookie);
#endif
