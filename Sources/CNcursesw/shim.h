#ifndef SHARE_CNCURSESW_SHIM_H
#define SHARE_CNCURSESW_SHIM_H
/* ncurses' terminfo level from Swift: the terminal's capabilities, read
   with setupterm (no curses screen is started), and tiny inline functions
   for what Swift cannot call (variadic functions) or may not read (C
   globals under Swift 6 concurrency checking). */
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>
#include <ncursesw/term.h>

/* Reads the terminfo entry of $TERM for the terminal on `descriptor`, and
   its size (LINES and COLUMNS when set, else the descriptor's): whether
   there is one. */
static inline int nc_setup_terminal(int descriptor) {
    int status = 0;
    return setupterm(NULL, descriptor, &status) == OK;
}
/* Frees what nc_setup_terminal read. */
static inline void nc_release_terminal(void) {
    if (cur_term != NULL) del_curterm(cur_term);
}
/* A string capability of the terminal, NULL when it has none. */
static inline const char *nc_string_capability(const char *name) {
    char *value = tigetstr(name);
    return value == (char *)-1 ? NULL : value;
}
/* A boolean capability of the terminal (0 when it has none). */
static inline int nc_flag(const char *name) { return tigetflag(name) > 0; }
/* A numeric capability of the terminal (negative when it has none). */
static inline int nc_number(const char *name) { return tigetnum(name); }
/* The terminal's cup with a row and a column filled in. */
static inline const char *nc_cursor_address(const char *cup, int y, int x) { return tiparm(cup, y, x); }
/* xterm's XM (mouse reporting) with its one parameter: 1 on, 0 off. */
static inline const char *nc_mouse_reporting(const char *xm, int on) { return tiparm(xm, on); }
/* The size setupterm found. */
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }

#endif
