#include "CMagic.h"

#include "CLoader.h"

#define MAGIC_FUNCTIONS(X) X(magic_open) X(magic_close) X(magic_load) X(magic_setparam) X(magic_file) X(magic_buffer) \
    X(magic_error)

static struct {
    MAGIC_FUNCTIONS(SHARE_TABLE_FIELD)
} table;

static struct share_library library = {
    .sonames = {"libmagic.so.1"},
    .symbols = (const struct share_symbol[]){MAGIC_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
};

int share_magic_load_library(char *error, size_t size) { return share_library_load(&library, error, size); }

/* Each call below comes after share_magic_load_library returned 0. */
magic_t share_magic_open(int flags) { return table.magic_open(flags); }
void share_magic_close(magic_t cookie) { table.magic_close(cookie); }
int share_magic_load(magic_t cookie, const char *path) { return table.magic_load(cookie, path); }
int share_magic_setparam(magic_t cookie, int param, const void *value) { return table.magic_setparam(cookie, param, value); }
const char *share_magic_file(magic_t cookie, const char *path) { return table.magic_file(cookie, path); }
const char *share_magic_buffer(magic_t cookie, const void *buffer, size_t length) { return table.magic_buffer(cookie, buffer, length); }
const char *share_magic_error(magic_t cookie) { return table.magic_error(cookie); }
