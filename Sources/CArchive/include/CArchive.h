#ifndef SHARE_CARCHIVE_H
#define SHARE_CARCHIVE_H
/* libarchive (Nearby's zip of several files) from Swift, loaded with dlopen
   the first time a zip is served, never at start-up. The header is used for
   its types and constants; the functions are called through the table
   share_archive_load returns. */
#include <stddef.h>
#include <archive.h>
#include <archive_entry.h>

#define SHARE_ARCHIVE_FUNCTIONS(X)                                                   \
    X(archive_write_new)                                                            \
    X(archive_write_set_format_zip)                                                 \
    X(archive_write_set_options)                                                    \
    X(archive_write_set_bytes_per_block)                                            \
    X(archive_write_set_bytes_in_last_block)                                        \
    X(archive_write_open)                                                           \
    X(archive_write_header)                                                         \
    X(archive_write_data)                                                           \
    X(archive_write_finish_entry)                                                   \
    X(archive_write_close)                                                          \
    X(archive_write_free)                                                           \
    X(archive_error_string)                                                         \
    X(archive_entry_new)                                                            \
    X(archive_entry_free)                                                           \
    X(archive_entry_set_pathname_utf8)                                              \
    X(archive_entry_set_size)                                                       \
    X(archive_entry_set_filetype)                                                   \
    X(archive_entry_set_perm)                                                       \
    X(archive_entry_set_mtime)

/* The functions of libarchive share calls. */
struct share_archive {
#define SHARE_ARCHIVE_FIELD(name) __typeof__(name) *name;
    SHARE_ARCHIVE_FUNCTIONS(SHARE_ARCHIVE_FIELD)
#undef SHARE_ARCHIVE_FIELD
};

/* Loads libarchive.so.13 once (thread-safe). Returns the table, or NULL
   with a message in error. */
const struct share_archive *share_archive_load(char *error, size_t size);

/* AE_IFREG, which Swift cannot import (a cast in a macro). */
static inline unsigned int share_archive_regular_file(void) { return AE_IFREG; }
#endif
