// GNU gettext as glibc has it (dgettext, bindtextdomain): no library to link.
#include <libintl.h>
#include <locale.h>
