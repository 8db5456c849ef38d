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

/* What the image functions return: 0 on success; SHARE_IMAGE_UNDECODABLE
   when the bytes are not a whole PNG or JPEG (cut short, corrupt, a header
   libpng or libjpeg-turbo refuses); SHARE_IMAGE_FAILED for anything else
   (neither format, a decoder not installed, too large, out of memory). */
enum { SHARE_IMAGE_OK = 0, SHARE_IMAGE_FAILED = -1, SHARE_IMAGE_UNDECODABLE = -2 };

/* The PNG or JPEG image in data, fitted into max_side × max_side. It is
   decoded whole first, whatever its size. When it fits as it is, returns 0
   with *output NULL (use data itself). When it is larger, it is decoded (a
   JPEG at 1/2, 1/4 or 1/8 scale when that keeps it at least max_side, and
   turned upright by its EXIF orientation), scaled down with its aspect kept
   (a box filter) and encoded again in its own format (JPEG at quality 90);
   returns 0 with *output the new bytes, to be released with free().
   *format is 1 for PNG, 2 for JPEG, 0 for neither; *width and *height the
   final size. On failure returns SHARE_IMAGE_FAILED or
   SHARE_IMAGE_UNDECODABLE with a reason. */
int share_image_fit(const unsigned char *data, size_t length, int max_side, unsigned char **output, size_t *output_size,
                    int *format, int *width, int *height, char *error, size_t error_size);

/* The PNG or JPEG image in data decoded whole to RGBA, turned upright by
   its EXIF orientation; a JPEG is scaled by 1/2, 1/4 or 1/8 on the way
   while its longer side stays at least least_side (0: full size). Returns 0
   with *pixels (width × height × 4 bytes, to be released with free()), or
   SHARE_IMAGE_FAILED or SHARE_IMAGE_UNDECODABLE with a reason. What the
   thumbnail draws. */
int share_image_decode(const unsigned char *data, size_t length, int least_side, uint8_t **pixels,
                       int *width, int *height, char *error, size_t error_size);

/* Decodes no image whose header gives more than pixels (width × height)
   from now on, failing with SHARE_IMAGE_FAILED; 0, the default, for no
   limit but the decoded size's 40 million pixels. A JPEG's data is read
   in full whatever the scale it is decoded at, so a file of a few hundred
   bytes claiming 100 million pixels costs a second: the fuzz targets set
   a limit, to spend their time on many inputs. */
void share_image_limit(long pixels);

/* The format (as share_image_fit's), the size its header gives and the
   EXIF orientation (1 to 8; 1 for a PNG or a JPEG without one), without
   decoding the image. Returns 0, or a failure as above. */
int share_image_info(const unsigned char *data, size_t length, int *format, int *width, int *height, int *orientation,
                     char *error, size_t error_size);

/* A JPEG turned upright by its EXIF orientation (2 to 8, as the caller read
   it) without decoding: its blocks of coefficients moved (libjpeg-turbo's
   lossless transform), so no quality is lost; every other segment is
   copied as it is, EXIF's orientation too. Fails with SHARE_IMAGE_FAILED
   when blocks at an edge are partial (the size is not a multiple of the
   block size where the turn moves it): such a picture is turned by
   share_image_rework. Returns 0 with *output (released with free()). */
int share_jpeg_turn(const unsigned char *data, size_t length, int orientation, unsigned char **output, size_t *output_size,
                    char *error, size_t error_size);

/* The PNG or JPEG in data decoded, turned by orientation (1 to 8, as the
   caller read it: a PNG's eXIf chunk is not read here), scaled down with
   its aspect kept so that its longer side is at most max_side (0: its
   size kept), and encoded again in its own format: a JPEG at quality (1
   to 100) with its chroma subsampling, a PNG with alpha only when it had
   it. No metadata is written. Returns 0 with *output (released with
   free()) and the new *width and *height, or a failure as above. */
int share_image_rework(const unsigned char *data, size_t length, int orientation, int max_side, int quality,
                       unsigned char **output, size_t *output_size, int *width, int *height, char *error, size_t error_size);
#endif
