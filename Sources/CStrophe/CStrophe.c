#include "CStrophe.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

static struct share_strophe table;
static const struct share_strophe *loaded;
static char failure[256];
static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libstrophe.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        snprintf(failure, sizeof failure, "%s", dlerror());
        return;
    }
#define SHARE_STROPHE_RESOLVE(name)                                                 \
    *(void **)(&table.name) = dlsym(library, #name);                               \
    if (!table.name) {                                                             \
        snprintf(failure, sizeof failure, "libstrophe lacks %s", #name);           \
        return;                                                                    \
    }
    SHARE_STROPHE_FUNCTIONS(SHARE_STROPHE_RESOLVE)
#undef SHARE_STROPHE_RESOLVE
    table.xmpp_initialize();
    loaded = &table;
}

const struct share_strophe *share_strophe_load(char *error, size_t size) {
    pthread_once(&once, load);
    if (!loaded) snprintf(error, size, "%s", failure);
    return loaded;
}
