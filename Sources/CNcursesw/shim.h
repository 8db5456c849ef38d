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
/* Whether the terminal can move the cursor (terminfo cup): TERM=dumb cannot. */
static inline int nc_can_address_cursor(void) {
    char *cup = tigetstr("cup");
    return cup != NULL && cup != (char *)-1;
}
static inline int nc_lines(void) { return LINES; }
static inline int nc_cols(void) { return COLS; }
static inline int nc_colors(void) { return COLORS; }
static inline int nc_color_pairs(void) { return COLOR_PAIRS; }

static inline attr_t nc_a_bold(void) { return A_BOLD; }
static inline attr_t nc_a_reverse(void) { return A_REVERSE; }
static inline attr_t nc_a_dim(void) { return A_DIM; }
static inline attr_t nc_a_underline(void) { return A_UNDERLINE; }

static inline mmask_t nc_mouse_mask(void) {
    return BUTTON1_PRESSED | BUTTON1_RELEASED | BUTTON1_CLICKED | BUTTON4_PRESSED | BUTTON5_PRESSED;
}

/* Draws one grapheme (up to CCHARW_MAX wide characters) at y, x. */
static inline int nc_put(int y, int x, const wchar_t *text, attr_t attributes, short pair) {
    cchar_t cell;
    if (setcchar(&cell, text, attributes, pair, NULL) != OK) return ERR;
    return mvadd_wch(y, x, &cell);
}
/* Draws n wide characters from y, x in one style: a run of cells whose
   characters are each a whole grapheme of the width wcwidth gives them. */
static inline int nc_put_run(int y, int x, const wchar_t *text, int n, attr_t attributes, short pair) {
    wattr_set(stdscr, attributes, pair, NULL);
    int result = mvaddnwstr(y, x, text, n);
    wattr_set(stdscr, A_NORMAL, 0, NULL);
    return result;
}

#endif
