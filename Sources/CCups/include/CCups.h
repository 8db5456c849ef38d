#ifndef SHARE_CCUPS_H
#define SHARE_CCUPS_H
/* The state of a CUPS job, asked of the scheduler through CUPS' own client
   library (libcups.so.2, which lp and lpstat use), loaded with dlopen on
   first use: never at start-up, and never a build dependency. libcups
   finds the server as lp does (CUPS_SERVER, client.conf, the domain
   socket). lpstat cannot tell a completed job from a cancelled one; the
   job's IPP state can. */
#include <stddef.h>

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

/* The state of job job_id on destination (one of the values above), 0 when
   the scheduler does not list it, or -1 with a reason in error. */
int share_cups_job_state(const char *destination, int job_id, char *error, size_t error_size);
#endif
