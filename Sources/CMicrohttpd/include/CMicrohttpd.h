#ifndef SHARE_CMICROHTTPD_H
#define SHARE_CMICROHTTPD_H
/* libmicrohttpd (Nearby's HTTP server) from Swift.

   Loaded with dlopen the first time Nearby serves, not linked: linking it
   would load it and GnuTLS at every start of share, which the picker never
   needs. The header is used for its types and constants; the functions are
   called through the table share_mhd_load returns. The variadic ones
   (starting a daemon, asking it and a connection things) are called here,
   in C, by the helpers below. */
#include <stddef.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>

#define SHARE_MHD_FUNCTIONS(X)                                                       \
    X(MHD_start_daemon)                                                             \
    X(MHD_stop_daemon)                                                              \
    X(MHD_get_daemon_info)                                                          \
    X(MHD_get_connection_info)                                                      \
    X(MHD_lookup_connection_value)                                                  \
    X(MHD_create_response_from_buffer)                                              \
    X(MHD_create_response_from_callback)                                            \
    X(MHD_create_response_from_fd_at_offset64)                                      \
    X(MHD_add_response_header)                                                      \
    X(MHD_queue_response)                                                           \
    X(MHD_destroy_response)

/* The functions of libmicrohttpd share calls. */
struct share_mhd {
#define SHARE_MHD_FIELD(name) __typeof__(name) *name;
    SHARE_MHD_FUNCTIONS(SHARE_MHD_FIELD)
#undef SHARE_MHD_FIELD
};

/* Loads libmicrohttpd.so.12 once (thread-safe). Returns the table, or NULL
   with a message in error. */
const struct share_mhd *share_mhd_load(char *error, size_t size);

/* Starts a daemon on address (its port 0: a free one), a thread for each
   connection, at most connections at a time and per_address from one
   client address (more are closed as they come), each closed after
   timeout seconds of silence. handler answers requests, completed hears when one
   ends (sent whole or cut), notify when a connection opens and closes.
   Returns NULL on failure, with errno set. */
struct MHD_Daemon *share_mhd_start(const struct share_mhd *mhd, const struct sockaddr *address, unsigned connections,
                                   unsigned per_address, unsigned timeout, MHD_AccessHandlerCallback handler, void *handler_cls,
                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                   MHD_NotifyConnectionCallback notify, void *notify_cls);

/* Answers one request of a small JSON API: its method, path (with the
   query), client address and body (the whole of it, at most 64 KiB).
   Writes the answer's body into answer (at most answer_size bytes),
   sets *answer_length and returns the HTTP status. Called on the
   connection's thread. */
typedef unsigned (*share_mhd_json_handler)(void *context, const char *method, const char *url, const char *client,
                                           const char *body, size_t length, char *answer, size_t answer_size,
                                           size_t *answer_length);

/* Starts a daemon for a small JSON API on address (its port 0: a free
   one): TLS with the PEM key and cert when both are given (they are
   kept by the caller while it runs), plain HTTP otherwise; a thread per connection, 32 connections
   at most and 8 per client, closed after 10 s of silence. A body longer
   than 64 KiB is answered 413 without handler. Returns NULL on failure,
   with errno set. */
struct MHD_Daemon *share_mhd_start_json(const struct share_mhd *mhd, const struct sockaddr *address, const char *key,
                                        const char *cert, share_mhd_json_handler handler, void *context);

/* Constants Swift cannot import as they are (closed enums, casts in macros). */
static inline enum MHD_Result share_mhd_yes(void) { return MHD_YES; }
static inline enum MHD_Result share_mhd_no(void) { return MHD_NO; }
static inline enum MHD_ResponseMemoryMode share_mhd_must_copy(void) { return MHD_RESPMEM_MUST_COPY; }
static inline enum MHD_ValueKind share_mhd_header_kind(void) { return MHD_HEADER_KIND; }
static inline uint64_t share_mhd_size_unknown(void) { return MHD_SIZE_UNKNOWN; }
static inline ssize_t share_mhd_end_of_stream(void) { return MHD_CONTENT_READER_END_OF_STREAM; }
static inline ssize_t share_mhd_end_with_error(void) { return MHD_CONTENT_READER_END_WITH_ERROR; }
static inline int share_mhd_completed_ok(enum MHD_RequestTerminationCode code) { return code == MHD_REQUEST_TERMINATED_COMPLETED_OK; }
static inline int share_mhd_connection_opened(enum MHD_ConnectionNotificationCode code) { return code == MHD_CONNECTION_NOTIFY_STARTED; }

/* The port the daemon listens on, or 0. */
uint16_t share_mhd_port(const struct share_mhd *mhd, struct MHD_Daemon *daemon);

/* The connection's socket, or -1. */
int share_mhd_socket(const struct share_mhd *mhd, struct MHD_Connection *connection);

/* How many bytes of what was sent on the TCP socket the peer has
   acknowledged (TCP_INFO's tcpi_bytes_acked), or -1. */
int64_t share_socket_bytes_acked(int socket);

/* Has the socket take no more to send while bytes or more of what it
   holds are not sent yet (TCP_NOTSENT_LOWAT): what is in flight is not
   limited, only what waits behind it. 0, or -1 with errno. */
int share_socket_limit_unsent(int socket, int bytes);

/* The client's address as text (numeric) in buffer; 0, or -1 when unknown. */
int share_mhd_client(const struct share_mhd *mhd, struct MHD_Connection *connection, char *buffer, size_t size);
#endif
