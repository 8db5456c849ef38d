#ifndef SHARE_CTHUMBNAIL_H
#define SHARE_CTHUMBNAIL_H
/* PNG and JPEG images in C: a thumbnail as terminal cells, drawn by chafa,
   and an image fitted into a square (Assign to Contact's photo).

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

/* The PNG or JPEG image at path, fitted into max_side × max_side. When it
   fits as it is, returns 0 with *output NULL (use the file's own bytes).
   When it is larger, it is decoded (a JPEG at 1/2, 1/4 or 1/8 scale when
   that keeps it at least max_side), scaled down with its aspect kept (a box
   filter) and encoded again in its own format (JPEG at quality 90); returns
   0 with *output the new bytes, to be released with free(). *format is 1
   for PNG, 2 for JPEG, 0 for neither; *width and *height the final size.
   On failure returns -1 with a reason. The file itself is never changed. */
int share_image_fit(const char *path, int max_side, unsigned char **output, size_t *output_size,
                    int *format, int *width, int *height, char *error, size_t error_size);
#endif
