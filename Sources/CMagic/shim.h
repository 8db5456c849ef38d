#ifndef SHARE_CMAGIC_SHIM_H
#define SHARE_CMAGIC_SHIM_H
/* libmagic for content types from bytes. The flags are plain integer
   macros and import into Swift as they are; nothing else needs wrapping. */
#include <magic.h>
#endif
