#ifndef SHARE_CLOADER_H
#define SHARE_CLOADER_H
/* One C library loaded with dlopen on first use, for the shims of the
   libraries share never links (see DECISIONS.md, "Start-up"): the first
   call opens it, fills a table of its functions with dlsym and keeps the
   reason when it cannot; every later call, on any thread, gets the same
   answer at once. */
#include <stddef.h>

/* A function to resolve: its name in the library and the address of the
   function pointer it is written to. */
struct share_symbol {
    const char *name;
    void *slot;
};

/* An entry of a symbol list for a table named `table` whose fields are
   named as their functions: the X of a shim's list of functions
   (FUNCTIONS(SHARE_TABLE_SYMBOL) writes every entry but the last). */
#define SHARE_TABLE_SYMBOL(name) {#name, &table.name},

/* A field of such a table, typed as the function its library's header
   declares: the X of FUNCTIONS(SHARE_TABLE_FIELD) inside the struct. */
#define SHARE_TABLE_FIELD(name) __typeof__(name) *name;

/* A library to load. The shim sets the first five fields (in a static
   object, so the rest starts at zero); the loader keeps the rest. */
struct share_library {
    /* The sonames to try, in order, up to the first NULL. */
    const char *sonames[4];
    /* The functions to resolve, ending with { NULL, NULL }. All of them
       must resolve for the library to load; when it fails, every slot is
       left NULL. */
    const struct share_symbol *symbols;
    /* The reason given when no soname opens (how to install the library),
       or NULL for dlerror()'s. */
    const char *missing;
    /* NULL, or called once after every symbol is resolved (the library's
       own set-up): 0, or non-zero with the reason in error. It must not
       load a library itself. */
    int (*initialize)(char *error, size_t size);
    /* NULL, or the slot of one of the symbols, a function of no arguments
       called once after every symbol is resolved: the library's own set-up
       that cannot fail (xmpp_initialize, xmlInitParser). */
    void (**set_up)(void);

    int state;          /* 0 not tried yet, 1 loaded, -1 failed: the loader's */
    char error[256];    /* why it failed: the loader's */
};

/* Loads library on the first call (thread-safe, once in the process).
   Returns 0, or -1 with the reason in error (when error is not NULL). */
int share_library_load(struct share_library *library, char *error, size_t size);
#endif
