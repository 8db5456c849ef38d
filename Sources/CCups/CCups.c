#include "CCups.h"

#include <dlfcn.h>
#include <pthread.h>
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
    char error[160];
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static void load(void) {
    void *cups = dlopen("libcups.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!cups) {
        snprintf(lib.error, sizeof lib.error, "libcups is not installed (Debian: apt install libcups2)");
        return;
    }
    *(void **)&lib.get_jobs = dlsym(cups, "cupsGetJobs2");
    *(void **)&lib.free_jobs = dlsym(cups, "cupsFreeJobs");
    *(void **)&lib.last_error = dlsym(cups, "cupsLastErrorString");
    if (!lib.get_jobs || !lib.free_jobs || !lib.last_error) {
        lib.get_jobs = NULL;
        snprintf(lib.error, sizeof lib.error, "libcups.so.2 lacks cupsGetJobs2");
    }
}

int share_cups_job_state(const char *destination, int job_id, char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!lib.get_jobs) {
        snprintf(error, error_size, "%s", lib.error);
        return -1;
    }
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
