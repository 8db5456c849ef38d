#ifndef SHARE_CSTARTARGUMENTS_H
#define SHARE_CSTARTARGUMENTS_H
/* Nothing to call: linking this module into an executable is what matters.
   CStartArguments.c defines the Swift runtime's two command-line entry
   points from the arguments the C library hands to constructors. */
#endif
