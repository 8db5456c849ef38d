#include "CQrencode.h"

#include "CLoader.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

/* QRcode of <qrencode.h>, unchanged in libqrencode's ABI 4. */
typedef struct {
    int version;
    int width;
    unsigned char *data;
} share_qrcode;

/* QRencodeMode of <qrencode.h>. */
enum { MODE_8 = 2 };

static struct {
    share_qrcode *(*encode_string)(const char *string, int version, int level, int hint, int casesensitive);
    void (*free_code)(share_qrcode *code);
} lib;

static struct share_library library = {
    .sonames = {"libqrencode.so.4"},
    .symbols = (const struct share_symbol[]){
        {"QRcode_encodeString", &lib.encode_string}, {"QRcode_free", &lib.free_code}, {NULL, NULL}},
    .missing = "libqrencode is not installed (Debian: apt install libqrencode4)",
};

int share_qr_encode(const char *text, int level, unsigned char *modules, size_t capacity, char *error, size_t error_size) {
    if (share_library_load(&library, error, error_size) != 0) return -1;
    errno = 0;
    share_qrcode *code = lib.encode_string(text, 0, level == SHARE_QR_LEVEL_L ? SHARE_QR_LEVEL_L : SHARE_QR_LEVEL_M, MODE_8, 1);
    if (!code) {
        snprintf(error, error_size, "%s", errno == ERANGE ? "the text is too long for a QR code" : "libqrencode could not encode the text");
        return -1;
    }
    int width = code->width;
    if (width <= 0 || (size_t)width * (size_t)width > capacity) {
        lib.free_code(code);
        snprintf(error, error_size, "the QR code is larger than expected");
        return -1;
    }
    /* Bit 0 of each byte is the module's colour; the other bits say what it is for. */
    for (int index = 0; index < width * width; index++) modules[index] = code->data[index] & 1;
    lib.free_code(code);
    return width;
}
