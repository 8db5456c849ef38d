#include "CIdn2.h"

#include "CLoader.h"

static struct {
    int (*to_ascii)(const char *, char **, int);
    void (*free_pointer)(void *);
    const char *(*strerror_text)(int);
} lib;

static struct share_library library = {
    .sonames = {"libidn2.so.0"},
    .symbols = (const struct share_symbol[]){
        {"idn2_to_ascii_8z", &lib.to_ascii}, {"idn2_free", &lib.free_pointer}, {"idn2_strerror", &lib.strerror_text},
        {NULL, NULL}},
};

int share_idn2_to_ascii_8z(const char *input, char **output, int flags) {
    if (share_library_load(&library, NULL, 0) != 0) {
        *output = NULL;
        return -1000;
    }
    return lib.to_ascii(input, output, flags);
}

void share_idn2_free(void *pointer) {
    if (pointer && share_library_load(&library, NULL, 0) == 0) lib.free_pointer(pointer);
}

const char *share_idn2_strerror(int code) {
    if (code == -1000) return "libidn2 is not installed (apt install libidn2-0)";
    return share_library_load(&library, NULL, 0) == 0 ? lib.strerror_text(code) : "libidn2 is not available";
}
