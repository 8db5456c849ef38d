#include "CIdn2.h"

#include <dlfcn.h>
#include <pthread.h>
#include <string.h>

static struct {
    void *library;
    int (*to_ascii)(const char *, char **, int);
    void (*free_pointer)(void *);
    const char *(*strerror_text)(int);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *library = dlopen("libidn2.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!library) return;
    void *to_ascii = dlsym(library, "idn2_to_ascii_8z");
    void *free_pointer = dlsym(library, "idn2_free");
    void *strerror_text = dlsym(library, "idn2_strerror");
    if (!to_ascii || !free_pointer || !strerror_text) return;
    memcpy(&lib.to_ascii, &to_ascii, sizeof to_ascii);
    memcpy(&lib.free_pointer, &free_pointer, sizeof free_pointer);
    memcpy(&lib.strerror_text, &strerror_text, sizeof strerror_text);
    lib.library = library;
}

int share_idn2_to_ascii_8z(const char *input, char **output, int flags) {
    pthread_once(&once, load);
    if (!lib.library) {
        *output = NULL;
        return -1000;
    }
    return lib.to_ascii(input, output, flags);
}

void share_idn2_free(void *pointer) {
    if (lib.library && pointer) lib.free_pointer(pointer);
}

const char *share_idn2_strerror(int code) {
    if (code == -1000) return "libidn2 is not installed (apt install libidn2-0)";
    return lib.library ? lib.strerror_text(code) : "libidn2 is not available";
}
