#ifndef SHARE_CTHUMBNAIL_H
#define SHARE_CTHUMBNAIL_H
/* A thumbnail of a PNG or JPEG file as terminal cells, drawn by chafa.

   libchafa (with GLib), libpng and libturbojpeg are loaded with dlopen on
   the first thumbnail, never at start-up: the picker paints first, then
   asks for the thumbnail. Without those libraries there is no thumbnail,
   and the picker shows an icon instead. */
#include <stddef.h>
#include <stdint.h>

/* Renders the image at path into columns × rows cells in the 256-colour
   palette. On success returns 0 and fills, for each cell in row order,
   symbols (a Unicode scalar), foreground and background (palette indexes,
   -1 for the terminal's default). On failure returns -1 with a reason. */
int share_thumbnail_render(const char *path, int columns, int rows,
                           uint32_t *symbols, int *foreground, int *background,
                           char *error, size_t error_size);
#endif
