#include "CStrophe.h"

#include "CLoader.h"

static struct share_strophe table;

static struct share_library library = {
    .sonames = {"libstrophe.so.0"},
    .symbols = (const struct share_symbol[]){SHARE_STROPHE_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
    .set_up = &table.xmpp_initialize,
};

const struct share_strophe *share_strophe_load(char *error, size_t size) {
    return share_library_load(&library, error, size) == 0 ? &table : NULL;
}
