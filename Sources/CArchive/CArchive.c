#include "CArchive.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct share_archive table;
static const struct share_archive *loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libarchive.so.13", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
#define SHARE_ARCHIVE_RESOLVE(name)                                                 \
    *(void **)(&table.name) = dlsym(library, #name);                               \
    if (!table.name) {                                                             \
        snprintf(failure, sizeof failure, "libarchive lacks %s", #name);           \
        return;                                                                    \
    }
    SHARE_ARCHIVE_FUNCTIONS(SHARE_ARCHIVE_RESOLVE)
#undef SHARE_ARCHIVE_RESOLVE
    loaded = &table;
}

const struct share_archive *share_archive_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, size, "%s", failure);
    return loaded;
}
