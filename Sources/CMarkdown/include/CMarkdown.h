#ifndef SHARE_CMARKDOWN_H
#define SHARE_CMARKDOWN_H
/* Markdown to HTML with cmark-gfm (libcmark-gfm and its extensions),
   loaded with dlopen on first use: a mail without Markdown never pays for
   it. */
#include <stddef.h>

/* Renders text (UTF-8, length bytes) as HTML with GitHub's tables,
   autolinks and strikethrough. Raw HTML in the text is escaped, shown as
   the text it is, never passed through. Returns a string the caller frees
   with free(), or NULL with a reason in error. */
char *share_markdown_html(const char *text, size_t length, char *error, size_t error_size);
#endif
