/* The Swift runtime's own way of finding argv in a statically linked
   program is a constructor that reads and parses /proc/self/maps to find
   the stack and walks back from environ to argv: a fifth of share's
   start-up. glibc gives the executable's constructors argc and argv
   directly, so these two runtime entry points are defined here from
   that, and the runtime's object that holds the /proc reader is never
   linked (release builds, where the runtime is a static archive; with a
   shared runtime its own definitions are the ones used). */
#include <stddef.h>
#include "CStartArguments.h"

static int start_argc = 0;
static char **start_argv = NULL;
static char **override_argv = NULL;
static int override_argc = 0;

__attribute__((constructor)) static void share_grab_arguments(int argc, char **argv, char **envp) {
    (void)envp;
    start_argc = argc;
    start_argv = argv;
}

/* Swift's CommandLine asks this for the arguments (Swift calling
   convention; one pointer in, one pointer out). */
__attribute__((swiftcall)) char **_swift_stdlib_getUnsafeArgvArgc(int *outArgLen) {
    static char *empty[] = { NULL };
    if (override_argv != NULL) {
        *outArgLen = override_argc;
        return override_argv;
    }
    if (start_argv == NULL) {
        *outArgLen = 0;
        return empty;
    }
    *outArgLen = start_argc;
    return start_argv;
}

void _swift_stdlib_overrideUnsafeArgvArgc(char **argv, int argc) {
    override_argv = argv;
    override_argc = argc;
}
