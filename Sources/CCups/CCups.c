#include "CCups.h"

#include "CLoader.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

/* The types of <cups/cups.h>, <cups/ipp.h> and <cups/http.h> that share
   uses, unchanged in libcups2's ABI since CUPS 1.x. */
typedef struct _http_s http_t;
typedef struct _ipp_s ipp_t;
typedef struct _ipp_attribute_s ipp_attribute_t;

typedef struct {
    char *name;
    char *value;
} cups_option_t;

typedef struct {
    char *name;
    char *instance;
    int is_default;
    int num_options;
    cups_option_t *options;
} cups_dest_t;

typedef struct {
    int id;
    char *dest;
    char *title;
    char *user;
    char *format;
    int state;
    int size;
    int priority;
    time_t completed_time;
    time_t creation_time;
    time_t processing_time;
} cups_job_t;

enum {
    WHICHJOBS_ALL = -1,
    HTTP_STATUS_CONTINUE = 100,
    HTTP_URI_CODING_ALL = 15,
    IPP_STATUS_OK_CONFLICTING = 2,
    IPP_STATUS_ERROR_NOT_FOUND = 0x0406,
    IPP_OP_GET_JOB_ATTRIBUTES = 0x0009,
    IPP_OP_GET_PRINTER_ATTRIBUTES = 0x000B,
    IPP_OP_CUPS_GET_DEFAULT = 0x4001,
    IPP_TAG_OPERATION = 0x01,
    IPP_TAG_ENUM = 0x23,
    IPP_TAG_TEXT = 0x41,
    IPP_TAG_KEYWORD = 0x44,
    IPP_TAG_URI = 0x45,
    IPP_PSTATE_STOPPED = 5,
};

static struct {
    void (*set_server)(const char *server);
    const char *(*server)(void);
    int (*port)(void);
    int (*encryption)(void);
    http_t *(*connect)(const char *host, int port, void *addresses, int family, int encryption, int blocking, int msec,
                       int *cancel);
    void (*set_timeout)(http_t *http, double timeout, int (*callback)(http_t *http, void *data), void *data);
    void (*close)(http_t *http);
    int (*get_dests)(http_t *http, cups_dest_t **dests);
    cups_dest_t *(*get_named_dest)(http_t *http, const char *name, const char *instance);
    void (*free_dests)(int count, cups_dest_t *dests);
    int (*parse_options)(const char *text, int count, cups_option_t **options);
    int (*add_option)(const char *name, const char *value, int count, cups_option_t **options);
    const char *(*get_option)(const char *name, int count, cups_option_t *options);
    void (*free_options)(int count, cups_option_t *options);
    int (*create_job)(http_t *http, const char *name, const char *title, int count, cups_option_t *options);
    int (*start_document)(http_t *http, const char *name, int job, const char *document, const char *format, int last);
    int (*write_request_data)(http_t *http, const char *buffer, size_t length);
    int (*finish_document)(http_t *http, const char *name);
    int (*cancel_job)(http_t *http, const char *name, int job, int purge);
    int (*get_jobs)(http_t *http, cups_job_t **jobs, const char *name, int mine, int which);
    void (*free_jobs)(int count, cups_job_t *jobs);
    ipp_t *(*new_request)(int operation);
    ipp_attribute_t *(*add_string)(ipp_t *ipp, int group, int tag, const char *name, const char *language,
                                   const char *value);
    ipp_t *(*do_request)(http_t *http, ipp_t *request, const char *resource);
    ipp_attribute_t *(*find_attribute)(ipp_t *ipp, const char *name, int tag);
    int (*count)(ipp_attribute_t *attribute);
    const char *(*string)(ipp_attribute_t *attribute, int element, const char **language);
    int (*integer)(ipp_attribute_t *attribute, int element);
    void (*delete)(ipp_t *ipp);
    int (*assemble_uri)(int coding, char *uri, int length, const char *scheme, const char *user, const char *host,
                        int port, const char *resource, ...);
    int (*last_error)(void);
    const char *(*last_error_string)(void);
} lib;

static struct share_library library = {
    .sonames = {"libcups.so.2"},
    .symbols = (const struct share_symbol[]){
        {"cupsSetServer", &lib.set_server}, {"cupsServer", &lib.server}, {"ippPort", &lib.port},
        {"cupsEncryption", &lib.encryption}, {"httpConnect2", &lib.connect}, {"httpSetTimeout", &lib.set_timeout},
        {"httpClose", &lib.close}, {"cupsGetDests2", &lib.get_dests}, {"cupsGetNamedDest", &lib.get_named_dest},
        {"cupsFreeDests", &lib.free_dests}, {"cupsParseOptions", &lib.parse_options}, {"cupsAddOption", &lib.add_option},
        {"cupsGetOption", &lib.get_option}, {"cupsFreeOptions", &lib.free_options}, {"cupsCreateJob", &lib.create_job},
        {"cupsStartDocument", &lib.start_document}, {"cupsWriteRequestData", &lib.write_request_data},
        {"cupsFinishDocument", &lib.finish_document}, {"cupsCancelJob2", &lib.cancel_job},
        {"cupsGetJobs2", &lib.get_jobs}, {"cupsFreeJobs", &lib.free_jobs}, {"ippNewRequest", &lib.new_request},
        {"ippAddString", &lib.add_string}, {"cupsDoRequest", &lib.do_request},
        {"ippFindAttribute", &lib.find_attribute}, {"ippGetCount", &lib.count}, {"ippGetString", &lib.string},
        {"ippGetInteger", &lib.integer}, {"ippDelete", &lib.delete}, {"httpAssembleURIf", &lib.assemble_uri},
        {"cupsLastError", &lib.last_error}, {"cupsLastErrorString", &lib.last_error_string}, {NULL, NULL}},
    .missing = "libcups is not installed (Debian: apt install libcups2)",
};

/* Every function below but share_cups_connect is called with a connection
   it made, so after the library loaded. */

/* CUPS' words for its last failure, or fallback when it has none (a
   request that timed out leaves strerror(0) there). */
static int fail(char *error, size_t size, const char *fallback) {
    const char *words = lib.last_error_string();
    snprintf(error, size, "%s", words && *words && strcmp(words, strerror(0)) != 0 ? words : fallback);
    return -1;
}

static const char no_answer[] = "the CUPS scheduler did not answer in time (is it reachable?)";

static int failed(void) { return lib.last_error() > IPP_STATUS_OK_CONFLICTING; }

/* The queue's name of destination (without "/INSTANCE"), in name. */
static const char *queue(const char *destination, char *name, size_t size) {
    snprintf(name, size, "%.*s", (int)strcspn(destination, "/"), destination);
    return name;
}

http_t *share_cups_connect(const char *server, double timeout, char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return NULL;
    /* Per thread in libcups: set on each connection, so that the calls
       that make their own (the list of destinations) ask the same server. */
    lib.set_server(server && *server ? server : NULL);
    http_t *http = lib.connect(lib.server(), lib.port(), NULL, AF_UNSPEC, lib.encryption(), 1, (int)(timeout * 1000), NULL);
    if (!http) {
        /* libcups keeps the reason (strerror of the connect) as its last error. */
        const char *host = lib.server(), *reason = lib.last_error_string();
        reason = reason && *reason ? reason : "no answer";
        if (host[0] == '/') snprintf(error, error_size, "cannot reach the CUPS scheduler at %s: %s", host, reason);
        else snprintf(error, error_size, "cannot reach the CUPS scheduler at %s:%d: %s", host, lib.port(), reason);
        return NULL;
    }
    lib.set_timeout(http, timeout, NULL, NULL);
    return http;
}

void share_cups_close(http_t *http) {
    if (http) lib.close(http);
}

char *share_cups_destinations(http_t *http, int *count, int *preferred, char *error, size_t error_size) {
    /* cupsGetDests2 asks a local scheduler on a connection of libcups' own,
       which waits 30 s and more: one question on this one first, so that a
       scheduler that does not answer is found out within its time limit. */
    ipp_t *answer = lib.do_request(http, lib.new_request(IPP_OP_CUPS_GET_DEFAULT), "/");
    if (!answer) {
        fail(error, error_size, no_answer);
        return NULL;
    }
    lib.delete(answer);
    cups_dest_t *dests = NULL;
    int found = lib.get_dests(http, &dests);
    /* No destination at all is an answer (CUPS' "No destinations added."). */
    if (found == 0 && failed() && lib.last_error() != IPP_STATUS_ERROR_NOT_FOUND) {
        fail(error, error_size, no_answer);
        return NULL;
    }
    size_t length = 1;
    for (int index = 0; index < found; index++) {
        length += strlen(dests[index].name) + (dests[index].instance ? strlen(dests[index].instance) + 1 : 0) + 1;
    }
    char *names = malloc(length);
    if (!names) {
        lib.free_dests(found, dests);
        snprintf(error, error_size, "out of memory");
        return NULL;
    }
    char *end = names;
    *preferred = -1;
    for (int index = 0; index < found; index++) {
        const cups_dest_t *dest = &dests[index];
        end += dest->instance ? sprintf(end, "%s/%s", dest->name, dest->instance) : sprintf(end, "%s", dest->name);
        end++;
        if (dest->is_default) *preferred = index;
    }
    *end = '\0';
    *count = found;
    lib.free_dests(found, dests);
    return names;
}

int share_cups_create_job(http_t *http, const char *destination, const char *title, const char *text,
                          char *error, size_t error_size) {
    char name[256];
    const char *slash = strchr(destination, '/');
    /* libcups' words when there is none: "The printer or class does not exist." */
    cups_dest_t *dest = lib.get_named_dest(http, queue(destination, name, sizeof name), slash ? slash + 1 : NULL);
    if (!dest) {
        fail(error, error_size, "no such printer");
        return 0;
    }
    cups_option_t *options = NULL;
    int count = lib.parse_options(text, 0, &options);
    /* As lp: the destination's own options (lpoptions, its instance's) where the job gives none. */
    for (int index = 0; index < dest->num_options; index++) {
        if (!lib.get_option(dest->options[index].name, count, options)) {
            count = lib.add_option(dest->options[index].name, dest->options[index].value, count, &options);
        }
    }
    lib.free_dests(1, dest);
    int job = lib.create_job(http, name, title, count, options);
    lib.free_options(count, options);
    if (job <= 0) fail(error, error_size, "CUPS refused the job");
    return job > 0 ? job : 0;
}

int share_cups_send_document(http_t *http, const char *destination, int job, const char *path, const char *document,
                             int last, char *error, size_t error_size) {
    char name[256];
    queue(destination, name, sizeof name);
    int file = open(path, O_RDONLY | O_CLOEXEC);
    if (file < 0) {
        snprintf(error, error_size, "cannot read %s: %s", path, strerror(errno));
        return -1;
    }
    /* CUPS types the document itself, as lp has it do. */
    int status = lib.start_document(http, name, job, document, "application/octet-stream", last);
    char buffer[65536];
    ssize_t got = 0;
    while (status == HTTP_STATUS_CONTINUE && (got = read(file, buffer, sizeof buffer)) != 0) {
        if (got < 0 && errno == EINTR) continue;
        if (got < 0) break;
        status = lib.write_request_data(http, buffer, (size_t)got);
    }
    int reason = errno;
    close(file);
    if (got < 0) {
        /* The document is left unfinished: the scheduler drops it with the connection. */
        snprintf(error, error_size, "cannot read %s: %s", path, strerror(reason));
        return -1;
    }
    if (status != HTTP_STATUS_CONTINUE) return fail(error, error_size, "CUPS did not take the document");
    lib.finish_document(http, name);
    return failed() ? fail(error, error_size, "CUPS did not take the document") : 0;
}

int share_cups_job_state(http_t *http, const char *destination, int job, char *error, size_t error_size) {
    char name[256];
    cups_job_t *jobs = NULL;
    int count = lib.get_jobs(http, &jobs, queue(destination, name, sizeof name), 0, WHICHJOBS_ALL);
    if (count < 0) return fail(error, error_size, no_answer);
    int state = 0;
    for (int index = 0; index < count; index++) {
        if (jobs[index].id == job) state = jobs[index].state;
    }
    lib.free_jobs(count, jobs);
    return state;
}

/* The attributes of the object at uri (a job's, a printer's) by operation,
   or NULL. */
static ipp_t *ask(http_t *http, int operation, const char *name, const char *uri, char *error, size_t error_size) {
    ipp_t *request = lib.new_request(operation);
    lib.add_string(request, IPP_TAG_OPERATION, IPP_TAG_URI, name, NULL, uri);
    ipp_t *response = lib.do_request(http, request, "/");
    if (response && !failed()) return response;
    lib.delete(response);
    fail(error, error_size, no_answer);
    return NULL;
}

int share_cups_job_words(http_t *http, int job, char *words, size_t words_size, char *error, size_t error_size) {
    char uri[1024];
    lib.assemble_uri(HTTP_URI_CODING_ALL, uri, sizeof uri, "ipp", NULL, "localhost", 0, "/jobs/%d", job);
    ipp_t *response = ask(http, IPP_OP_GET_JOB_ATTRIBUTES, "job-uri", uri, error, error_size);
    if (!response) return -1;
    words[0] = '\0';
    ipp_attribute_t *message = lib.find_attribute(response, "job-printer-state-message", IPP_TAG_TEXT);
    const char *text = message ? lib.string(message, 0, NULL) : NULL;
    if (text && *text) snprintf(words, words_size, "%s", text);
    ipp_attribute_t *reasons = lib.find_attribute(response, "job-state-reasons", IPP_TAG_KEYWORD);
    int count = reasons ? lib.count(reasons) : 0;
    const char *first = count > 0 ? lib.string(reasons, 0, NULL) : NULL;
    if (count > 1 || (first && strcmp(first, "none") != 0)) {
        size_t used = strlen(words);
        for (int index = 0; index < count && used < words_size; index++) {
            const char *separator = index > 0 ? " " : used > 0 ? "; " : "";
            used += (size_t)snprintf(words + used, words_size - used, "%s%s", separator, lib.string(reasons, index, NULL));
        }
    }
    lib.delete(response);
    return 0;
}

int share_cups_printer_stopped(http_t *http, const char *destination, char *message, size_t message_size,
                               char *error, size_t error_size) {
    char name[256], uri[1024];
    lib.assemble_uri(HTTP_URI_CODING_ALL, uri, sizeof uri, "ipp", NULL, "localhost", 0, "/printers/%s",
                     queue(destination, name, sizeof name));
    ipp_t *response = ask(http, IPP_OP_GET_PRINTER_ATTRIBUTES, "printer-uri", uri, error, error_size);
    if (!response) return -1;
    ipp_attribute_t *state = lib.find_attribute(response, "printer-state", IPP_TAG_ENUM);
    int stopped = state && lib.integer(state, 0) == IPP_PSTATE_STOPPED;
    ipp_attribute_t *words = lib.find_attribute(response, "printer-state-message", IPP_TAG_TEXT);
    const char *text = words ? lib.string(words, 0, NULL) : NULL;
    snprintf(message, message_size, "%s", stopped && text ? text : "");
    lib.delete(response);
    return stopped;
}

int share_cups_cancel_job(http_t *http, const char *destination, int job, char *error, size_t error_size) {
    char name[256];
    lib.cancel_job(http, queue(destination, name, sizeof name), job, 0);
    return failed() ? fail(error, error_size, "CUPS did not cancel the job") : 0;
}
