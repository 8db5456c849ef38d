#ifndef SHARE_CQRENCODE_H
#define SHARE_CQRENCODE_H
/* QR codes with libqrencode (libqrencode.so.4), loaded with dlopen on first
   use: never at start-up, so a share that shows no code never pays for it. */
#include <stddef.h>

/* The most modules a side of a QR code has (version 40). */
enum { SHARE_QR_MAX_WIDTH = 177 };

/* Error correction levels (QRecLevel of <qrencode.h>): 7 % and 15 % of the
   code may be lost. */
enum { SHARE_QR_LEVEL_L = 0, SHARE_QR_LEVEL_M = 1 };

/* Encodes text (8-bit mode, error correction level `level`, the smallest
   version that holds it). Writes width*width modules, row by row, 1 for
   dark and 0 for light, into modules (room for capacity bytes) and returns
   width; on failure returns -1 with a reason in error. */
int share_qr_encode(const char *text, int level, unsigned char *modules, size_t capacity, char *error, size_t error_size);
#endif
