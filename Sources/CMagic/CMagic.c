#include "CMagic.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

static struct {
    void *library;
    char error[256];
    magic_t (*open)(int);
    void (*close)(magic_t);
    int (*load)(magic_t, const char *);
    int (*setparam)(magic_t, int, const void *);
    const char *(*file)(magic_t, const char *);
    const char *(*buffer)(magic_t, const void *, size_t);
    const char *(*error_text)(magic_t);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static int resolve(void *slot, const char *name) {
    void *symbol = dlsym(lib.library, name);
    if (!symbol) {
        snprintf(lib.error, sizeof lib.error, "libmagic lacks %s", name);
        return 0;
    }
    memcpy(slot, &symbol, sizeof symbol);
    return 1;
}

static void load(void) {
    lib.library = dlopen("libmagic.so.1", RTLD_NOW | RTLD_LOCAL);
    if (!lib.library) {
        snprintf(lib.error, sizeof lib.error, "%s", dlerror());
        return;
    }
    if (!(resolve(&lib.open, "magic_open") && resolve(&lib.close, "magic_close") && resolve(&lib.load, "magic_load")
          && resolve(&lib.setparam, "magic_setparam") && resolve(&lib.file, "magic_file")
          && resolve(&lib.buffer, "magic_buffer") && resolve(&lib.error_text, "magic_error"))) {
        lib.library = NULL;
    }
}

int share_magic_load_library(char *error, size_t size) {
    pthread_once(&once, load);
    if (lib.library) return 0;
    snprintf(error, size, "%s", lib.error);
    return -1;
}

/* Each call below comes after share_magic_load_library returned 0. */
magic_t share_magic_open(int flags) { return lib.open(flags); }
void share_magic_close(magic_t cookie) { lib.close(cookie); }
int share_magic_load(magic_t cookie, const char *path) { return lib.load(cookie, path); }
int share_magic_setparam(magic_t cookie, int param, const void *value) { return lib.setparam(cookie, param, value); }
const char *share_magic_file(magic_t cookie, const char *path) { return lib.file(cookie, path); }
const char *share_magic_buffer(magic_t cookie, const void *buffer, size_t length) { return lib.buffer(cookie, buffer, length); }
const char *share_magic_error(magic_t cookie) { return lib.error_text(cookie); }
