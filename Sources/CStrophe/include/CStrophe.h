#ifndef SHARE_CSTROPHE_H
#define SHARE_CSTROPHE_H
/* libstrophe (XMPP) from Swift.

   libstrophe is loaded with dlopen the first time a message is sent, not
   linked: linking it would load it, OpenSSL and expat at every start of
   share, which the picker and --list never need (see DECISIONS.md,
   "Start-up"). The header is used for its types and constants; the
   functions are called through the table share_strophe_load returns, one
   field per function, named and typed as the function itself. */
#include <stddef.h>
#include <strophe.h>

#define SHARE_STROPHE_FUNCTIONS(X)                                                   \
    X(xmpp_initialize)                                                              \
    X(xmpp_ctx_new)                                                                 \
    X(xmpp_ctx_free)                                                                \
    X(xmpp_run_once)                                                                \
    X(xmpp_free)                                                                    \
    X(xmpp_uuid_gen)                                                                \
    X(xmpp_conn_new)                                                                \
    X(xmpp_conn_release)                                                            \
    X(xmpp_conn_set_flags)                                                          \
    X(xmpp_conn_set_jid)                                                            \
    X(xmpp_conn_set_pass)                                                           \
    X(xmpp_conn_set_cafile)                                                         \
    X(xmpp_conn_set_certfail_handler)                                               \
    X(xmpp_conn_is_secured)                                                         \
    X(xmpp_conn_get_bound_jid)                                                      \
    X(xmpp_connect_client)                                                          \
    X(xmpp_disconnect)                                                              \
    X(xmpp_handler_add)                                                             \
    X(xmpp_id_handler_add)                                                          \
    X(xmpp_send)                                                                    \
    X(xmpp_send_raw)                                                                \
    X(xmpp_stanza_new_from_string)                                                  \
    X(xmpp_stanza_release)                                                          \
    X(xmpp_stanza_get_name)                                                         \
    X(xmpp_stanza_get_ns)                                                           \
    X(xmpp_stanza_get_type)                                                         \
    X(xmpp_stanza_get_id)                                                           \
    X(xmpp_stanza_get_from)                                                         \
    X(xmpp_stanza_get_attribute)                                                    \
    X(xmpp_stanza_get_child_by_name)                                                \
    X(xmpp_stanza_get_child_by_name_and_ns)                                         \
    X(xmpp_stanza_get_children)                                                     \
    X(xmpp_stanza_get_next)                                                         \
    X(xmpp_stanza_get_text_ptr)                                                     \
    X(xmpp_stanza_is_text)                                                          \
    X(xmpp_stanza_get_attribute_count)                                              \
    X(xmpp_stanza_get_attributes)                                                   \
    X(xmpp_tlscert_get_string)

/* The functions of libstrophe share calls. */
struct share_strophe {
#define SHARE_STROPHE_FIELD(name) __typeof__(name) *name;
    SHARE_STROPHE_FUNCTIONS(SHARE_STROPHE_FIELD)
#undef SHARE_STROPHE_FIELD
};

/* Loads libstrophe.so.0 once (thread-safe) and calls xmpp_initialize.
   Returns the table, or NULL with a message in error. */
const struct share_strophe *share_strophe_load(char *error, size_t size);
#endif
