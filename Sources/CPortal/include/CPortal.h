#ifndef SHARE_CPORTAL_H
#define SHARE_CPORTAL_H
/* The desktop's Email portal backend (org.freedesktop.impl.portal.Email)
   on the session bus through sd-bus, and descriptors passed over a Unix
   socket (SCM_RIGHTS) from share-portal to the share that composes.

   libsystemd is loaded with dlopen when share-portal starts: share itself
   never loads it. One thread runs the bus (share_portal_open, then
   share_portal_next in a loop); share_portal_reply may be called from any
   thread. */
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* A ComposeEmail call, as the portal frontend passes it on. Absent
   options are NULL; lists end with NULL. */
struct share_portal_request {
    uint64_t id;
    char *app_id;
    char *address;
    char *subject;
    char *body;
    char **addresses;
    char **cc;
    char **bcc;
    char **attachments;
};

/* Connects to the session bus, serves the Email interface at
   /org/freedesktop/portal/desktop and takes the bus name `name`.
   Returns 0, or -1 with the reason in error. */
int share_portal_open(const char *name, char *error, size_t size);

/* Runs the bus until a ComposeEmail call arrives (1, request filled),
   timeout_ms passes or a reply was sent (0), or the bus fails (-1, the
   reason in error). Replies queued by share_portal_reply go out here. */
int share_portal_next(struct share_portal_request *request, int timeout_ms, char *error, size_t size);

/* Frees what share_portal_next put in request. */
void share_portal_request_free(struct share_portal_request *request);

/* Queues the answer to request `id` (response 0 sent, 1 cancelled, 2
   ended otherwise) and wakes the bus thread. Any thread. */
void share_portal_reply(uint64_t id, uint32_t response);

/* How many calls still wait for their answer. Bus thread only. */
int share_portal_pending(void);

/* Sends count bytes with descriptors fds[0..<fd_count] on a connected
   Unix socket. Returns 0, or -1 with errno set. */
int share_send_descriptors(int socket, const void *bytes, size_t count, const int *fds, size_t fd_count);

/* Receives at most capacity bytes and at most fd_capacity descriptors
   (close-on-exec) from a Unix socket. Returns the bytes read (0 at the
   end), with *fd_count set, or -1 with errno set; descriptors beyond
   fd_capacity are closed and make it fail with EMSGSIZE. */
ssize_t share_receive_descriptors(int socket, void *bytes, size_t capacity, int *fds, size_t fd_capacity, size_t *fd_count);

/* The user id of a Unix socket's peer, or -1. */
long share_peer_uid(int socket);
#endif
