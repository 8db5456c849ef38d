#include "CMarkdown.h"

#include "CLoader.h"

#include <cmark-gfm.h>
#include <cmark-gfm-core-extensions.h>
#include <stdio.h>
#include <stdlib.h>

#define CORE_FUNCTIONS(X) X(cmark_parser_new) X(cmark_parser_attach_syntax_extension) X(cmark_parser_feed) \
    X(cmark_parser_finish) X(cmark_parser_get_syntax_extensions) X(cmark_parser_free) X(cmark_find_syntax_extension) \
    X(cmark_render_html) X(cmark_node_free) X(cmark_iter_new) X(cmark_iter_next) X(cmark_iter_get_node) X(cmark_iter_free) \
    X(cmark_node_get_type) X(cmark_node_new) X(cmark_node_get_literal) X(cmark_node_set_literal) X(cmark_node_insert_before) \
    X(cmark_node_append_child) X(cmark_node_unlink)
#define EXTENSION_FUNCTIONS(X) X(cmark_gfm_core_extensions_ensure_registered)

/* The functions of both libraries: each library fills its own. */
static struct {
    CORE_FUNCTIONS(SHARE_TABLE_FIELD)
    EXTENSION_FUNCTIONS(SHARE_TABLE_FIELD)
} table;

static struct share_library core_library = {
    .sonames = {"libcmark-gfm.so.0.29.0.gfm.6"},
    .symbols = (const struct share_symbol[]){CORE_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
    .missing = "libcmark-gfm is not installed (Debian: apt install libcmark-gfm0.29.0.gfm.6)",
};

static struct share_library extension_library = {
    .sonames = {"libcmark-gfm-extensions.so.0.29.0.gfm.6"},
    .symbols = (const struct share_symbol[]){EXTENSION_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
    .missing = "libcmark-gfm's extensions are not installed (Debian: apt install libcmark-gfm-extensions0.29.0.gfm.6)",
    /* The tables, autolinks and strikethrough join the registry once. */
    .set_up = &table.cmark_gfm_core_extensions_ensure_registered,
};

/* Raw HTML made text: an inline piece becomes a text node, a block a
   paragraph of it, so the renderer escapes it. Nodes are changed after
   the walk, which must not see its tree change under it. */
static int escape_raw_html(cmark_node *document) {
    cmark_node **found = NULL;
    size_t count = 0, capacity = 0;
    cmark_iter *iter = table.cmark_iter_new(document);
    if (!iter) return -1;
    cmark_event_type event;
    while ((event = table.cmark_iter_next(iter)) != CMARK_EVENT_DONE) {
        cmark_node *node = table.cmark_iter_get_node(iter);
        cmark_node_type type = table.cmark_node_get_type(node);
        if (event != CMARK_EVENT_ENTER || (type != CMARK_NODE_HTML_INLINE && type != CMARK_NODE_HTML_BLOCK)) continue;
        if (count == capacity) {
            capacity = capacity ? capacity * 2 : 16;
            cmark_node **grown = realloc(found, capacity * sizeof *found);
            if (!grown) {
                free(found);
                table.cmark_iter_free(iter);
                return -1;
            }
            found = grown;
        }
        found[count++] = node;
    }
    table.cmark_iter_free(iter);
    int status = 0;
    for (size_t index = 0; index < count && status == 0; index++) {
        cmark_node *node = found[index];
        int block = table.cmark_node_get_type(node) == CMARK_NODE_HTML_BLOCK;
        cmark_node *text = table.cmark_node_new(CMARK_NODE_TEXT);
        cmark_node *replacement = block ? table.cmark_node_new(CMARK_NODE_PARAGRAPH) : text;
        if (!text || !replacement || !table.cmark_node_set_literal(text, table.cmark_node_get_literal(node))
            || (block && !table.cmark_node_append_child(replacement, text))
            || !table.cmark_node_insert_before(node, replacement)) {
            status = -1;
            continue;
        }
        table.cmark_node_unlink(node);
        table.cmark_node_free(node);
    }
    free(found);
    return status;
}

char *share_markdown_html(const char *text, size_t length, char *error, size_t error_size) {
    if (share_library_load(&core_library, error, error_size) != 0) return NULL;
    if (share_library_load(&extension_library, error, error_size) != 0) return NULL;
    cmark_parser *parser = table.cmark_parser_new(CMARK_OPT_DEFAULT);
    if (!parser) {
        snprintf(error, error_size, "cmark-gfm could not start a parser");
        return NULL;
    }
    const char *names[] = {"table", "autolink", "strikethrough"};
    for (size_t index = 0; index < sizeof names / sizeof names[0]; index++) {
        cmark_syntax_extension *extension = table.cmark_find_syntax_extension(names[index]);
        if (!extension || !table.cmark_parser_attach_syntax_extension(parser, extension)) {
            table.cmark_parser_free(parser);
            snprintf(error, error_size, "cmark-gfm has no %s extension", names[index]);
            return NULL;
        }
    }
    table.cmark_parser_feed(parser, text, length);
    cmark_node *document = table.cmark_parser_finish(parser);
    char *html = NULL;
    if (!document || escape_raw_html(document) != 0) {
        snprintf(error, error_size, "cmark-gfm could not read the text");
    } else {
        /* CMARK_OPT_UNSAFE is off: no link to javascript: or data: either. */
        html = table.cmark_render_html(document, CMARK_OPT_DEFAULT, table.cmark_parser_get_syntax_extensions(parser));
        if (!html) snprintf(error, error_size, "cmark-gfm could not write HTML");
    }
    if (document) table.cmark_node_free(document);
    table.cmark_parser_free(parser);
    return html;
}
