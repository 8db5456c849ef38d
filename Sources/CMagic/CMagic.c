#include "CMagic.h"

#include "CLoader.h"

static struct {
    magic_t (*open)(int);
    void (*close)(magic_t);
    int (*load)(magic_t, const char *);
    int (*setparam)(magic_t, int, const void *);
    const char *(*file)(magic_t, const char *);
    const char *(*buffer)(magic_t, const void *, size_t);
    const char *(*error_text)(magic_t);
} lib;

static struct share_library library = {
    .sonames = {"libmagic.so.1"},
    .symbols = (const struct share_symbol[]){
        {"magic_open", &lib.open}, {"magic_close", &lib.close}, {"magic_load", &lib.load},
        {"magic_setparam", &lib.setparam}, {"magic_file", &lib.file}, {"magic_buffer", &lib.buffer},
        {"magic_error", &lib.error_text}, {NULL, NULL}},
};

int share_magic_load_library(char *error, size_t size) { return share_library_load(&library, error, size); }

/* Each call below comes after share_magic_load_library returned 0. */
magic_t share_magic_open(int flags) { return lib.open(flags); }
void share_magic_close(magic_t cookie) { lib.close(cookie); }
int share_magic_load(magic_t cookie, const char *path) { return lib.load(cookie, path); }
int share_magic_setparam(magic_t cookie, int param, const void *value) { return lib.setparam(cookie, param, value); }
const char *share_magic_file(magic_t cookie, const char *path) { return lib.file(cookie, path); }
const char *share_magic_buffer(magic_t cookie, const void *buffer, size_t length) { return lib.buffer(cookie, buffer, length); }
const char *share_magic_error(magic_t cookie) { return lib.error_text(cookie); }
