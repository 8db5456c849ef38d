#include "CXML.h"

#include "CLoader.h"

#include <limits.h>
#include <stdio.h>

/* The prototypes of <libxml/HTMLparser.h>, <libxml/xmlreader.h> and
   <libxml/parser.h> (libxml2 2.x's ABI), the document and the reader kept
   opaque: only functions are called, no structure is read. */
enum {
    HTML_PARSE_RECOVER = 1 << 0,
    HTML_PARSE_NOERROR = 1 << 5,
    HTML_PARSE_NOWARNING = 1 << 6,
    HTML_PARSE_NONET = 1 << 11,
    XML_READER_TYPE_ELEMENT = 1,
    XML_READER_TYPE_TEXT = 3,
    XML_READER_TYPE_CDATA = 4,
    XML_READER_TYPE_WHITESPACE = 13,
    XML_READER_TYPE_SIGNIFICANT_WHITESPACE = 14,
    XML_READER_TYPE_END_ELEMENT = 15,
};

static struct {
    void (*init)(void);
    void *(*read_memory)(const char *buffer, int size, const char *url, const char *encoding, int options);
    void (*free_document)(void *document);
    void *(*walker)(void *document);
    void (*free_reader)(void *reader);
    int (*read)(void *reader);
    int (*node_type)(void *reader);
    int (*is_empty)(void *reader);
    const unsigned char *(*name)(void *reader);
    const unsigned char *(*value)(void *reader);
} lib;

static struct share_library library = {
    .sonames = {"libxml2.so.2"},
    .symbols = (const struct share_symbol[]){
        {"xmlInitParser", &lib.init}, {"htmlReadMemory", &lib.read_memory}, {"xmlFreeDoc", &lib.free_document},
        {"xmlReaderWalker", &lib.walker}, {"xmlFreeTextReader", &lib.free_reader}, {"xmlTextReaderRead", &lib.read},
        {"xmlTextReaderNodeType", &lib.node_type}, {"xmlTextReaderIsEmptyElement", &lib.is_empty},
        {"xmlTextReaderConstLocalName", &lib.name}, {"xmlTextReaderConstValue", &lib.value}, {NULL, NULL}},
    .missing = "libxml2 is not installed (Debian: apt install libxml2)",
    /* libxml2 sets up its globals once, before any thread parses. */
    .set_up = &lib.init,
};

int share_html_walk(const char *html, size_t length, const char *encoding, share_html_visitor visit, void *context,
                    char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    if (length > INT_MAX) {
        snprintf(error, error_size, "the document is too long");
        return -1;
    }
    /* No network (no DTD fetched), and no words on stderr about the markup. */
    void *document = lib.read_memory(length ? html : "", (int)length, NULL, encoding,
                                     HTML_PARSE_RECOVER | HTML_PARSE_NOERROR | HTML_PARSE_NOWARNING | HTML_PARSE_NONET);
    /* An empty document has no tree: nothing to report. */
    if (!document) return 0;
    void *reader = lib.walker(document);
    if (!reader) {
        lib.free_document(document);
        snprintf(error, error_size, "libxml2 could not read the document");
        return -1;
    }
    int stopped = 0;
    while (!stopped && lib.read(reader) == 1) {
        const char *name = (const char *)lib.name(reader);
        switch (lib.node_type(reader)) {
        case XML_READER_TYPE_ELEMENT:
            stopped = visit(SHARE_HTML_START, name, context);
            if (!stopped && lib.is_empty(reader) == 1) stopped = visit(SHARE_HTML_END, name, context);
            break;
        case XML_READER_TYPE_END_ELEMENT:
            stopped = visit(SHARE_HTML_END, name, context);
            break;
        case XML_READER_TYPE_TEXT:
        case XML_READER_TYPE_CDATA:
        case XML_READER_TYPE_WHITESPACE:
        case XML_READER_TYPE_SIGNIFICANT_WHITESPACE:
            stopped = visit(SHARE_HTML_TEXT, (const char *)lib.value(reader), context);
            break;
        default:
            break;
        }
    }
    lib.free_reader(reader);
    lib.free_document(document);
    return 0;
}
