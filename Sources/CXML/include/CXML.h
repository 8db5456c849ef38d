#ifndef SHARE_CXML_H
#define SHARE_CXML_H
/* libxml2's HTML parser from Swift: a document read as a browser reads
   it (implied and unclosed elements, entities and character references
   decoded, its encoding from <meta charset> when none is given), handed
   over in document order. libxml2 is loaded with dlopen the first time
   HTML is read, never at start-up. */
#include <stddef.h>

/* What share_html_walk reports, in document order (libxml2's reader's
   node types). An element without content reports its start and end. */
enum {
    SHARE_HTML_START = 1,
    SHARE_HTML_TEXT = 3,
    SHARE_HTML_END = 15
};

/* Called with an element's start or end (text: its name, in lower case)
   or a run of text (decoded, UTF-8), both NUL-terminated; returns 0 to go
   on, anything else to stop. */
typedef int (*share_html_visitor)(int kind, const char *text, void *context);

/* Parses length bytes of html, in encoding ("UTF-8"; NULL: as the
   document says, else UTF-8) and calls visit with each start, end and
   text. Returns 0, or -1 with the reason in error (libxml2 missing, out
   of memory). */
int share_html_walk(const char *html, size_t length, const char *encoding, share_html_visitor visit, void *context,
                    char *error, size_t error_size);
#endif
