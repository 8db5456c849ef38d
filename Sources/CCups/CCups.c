#include "CCups.h"

#include "CLoader.h"

#include <stdio.h>
#include <time.h>

/* cups_job_t of <cups/cups.h>, unchanged in libcups2's ABI since CUPS 1.1. */
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
} share_cups_job;

enum { WHICHJOBS_ALL = -1 };

static struct {
    int (*get_jobs)(void *http, share_cups_job **jobs, const char *name, int myjobs, int whichjobs);
    void (*free_jobs)(int count, share_cups_job *jobs);
    const char *(*last_error)(void);
} lib;

static struct share_library library = {
    .sonames = {"libcups.so.2"},
    .symbols = (const struct share_symbol[]){
        {"cupsGetJobs2", &lib.get_jobs}, {"cupsFreeJobs", &lib.free_jobs}, {"cupsLastErrorString", &lib.last_error},
        {NULL, NULL}},
    .missing = "libcups is not installed (Debian: apt install libcups2)",
};

int share_cups_job_state(const char *destination, int job_id, char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    share_cups_job *jobs = NULL;
    /* NULL: CUPS_HTTP_DEFAULT, the connection libcups makes to the configured server. */
    int count = lib.get_jobs(NULL, &jobs, destination, 0, WHICHJOBS_ALL);
    if (count < 0) {
        const char *words = lib.last_error();
        snprintf(error, error_size, "%s", words ? words : "the CUPS scheduler did not answer");
        return -1;
    }
    int state = 0;
    for (int index = 0; index < count; index++) {
        if (jobs[index].id == job_id) state = jobs[index].state;
    }
    lib.free_jobs(count, jobs);
    return state;
}
