#define _GNU_SOURCE
#include "CPortal.h"

#include "CLoader.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The types of <systemd/sd-bus.h> that share uses, every object opaque
   (libsystemd0's stable ABI). */
typedef struct sd_bus sd_bus;
typedef struct sd_bus_message sd_bus_message;
typedef struct sd_bus_slot sd_bus_slot;
typedef struct {
    const char *name;
    const char *message;
    int need_free;
} sd_bus_error;
typedef int (*sd_bus_message_handler_t)(sd_bus_message *message, void *data, sd_bus_error *error);

static struct {
    int (*open_user)(sd_bus **bus);
    int (*request_name)(sd_bus *bus, const char *name, uint64_t flags);
    int (*add_object)(sd_bus *bus, sd_bus_slot **slot, const char *path, sd_bus_message_handler_t handler, void *data);
    int (*add_fallback)(sd_bus *bus, sd_bus_slot **slot, const char *prefix, sd_bus_message_handler_t handler, void *data);
    int (*process)(sd_bus *bus, sd_bus_message **message);
    int (*get_fd)(sd_bus *bus);
    int (*get_events)(sd_bus *bus);
    int (*get_timeout)(sd_bus *bus, uint64_t *usec);
    int (*flush)(sd_bus *bus);
    int (*is_method_call)(sd_bus_message *message, const char *interface, const char *member);
    const char *(*get_path)(sd_bus_message *message);
    int (*read_basic)(sd_bus_message *message, char type, void *value);
    int (*read_strv)(sd_bus_message *message, char ***list);
    int (*enter)(sd_bus_message *message, char type, const char *contents);
    int (*exit)(sd_bus_message *message);
    int (*peek_type)(sd_bus_message *message, char *type, const char **contents);
    int (*skip)(sd_bus_message *message, const char *types);
    sd_bus_message *(*ref)(sd_bus_message *message);
    sd_bus_message *(*unref)(sd_bus_message *message);
    int (*new_return)(sd_bus_message *call, sd_bus_message **reply);
    int (*append_basic)(sd_bus_message *message, char type, const void *value);
    int (*open_container)(sd_bus_message *message, char type, const char *contents);
    int (*close_container)(sd_bus_message *message);
    int (*send)(sd_bus *bus, sd_bus_message *message, uint64_t *cookie);
    int (*reply_error)(sd_bus_message *call, const sd_bus_error *error);
} lib;

static struct share_library library = {
    .sonames = {"libsystemd.so.0"},
    .symbols = (const struct share_symbol[]){
        {"sd_bus_open_user", &lib.open_user}, {"sd_bus_request_name", &lib.request_name},
        {"sd_bus_add_object", &lib.add_object}, {"sd_bus_add_fallback", &lib.add_fallback},
        {"sd_bus_process", &lib.process}, {"sd_bus_get_fd", &lib.get_fd}, {"sd_bus_get_events", &lib.get_events},
        {"sd_bus_get_timeout", &lib.get_timeout}, {"sd_bus_flush", &lib.flush},
        {"sd_bus_message_is_method_call", &lib.is_method_call}, {"sd_bus_message_get_path", &lib.get_path},
        {"sd_bus_message_read_basic", &lib.read_basic}, {"sd_bus_message_read_strv", &lib.read_strv},
        {"sd_bus_message_enter_container", &lib.enter}, {"sd_bus_message_exit_container", &lib.exit},
        {"sd_bus_message_peek_type", &lib.peek_type}, {"sd_bus_message_skip", &lib.skip},
        {"sd_bus_message_ref", &lib.ref}, {"sd_bus_message_unref", &lib.unref},
        {"sd_bus_message_new_method_return", &lib.new_return}, {"sd_bus_message_append_basic", &lib.append_basic},
        {"sd_bus_message_open_container", &lib.open_container}, {"sd_bus_message_close_container", &lib.close_container},
        {"sd_bus_send", &lib.send}, {"sd_bus_reply_method_error", &lib.reply_error}, {NULL, NULL}},
    .missing = "libsystemd.so.0 is not installed (apt-get install libsystemd0)",
};

#define EMAIL_INTERFACE "org.freedesktop.impl.portal.Email"
#define REQUEST_INTERFACE "org.freedesktop.impl.portal.Request"
#define OBJECT_PATH "/org/freedesktop/portal/desktop"

static sd_bus *bus;
static int wake[2] = {-1, -1};
static uint64_t last_id;

/* Calls waiting for their answer (bus thread only). */
struct pending { uint64_t id; sd_bus_message *call; };
static struct pending *pending;
static size_t pending_count;

/* Calls read but not yet handed to share_portal_next's caller (bus thread only). */
static struct share_portal_request *incoming;
static size_t incoming_count;

/* Answers queued from any thread. */
struct answer { uint64_t id; uint32_t response; };
static pthread_mutex_t answers_lock = PTHREAD_MUTEX_INITIALIZER;
static struct answer *answers;
static size_t answers_count;

static char *copy(const char *text) { return text ? strdup(text) : NULL; }

static void free_list(char **list) {
    if (!list) return;
    for (char **item = list; *item; item++) free(*item);
    free(list);
}

void share_portal_request_free(struct share_portal_request *request) {
    free(request->app_id);
    free(request->address);
    free(request->subject);
    free(request->body);
    free_list(request->addresses);
    free_list(request->cc);
    free_list(request->bcc);
    free_list(request->attachments);
    memset(request, 0, sizeof *request);
}

/* One option of the vardict: a string for string_slot's keys, a string
   list for list_slot's; anything else is skipped. Returns < 0 on a
   malformed message. */
static int read_option(sd_bus_message *message, struct share_portal_request *request) {
    const char *key = NULL;
    int r = lib.read_basic(message, 's', &key);
    if (r < 0) return r;
    char **string_slot = NULL, ***list_slot = NULL;
    if (strcmp(key, "address") == 0) string_slot = &request->address;
    else if (strcmp(key, "subject") == 0) string_slot = &request->subject;
    else if (strcmp(key, "body") == 0) string_slot = &request->body;
    else if (strcmp(key, "addresses") == 0) list_slot = &request->addresses;
    else if (strcmp(key, "cc") == 0) list_slot = &request->cc;
    else if (strcmp(key, "bcc") == 0) list_slot = &request->bcc;
    else if (strcmp(key, "attachments") == 0) list_slot = &request->attachments;
    char type = 0;
    const char *contents = NULL;
    r = lib.peek_type(message, &type, &contents);
    if (r < 0) return r;
    if (string_slot && contents && strcmp(contents, "s") == 0) {
        const char *value = NULL;
        if ((r = lib.enter(message, 'v', "s")) < 0 || (r = lib.read_basic(message, 's', &value)) < 0) return r;
        free(*string_slot);
        *string_slot = copy(value);
        return lib.exit(message);
    }
    if (list_slot && contents && strcmp(contents, "as") == 0) {
        char **list = NULL;
        if ((r = lib.enter(message, 'v', "as")) < 0 || (r = lib.read_strv(message, &list)) < 0) return r;
        free_list(*list_slot);
        *list_slot = list;
        return lib.exit(message);
    }
    return lib.skip(message, "v");
}

static int reply_error(sd_bus_message *call, const char *name, const char *text) {
    sd_bus_error error = {name, text, 0};
    return lib.reply_error(call, &error);
}

static int handle_desktop(sd_bus_message *message, void *data, sd_bus_error *error) {
    (void)data;
    (void)error;
    if (lib.is_method_call(message, "org.freedesktop.DBus.Properties", "GetAll") > 0) {
        sd_bus_message *reply = NULL;
        int r = lib.new_return(message, &reply);
        if (r >= 0) r = lib.open_container(reply, 'a', "{sv}");
        if (r >= 0) r = lib.close_container(reply);
        if (r >= 0) r = lib.send(bus, reply, NULL);
        if (reply) lib.unref(reply);
        return r < 0 ? r : 1;
    }
    if (lib.is_method_call(message, EMAIL_INTERFACE, "ComposeEmail") <= 0) return 0;
    struct share_portal_request request = {0};
    const char *handle = NULL, *app_id = NULL, *parent_window = NULL;
    int r = lib.read_basic(message, 'o', &handle);
    if (r >= 0) r = lib.read_basic(message, 's', &app_id);
    if (r >= 0) r = lib.read_basic(message, 's', &parent_window);
    if (r >= 0) r = lib.enter(message, 'a', "{sv}");
    while (r >= 0) {
        r = lib.enter(message, 'e', "sv");
        if (r <= 0) break;
        r = read_option(message, &request);
        if (r >= 0) r = lib.exit(message);
    }
    if (r >= 0) r = lib.exit(message);
    if (r < 0) {
        share_portal_request_free(&request);
        return reply_error(message, "org.freedesktop.DBus.Error.InvalidArgs", "ComposeEmail takes (o handle, s app_id, s parent_window, a{sv} options)");
    }
    request.app_id = copy(app_id);
    request.id = ++last_id;
    struct pending *grown = realloc(pending, (pending_count + 1) * sizeof *pending);
    struct share_portal_request *more = realloc(incoming, (incoming_count + 1) * sizeof *incoming);
    if (grown) pending = grown;
    if (more) incoming = more;
    if (!grown || !more) {
        share_portal_request_free(&request);
        return reply_error(message, "org.freedesktop.DBus.Error.NoMemory", "out of memory");
    }
    pending[pending_count++] = (struct pending){request.id, lib.ref(message)};
    incoming[incoming_count++] = request;
    return 1;
}

/* The frontend closes a request when its application does; the compose
   screen stays the user's to finish, and its answer then goes unheard. */
static int handle_request(sd_bus_message *message, void *data, sd_bus_error *error) {
    (void)data;
    (void)error;
    if (lib.is_method_call(message, REQUEST_INTERFACE, "Close") <= 0) return 0;
    sd_bus_message *reply = NULL;
    int r = lib.new_return(message, &reply);
    if (r >= 0) r = lib.send(bus, reply, NULL);
    if (reply) lib.unref(reply);
    return r < 0 ? r : 1;
}

int share_portal_open(const char *name, char *error, size_t size) {
    if (share_library_load(&library, error, size) != 0) return -1;
    int r = lib.open_user(&bus);
    if (r < 0) {
        snprintf(error, size, "cannot connect to the session bus: %s", strerror(-r));
        return -1;
    }
    if (pipe2(wake, O_CLOEXEC | O_NONBLOCK) != 0) {
        snprintf(error, size, "cannot make a pipe: %s", strerror(errno));
        return -1;
    }
    if ((r = lib.add_object(bus, NULL, OBJECT_PATH, handle_desktop, NULL)) < 0
        || (r = lib.add_fallback(bus, NULL, OBJECT_PATH "/request", handle_request, NULL)) < 0) {
        snprintf(error, size, "cannot serve %s: %s", OBJECT_PATH, strerror(-r));
        return -1;
    }
    if ((r = lib.request_name(bus, name, 0)) < 0) {
        snprintf(error, size, r == -EEXIST ? "%s is already served on this session bus" : "cannot take the name %s: %s", name,
                 strerror(-r));
        return -1;
    }
    return 0;
}

/* Sends the queued answers (bus thread). */
static int send_answers(void) {
    pthread_mutex_lock(&answers_lock);
    struct answer *taken = answers;
    size_t count = answers_count;
    answers = NULL;
    answers_count = 0;
    pthread_mutex_unlock(&answers_lock);
    int failed = 0;
    for (size_t a = 0; a < count; a++) {
        for (size_t p = 0; p < pending_count; p++) {
            if (pending[p].id != taken[a].id) continue;
            sd_bus_message *reply = NULL;
            int r = lib.new_return(pending[p].call, &reply);
            if (r >= 0) r = lib.append_basic(reply, 'u', &taken[a].response);
            if (r >= 0) r = lib.open_container(reply, 'a', "{sv}");
            if (r >= 0) r = lib.close_container(reply);
            if (r >= 0) r = lib.send(bus, reply, NULL);
            if (reply) lib.unref(reply);
            if (r < 0) failed = r;
            lib.unref(pending[p].call);
            pending[p] = pending[--pending_count];
            break;
        }
    }
    free(taken);
    return failed;
}

static uint64_t now_usec(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000u + (uint64_t)now.tv_nsec / 1000u;
}

int share_portal_next(struct share_portal_request *request, int timeout_ms, char *error, size_t size) {
    uint64_t deadline = now_usec() + (uint64_t)(timeout_ms < 0 ? 0 : timeout_ms) * 1000u;
    for (;;) {
        int r = send_answers();
        if (r < 0) {
            snprintf(error, size, "cannot answer on the session bus: %s", strerror(-r));
            return -1;
        }
        if (incoming_count > 0) {
            *request = incoming[0];
            memmove(incoming, incoming + 1, --incoming_count * sizeof *incoming);
            return 1;
        }
        r = lib.process(bus, NULL);
        if (r < 0) {
            snprintf(error, size, "the session bus: %s", strerror(-r));
            return -1;
        }
        if (r > 0) continue;
        lib.flush(bus);
        uint64_t now = now_usec(), until = deadline, bus_deadline = 0;
        if (lib.get_timeout(bus, &bus_deadline) >= 0 && bus_deadline < until) until = bus_deadline;
        int wait = until > now ? (int)((until - now + 999) / 1000) : 0;
        struct pollfd fds[2] = {{lib.get_fd(bus), (short)lib.get_events(bus), 0}, {wake[0], POLLIN, 0}};
        if (poll(fds, 2, wait) < 0 && errno != EINTR) {
            snprintf(error, size, "poll: %s", strerror(errno));
            return -1;
        }
        if (fds[1].revents & POLLIN) {
            char drain[64];
            while (read(wake[0], drain, sizeof drain) > 0) {}
            if ((r = send_answers()) < 0) {
                snprintf(error, size, "cannot answer on the session bus: %s", strerror(-r));
                return -1;
            }
            lib.flush(bus);
            return 0;
        }
        if (now_usec() >= deadline && !(fds[0].revents)) return 0;
    }
}

void share_portal_reply(uint64_t id, uint32_t response) {
    pthread_mutex_lock(&answers_lock);
    struct answer *grown = realloc(answers, (answers_count + 1) * sizeof *answers);
    if (grown) {
        answers = grown;
        answers[answers_count++] = (struct answer){id, response};
    }
    pthread_mutex_unlock(&answers_lock);
    if (wake[1] >= 0) (void)!write(wake[1], "", 1);
}

int share_portal_pending(void) { return (int)pending_count; }

int share_send_descriptors(int socket, const void *bytes, size_t count, const int *fds, size_t fd_count) {
    struct iovec vector = {(void *)bytes, count};
    struct msghdr header = {0};
    header.msg_iov = &vector;
    header.msg_iovlen = 1;
    size_t space = CMSG_SPACE(fd_count * sizeof(int));
    char *control = NULL;
    if (fd_count > 0) {
        control = calloc(1, space);
        if (!control) { errno = ENOMEM; return -1; }
        header.msg_control = control;
        header.msg_controllen = space;
        struct cmsghdr *message = CMSG_FIRSTHDR(&header);
        message->cmsg_level = SOL_SOCKET;
        message->cmsg_type = SCM_RIGHTS;
        message->cmsg_len = CMSG_LEN(fd_count * sizeof(int));
        memcpy(CMSG_DATA(message), fds, fd_count * sizeof(int));
    }
    ssize_t sent;
    do { sent = sendmsg(socket, &header, MSG_NOSIGNAL); } while (sent < 0 && errno == EINTR);
    free(control);
    if (sent < 0) return -1;
    if ((size_t)sent < count) {
        /* The descriptors went with the first part; the rest is plain bytes. */
        const char *rest = (const char *)bytes + sent;
        size_t left = count - (size_t)sent;
        while (left > 0) {
            ssize_t more = send(socket, rest, left, MSG_NOSIGNAL);
            if (more < 0 && errno == EINTR) continue;
            if (more <= 0) return -1;
            rest += more;
            left -= (size_t)more;
        }
    }
    return 0;
}

ssize_t share_receive_descriptors(int socket, void *bytes, size_t capacity, int *fds, size_t fd_capacity, size_t *fd_count) {
    *fd_count = 0;
    struct iovec vector = {bytes, capacity};
    struct msghdr header = {0};
    header.msg_iov = &vector;
    header.msg_iovlen = 1;
    char control[CMSG_SPACE(253 * sizeof(int))]; /* SCM_MAX_FD */
    header.msg_control = control;
    header.msg_controllen = sizeof control;
    ssize_t received;
    do { received = recvmsg(socket, &header, MSG_CMSG_CLOEXEC); } while (received < 0 && errno == EINTR);
    if (received < 0) return -1;
    int overflow = (header.msg_flags & MSG_CTRUNC) != 0;
    for (struct cmsghdr *message = CMSG_FIRSTHDR(&header); message; message = CMSG_NXTHDR(&header, message)) {
        if (message->cmsg_level != SOL_SOCKET || message->cmsg_type != SCM_RIGHTS) continue;
        size_t count = (message->cmsg_len - CMSG_LEN(0)) / sizeof(int);
        int *passed = (int *)CMSG_DATA(message);
        for (size_t i = 0; i < count; i++) {
            if (*fd_count < fd_capacity) fds[(*fd_count)++] = passed[i];
            else { close(passed[i]); overflow = 1; }
        }
    }
    if (overflow) {
        for (size_t i = 0; i < *fd_count; i++) close(fds[i]);
        *fd_count = 0;
        errno = EMSGSIZE;
        return -1;
    }
    return received;
}

long share_peer_uid(int socket) {
    struct ucred credentials;
    socklen_t length = sizeof credentials;
    if (getsockopt(socket, SOL_SOCKET, SO_PEERCRED, &credentials, &length) != 0) return -1;
    return (long)credentials.uid;
}
