#include "CMicrohttpd.h"

#include "CLoader.h"

#include <linux/tcp.h>
#include <errno.h>
#include <netdb.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

static struct share_mhd table;

static struct share_library library = {
    .sonames = {"libmicrohttpd.so.12"},
    .symbols = (const struct share_symbol[]){SHARE_MHD_FUNCTIONS(SHARE_TABLE_SYMBOL) {NULL, NULL}},
};

const struct share_mhd *share_mhd_load(char *error, size_t size) {
    return share_library_load(&library, error, size) == 0 ? &table : NULL;
}

struct MHD_Daemon *share_mhd_start(const struct share_mhd *mhd, const struct sockaddr *address, unsigned connections,
                                   unsigned per_address, unsigned timeout, MHD_AccessHandlerCallback handler, void *handler_cls,
                                   MHD_RequestCompletedCallback completed, void *completed_cls,
                                   MHD_NotifyConnectionCallback notify, void *notify_cls) {
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    return mhd->MHD_start_daemon(flags, 0, NULL, NULL, handler, handler_cls,
                                 MHD_OPTION_SOCK_ADDR, address,
                                 MHD_OPTION_CONNECTION_LIMIT, connections,
                                 MHD_OPTION_PER_IP_CONNECTION_LIMIT, per_address,
                                 /* Room for big reads and writes: a body goes through this buffer. */
                                 MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(1 << 20),
                                 MHD_OPTION_CONNECTION_TIMEOUT, timeout,
                                 MHD_OPTION_NOTIFY_COMPLETED, completed, completed_cls,
                                 MHD_OPTION_NOTIFY_CONNECTION, notify, notify_cls,
                                 MHD_OPTION_END);
}

uint16_t share_mhd_port(const struct share_mhd *mhd, struct MHD_Daemon *daemon) {
    const union MHD_DaemonInfo *info = mhd->MHD_get_daemon_info(daemon, MHD_DAEMON_INFO_BIND_PORT);
    return info ? info->port : 0;
}

int share_mhd_socket(const struct share_mhd *mhd, struct MHD_Connection *connection) {
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    return info ? info->connect_fd : -1;
}

int64_t share_socket_bytes_acked(int socket) {
    struct tcp_info info;
    socklen_t length = sizeof info;
    if (getsockopt(socket, IPPROTO_TCP, TCP_INFO, &info, &length) != 0) return -1;
    if (length < offsetof(struct tcp_info, tcpi_bytes_acked) + sizeof info.tcpi_bytes_acked) return -1;
    return (int64_t)info.tcpi_bytes_acked;
}

int share_socket_limit_unsent(int socket, int bytes) {
    return setsockopt(socket, IPPROTO_TCP, TCP_NOTSENT_LOWAT, &bytes, sizeof bytes);
}

int share_mhd_client(const struct share_mhd *mhd, struct MHD_Connection *connection, char *buffer, size_t size) {
    const union MHD_ConnectionInfo *info = mhd->MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
    if (!info || !info->client_addr) return -1;
    socklen_t length = info->client_addr->sa_family == AF_INET6 ? sizeof(struct sockaddr_in6) : sizeof(struct sockaddr_in);
    return getnameinfo(info->client_addr, length, buffer, size, NULL, 0, NI_NUMERICHOST) == 0 ? 0 : -1;
}

/* A JSON daemon's handler and its context; one per daemon, kept for its life. */
struct json_server {
    const struct share_mhd *mhd;
    share_mhd_json_handler handler;
    void *context;
};

/* A request's body as it arrives. */
struct json_body {
    size_t length;
    int too_long;
    char data[65536];
};

static enum MHD_Result json_access(void *cls, struct MHD_Connection *connection, const char *url, const char *method,
                                   const char *version, const char *upload, size_t *upload_size, void **state) {
    (void)version;
    struct json_server *server = cls;
    struct json_body *body = *state;
    if (!body) {
        body = calloc(1, sizeof *body);
        if (!body) return MHD_NO;
        *state = body;
        return MHD_YES;
    }
    if (*upload_size > 0) {
        if (body->length + *upload_size > sizeof body->data) body->too_long = 1;
        else {
            memcpy(body->data + body->length, upload, *upload_size);
            body->length += *upload_size;
        }
        *upload_size = 0;
        return MHD_YES;
    }
    char client[64] = "";
    share_mhd_client(server->mhd, connection, client, sizeof client);
    char answer[8192];
    size_t length = 0;
    unsigned status = body->too_long ? 413
        : server->handler(server->context, method, url, client, body->data, body->length, answer, sizeof answer, &length);
    if (length > sizeof answer) length = 0;
    struct MHD_Response *response = server->mhd->MHD_create_response_from_buffer(length, answer, MHD_RESPMEM_MUST_COPY);
    if (!response) return MHD_NO;
    if (length > 0) server->mhd->MHD_add_response_header(response, "Content-Type", "application/json");
    enum MHD_Result result = server->mhd->MHD_queue_response(connection, status, response);
    server->mhd->MHD_destroy_response(response);
    return result;
}

static void json_completed(void *cls, struct MHD_Connection *connection, void **state, enum MHD_RequestTerminationCode code) {
    (void)cls, (void)connection, (void)code;
    free(*state);
    *state = NULL;
}

struct MHD_Daemon *share_mhd_start_json(const struct share_mhd *mhd, const struct sockaddr *address, const char *key,
                                        const char *cert, share_mhd_json_handler handler, void *context) {
    struct json_server *server = malloc(sizeof *server);
    if (!server) return NULL;
    *server = (struct json_server){mhd, handler, context};
    unsigned int flags = MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_THREAD_PER_CONNECTION;
    if (address->sa_family == AF_INET6) flags |= MHD_USE_IPv6;
    int tls = key && cert;
    if (tls) flags |= MHD_USE_TLS;
    struct MHD_Daemon *daemon = mhd->MHD_start_daemon(flags, 0, NULL, NULL, json_access, server,
                                                      MHD_OPTION_SOCK_ADDR, address,
                                                      MHD_OPTION_CONNECTION_LIMIT, 32u,
                                                      MHD_OPTION_PER_IP_CONNECTION_LIMIT, 8u,
                                                      MHD_OPTION_CONNECTION_TIMEOUT, 10u,
                                                      MHD_OPTION_NOTIFY_COMPLETED, json_completed, NULL,
                                                      tls ? MHD_OPTION_HTTPS_MEM_KEY : MHD_OPTION_END, key,
                                                      MHD_OPTION_HTTPS_MEM_CERT, cert,
                                                      MHD_OPTION_END);
    /* The server stays with the daemon: the handler is called until it stops, and it is small. */
    if (!daemon) free(server);
    return daemon;
}
