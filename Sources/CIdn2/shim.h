#ifndef SHARE_CIDN2_SHIM_H
#define SHARE_CIDN2_SHIM_H
/* libidn2: IDNA 2008 domain names to ASCII (punycode). */
#include <idn2.h>
#endif
