#ifndef SHARE_CIDN2_H
#define SHARE_CIDN2_H
/* libidn2 (IDNA 2008), loaded with dlopen the first time a non-ASCII domain
   is met, instead of at every start. The header gives types and constants. */
#include <idn2.h>
#include <stddef.h>

/* The ASCII form of a UTF-8 domain, as idn2_to_ascii_8z; the result is
   freed with share_idn2_free. Returns IDN2_OK, an idn2 error code, or
   IDN2_NOT_AVAILABLE-like -1000 when libidn2 cannot be loaded. */
int share_idn2_to_ascii_8z(const char *input, char **output, int flags);
void share_idn2_free(void *pointer);
const char *share_idn2_strerror(int code);
#endif
