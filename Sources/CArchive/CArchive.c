#include "CArchive.h"

#include "CLoader.h"

static struct share_archive table;

static struct share_library library = {
    .sonames = {"libarchive.so.13"},
    .symbols = (const struct share_symbol[]){SHARE_ARCHIVE_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
};

const struct share_archive *share_archive_load(char *error, size_t size) {
    return share_library_load(&library, error, size) == 0 ? &table : NULL;
}
