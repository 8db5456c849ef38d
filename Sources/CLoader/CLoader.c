#include "CLoader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

/* One lock for every library: dlopen serializes on the C library's own
   lock anyway, and a load happens once per library. */
static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;

/* Every slot back to NULL: a library that failed leaves no function half set. */
static void clear(const struct share_library *library) {
    void *none = NULL;
    for (const struct share_symbol *symbol = library->symbols; symbol && symbol->name; symbol++) {
        memcpy(symbol->slot, &none, sizeof none);
    }
}

static int open_and_resolve(struct share_library *library) {
    void *handle = NULL;
    const char *soname = NULL;
    for (size_t index = 0; index < sizeof library->sonames / sizeof *library->sonames && library->sonames[index]; index++) {
        soname = library->sonames[index];
        handle = dlopen(soname, RTLD_NOW | RTLD_LOCAL);
        if (handle) break;
    }
    if (!handle) {
        const char *reason = library->missing ? library->missing : dlerror();
        snprintf(library->error, sizeof library->error, "%s", reason ? reason : "the library cannot be loaded");
        return -1;
    }
    for (const struct share_symbol *symbol = library->symbols; symbol && symbol->name; symbol++) {
        void *address = dlsym(handle, symbol->name);
        if (!address) {
            snprintf(library->error, sizeof library->error, "%s lacks %s", soname, symbol->name);
            clear(library);
            return -1;
        }
        /* A function pointer has the size of a data pointer (POSIX's dlsym). */
        memcpy(symbol->slot, &address, sizeof address);
    }
    if (library->set_up) (*library->set_up)();
    if (library->initialize && library->initialize(library->error, sizeof library->error) != 0) {
        clear(library);
        return -1;
    }
    return 1;
}

int share_library_load(struct share_library *library, char *error, size_t size) {
    int state = __atomic_load_n(&library->state, __ATOMIC_ACQUIRE);
    if (state == 0) {
        pthread_mutex_lock(&lock);
        state = library->state;
        if (state == 0) {
            state = open_and_resolve(library);
            __atomic_store_n(&library->state, state, __ATOMIC_RELEASE);
        }
        pthread_mutex_unlock(&lock);
    }
    if (state > 0) return 0;
    if (error && size > 0) snprintf(error, size, "%s", library->error);
    return -1;
}
