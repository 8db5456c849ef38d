#include "CIdn2.h"

#include "CLoader.h"

#define IDN2_FUNCTIONS(X) X(idn2_to_ascii_8z) X(idn2_free) X(idn2_strerror)

static struct {
    IDN2_FUNCTIONS(SHARE_TABLE_FIELD)
} table;

static struct share_library library = {
    .sonames = {"libidn2.so.0"},
    .symbols = (const struct share_symbol[]){IDN2_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
};

int share_idn2_to_ascii_8z(const char *input, char **output, int flags) {
    if (share_library_load(&library, NULL, 0) != 0) {
        *output = NULL;
        return -1000;
    }
    return table.idn2_to_ascii_8z(input, output, flags);
}

void share_idn2_free(void *pointer) {
    if (pointer && share_library_load(&library, NULL, 0) == 0) table.idn2_free(pointer);
}

const char *share_idn2_strerror(int code) {
    if (code == -1000) return "libidn2 is not installed (apt install libidn2-0)";
    return share_library_load(&library, NULL, 0) == 0 ? table.idn2_strerror(code) : "libidn2 is not available";
}
