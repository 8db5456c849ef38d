#ifndef SHARE_CNCURSESW_SHIM_H
#define SHARE_CNCURSESW_SHIM_H
/* ncursesw from Swift: wide characters on, and tiny inline functions for
   what Swift cannot import (macros) or may not read (C globals under
   Swift 6 concurrency checking). */
#define _XOPEN_SOURCE_EXTENDED 1
#define NCURSES_WIDECHAR 1
#include <locale.h>
#include <stdio.h>
#include <wchar.h>
#include <ncursesw/ncurses.h>

static inline WINDOW *nc_stdscr(void) { return stdscr; }
/* A string capability of the terminal, NULL when it has none. */
static inline const char *nc_string_capability(const char *name) {
    char *value = tigetstr(name);
    return value == (char *)-1 ? NULL : value;
}
/* A boolean capability of the terminal (0 when it has none). */
static inline int nc_flag(const char *name) { return tigetflag(name) > 0; }
/* The terminal's cup with a row and a column filled in. */
static inline const char *nc_cursor_address(const char *cup, int y, int x) { return tiparm(cup, y, x); }
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }
static inline int nc_colors(void) { return COLORS; }

static inline mmask_t nc_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}

#endif
