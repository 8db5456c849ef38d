#ifndef SHARE_CCUPS_H
#define SHARE_CCUPS_H
/* CUPS for Print, through CUPS' own client library (libcups.so.2, the one
   lp and lpstat use), loaded with dlopen on first use: never at start-up,
   and never a build dependency. The destinations and their options
   (lpoptions), the default, the server (CUPS_SERVER, client.conf, the
   domain socket) are libcups' own, as for lp. lpstat cannot tell a
   completed job from a cancelled one; the job's IPP state can. */
#include <stddef.h>

/* A connection to the scheduler: libcups' http_t. */
struct _http_s;

/* IPP job states (RFC 8011 §5.3.7). */
enum {
    SHARE_CUPS_JOB_PENDING = 3,
    SHARE_CUPS_JOB_HELD = 4,
    SHARE_CUPS_JOB_PROCESSING = 5,
    SHARE_CUPS_JOB_STOPPED = 6,
    SHARE_CUPS_JOB_CANCELED = 7,
    SHARE_CUPS_JOB_ABORTED = 8,
    SHARE_CUPS_JOB_COMPLETED = 9
};

/* Each function below that takes error returns its failure's reason there
   (libcups missing, CUPS' own words). A destination is "NAME" or
   "NAME/INSTANCE" (an instance of lpoptions); only a job's options depend
   on the instance. */

/* A connection to server ("HOST:PORT", a socket's path; NULL for libcups'
   choice: $CUPS_SERVER, client.conf, the domain socket), waiting at most
   timeout seconds for it and then for each answer. The server is also
   the one libcups asks on this thread without a connection. NULL on
   failure. */
struct _http_s *share_cups_connect(const char *server, double timeout, char *error, size_t error_size);
void share_cups_close(struct _http_s *http);

/* The destinations as lpstat -e lists them ("NAME" or "NAME/INSTANCE"),
   each ended by a NUL, in a buffer to free(); their number in *count, and
   in *preferred the index of the default as lp would choose it ($LPDEST,
   $PRINTER, lpoptions, the server's), or -1. NULL on failure (none: an
   empty buffer). */
char *share_cups_destinations(struct _http_s *http, int *count, int *preferred, char *error, size_t error_size);

/* A new job on destination titled title with options as lp's -o takes
   them ("copies=2 sides=one-sided fit-to-page"), and the destination's
   own options (lpoptions) where not given, as lp adds them. Returns the
   job id, or 0. */
int share_cups_create_job(struct _http_s *http, const char *destination, const char *title, const char *options,
                          char *error, size_t error_size);

/* Sends the file at path as a document of job (named document), read in
   pieces; last ends the job's documents. Returns 0, or -1. */
int share_cups_send_document(struct _http_s *http, const char *destination, int job, const char *path,
                             const char *document, int last, char *error, size_t error_size);

/* The state of job on destination (one of the values above), 0 when the
   scheduler does not list it, or -1. */
int share_cups_job_state(struct _http_s *http, const char *destination, int job, char *error, size_t error_size);

/* CUPS' words about job, as lpstat -l shows them: its printer's message
   for it and its state reasons (none left out), "; " between, in words.
   Returns 0 (words empty when there are none), or -1. */
int share_cups_job_words(struct _http_s *http, int job, char *words, size_t words_size, char *error, size_t error_size);

/* Whether destination is stopped: 1 with its message (empty when none) in
   message, 0, or -1. */
int share_cups_printer_stopped(struct _http_s *http, const char *destination, char *message, size_t message_size,
                               char *error, size_t error_size);

/* Cancels job on destination. Returns 0, or -1. */
int share_cups_cancel_job(struct _http_s *http, const char *destination, int job, char *error, size_t error_size);
#endif
