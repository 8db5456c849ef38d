#ifndef SHARE_CSTARTARGUMENTS_H
#define SHARE_CSTARTARGUMENTS_H
/* The command line as the C library hands it to the executable's
   constructors (see CStartArguments.c). Nothing to call: linking this
   module is what matters. */
int share_start_argument_count(void);
#endif
