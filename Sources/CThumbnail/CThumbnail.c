#include "CThumbnail.h"

#include "CLoader.h"

#include <errno.h>
#include <png.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <turbojpeg.h>

/* chafa's API, declared here so that building needs no GLib headers. The
   enum values are chafa's documented, stable ABI (chafa-common.h,
   chafa-canvas-config.h, chafa-symbol-map.h). */
typedef struct ChafaCanvas ChafaCanvas;
typedef struct ChafaCanvasConfig ChafaCanvasConfig;
typedef struct ChafaSymbolMap ChafaSymbolMap;
enum { PIXEL_RGBA8_UNASSOCIATED = 4, CANVAS_MODE_INDEXED_256 = 1 };
enum { TAG_SPACE = 1 << 0, TAG_BLOCK = 1 << 3, TAG_HHALF = 1 << 8, TAG_VHALF = 1 << 9 };

static struct {
    ChafaSymbolMap *(*symbol_map_new)(void);
    void (*symbol_map_add_by_tags)(ChafaSymbolMap *, int);
    void (*symbol_map_unref)(ChafaSymbolMap *);
    ChafaCanvasConfig *(*config_new)(void);
    void (*config_set_geometry)(ChafaCanvasConfig *, int, int);
    void (*config_set_canvas_mode)(ChafaCanvasConfig *, int);
    void (*config_set_symbol_map)(ChafaCanvasConfig *, const ChafaSymbolMap *);
    void (*config_unref)(ChafaCanvasConfig *);
    ChafaCanvas *(*canvas_new)(const ChafaCanvasConfig *);
    void (*draw_all_pixels)(ChafaCanvas *, int, const uint8_t *, int, int, int);
    uint32_t (*get_char_at)(ChafaCanvas *, int, int);
    void (*get_raw_colors_at)(ChafaCanvas *, int, int, int *, int *);
    void (*canvas_unref)(ChafaCanvas *);
    int (*png_begin)(png_imagep, const void *, size_t);
    int (*png_finish)(png_imagep, png_const_colorp, void *, png_int_32, void *);
    void (*png_free)(png_imagep);
    int (*png_write)(png_imagep, void *, png_alloc_size_t *, int, const void *, png_int_32, const void *);
    tjhandle (*tj_init)(void);
    int (*tj_header)(tjhandle, const unsigned char *, unsigned long, int *, int *, int *, int *);
    int (*tj_decompress)(tjhandle, const unsigned char *, unsigned long, unsigned char *, int, int, int, int, int);
    int (*tj_destroy)(tjhandle);
    char *(*tj_error)(tjhandle);
    tjhandle (*tj_init_compress)(void);
    int (*tj_compress)(tjhandle, const unsigned char *, int, int, int, int, unsigned char **, unsigned long *, int, int, int);
    void (*tj_free)(unsigned char *);
    tjhandle (*tj_init_transform)(void);
    int (*tj_transform)(tjhandle, const unsigned char *, unsigned long, int, unsigned char **, unsigned long *, tjtransform *, int);
} lib;

static struct share_library chafa = {
    .sonames = {"libchafa.so.0"},
    .symbols = (const struct share_symbol[]){
        {"chafa_symbol_map_new", &lib.symbol_map_new}, {"chafa_symbol_map_add_by_tags", &lib.symbol_map_add_by_tags},
        {"chafa_symbol_map_unref", &lib.symbol_map_unref}, {"chafa_canvas_config_new", &lib.config_new},
        {"chafa_canvas_config_set_geometry", &lib.config_set_geometry},
        {"chafa_canvas_config_set_canvas_mode", &lib.config_set_canvas_mode},
        {"chafa_canvas_config_set_symbol_map", &lib.config_set_symbol_map},
        {"chafa_canvas_config_unref", &lib.config_unref}, {"chafa_canvas_new", &lib.canvas_new},
        {"chafa_canvas_draw_all_pixels", &lib.draw_all_pixels}, {"chafa_canvas_get_char_at", &lib.get_char_at},
        {"chafa_canvas_get_raw_colors_at", &lib.get_raw_colors_at}, {"chafa_canvas_unref", &lib.canvas_unref},
        {NULL, NULL}},
    .missing = "libchafa is not installed",
};

/* The decoders are optional one by one: a missing one only loses its format
   (its functions stay NULL). */
static struct share_library png = {
    .sonames = {"libpng16.so.16"},
    .symbols = (const struct share_symbol[]){
        {"png_image_begin_read_from_memory", &lib.png_begin}, {"png_image_finish_read", &lib.png_finish},
        {"png_image_free", &lib.png_free}, {"png_image_write_to_memory", &lib.png_write}, {NULL, NULL}},
};

static struct share_library jpeg = {
    .sonames = {"libturbojpeg.so.0"},
    .symbols = (const struct share_symbol[]){
        {"tjInitDecompress", &lib.tj_init}, {"tjDecompressHeader3", &lib.tj_header}, {"tjDecompress2", &lib.tj_decompress},
        {"tjDestroy", &lib.tj_destroy}, {"tjGetErrorStr2", &lib.tj_error}, {"tjInitCompress", &lib.tj_init_compress}, {"tjCompress2", &lib.tj_compress},
        {"tjFree", &lib.tj_free}, {"tjInitTransform", &lib.tj_init_transform}, {"tjTransform", &lib.tj_transform}, {NULL, NULL}},
};

/* Loads the decoders, each once; a missing one leaves its functions NULL. */
static void load_decoders(void) {
    share_library_load(&png, NULL, 0);
    share_library_load(&jpeg, NULL, 0);
}

#define MAX_PIXELS (40L * 1000 * 1000)
/* The largest image decoded, by the size its header gives; 0 for no limit
   but MAX_PIXELS on the decoded size (share_image_limit). */
static long stored_limit = 0;

void share_image_limit(long pixels) { stored_limit = pixels; }
#define MAX_IMAGE_BYTES (64L * 1024 * 1024)

enum { FORMAT_NONE = 0, FORMAT_PNG = 1, FORMAT_JPEG = 2 };

/* PNG or JPEG, from the first bytes. */
static int sniff(const unsigned char *data, size_t length) {
    if (length >= 4 && data[0] == 0x89 && data[1] == 'P' && data[2] == 'N' && data[3] == 'G') return FORMAT_PNG;
    if (length >= 3 && data[0] == 0xFF && data[1] == 0xD8 && data[2] == 0xFF) return FORMAT_JPEG;
    return FORMAT_NONE;
}

/* Whether the decoder of a format is loaded; a reason when it is not. */
static int decoder_loaded(int format, char *error, size_t size) {
    if (format == FORMAT_PNG && !lib.png_begin) { snprintf(error, size, "libpng is not installed"); return 0; }
    if (format == FORMAT_JPEG && !lib.tj_init) { snprintf(error, size, "libturbojpeg is not installed"); return 0; }
    if (format == FORMAT_NONE) { snprintf(error, size, "only PNG and JPEG images can be read"); return 0; }
    return 1;
}

/* Reads a PNG's header into image (released with png_free); 0 with a reason when libpng refuses it. */
static int begin_png(png_image *image, const unsigned char *data, size_t length, char *error, size_t size) {
    memset(image, 0, sizeof *image);
    image->version = PNG_IMAGE_VERSION;
    if (lib.png_begin(image, data, length)) return 1;
    snprintf(error, size, "the PNG image could not be read: %s", image->message);
    return 0;
}

/* SHARE_IMAGE_OK, or SHARE_IMAGE_FAILED with a reason when width × height is over share_image_limit's. */
static int within_limit(int width, int height, char *error, size_t size) {
    if (stored_limit <= 0 || (long)width * (long)height <= stored_limit) return SHARE_IMAGE_OK;
    snprintf(error, size, "the image is too large (%d×%d pixels)", width, height);
    return SHARE_IMAGE_FAILED;
}

/* The size a PNG or JPEG's header gives, without decoding it. */
static int read_header(const unsigned char *data, size_t length, int format, int *width, int *height,
                       char *error, size_t size) {
    if (length > (size_t)MAX_IMAGE_BYTES) { snprintf(error, size, "the image file is too large"); return SHARE_IMAGE_FAILED; }
    if (format == FORMAT_PNG) {
        png_image image;
        if (!begin_png(&image, data, length, error, size)) return SHARE_IMAGE_UNDECODABLE;
        *width = (int)image.width;
        *height = (int)image.height;
        lib.png_free(&image);
        return within_limit(*width, *height, error, size);
    }
    tjhandle handle = lib.tj_init();
    if (!handle) { snprintf(error, size, "out of memory"); return SHARE_IMAGE_FAILED; }
    int subsampling = 0, colorspace = 0;
    int status = lib.tj_header(handle, data, (unsigned long)length, width, height, &subsampling, &colorspace);
    if (status != 0) snprintf(error, size, "the JPEG image could not be read: %s", lib.tj_error(handle));
    lib.tj_destroy(handle);
    return status == 0 ? within_limit(*width, *height, error, size) : SHARE_IMAGE_UNDECODABLE;
}

/* Decodes a whole PNG to RGBA: every row of its image data (libpng fails
   on data cut short, a bad checksum of the image data or too little of it). */
static int decode_png(const unsigned char *data, size_t length, uint8_t **pixels, int *width, int *height,
                      char *error, size_t size) {
    png_image image;
    if (!begin_png(&image, data, length, error, size)) return SHARE_IMAGE_UNDECODABLE;
    if ((long)image.width * (long)image.height > MAX_PIXELS) {
        lib.png_free(&image);
        snprintf(error, size, "the image is too large (%u×%u pixels)", image.width, image.height);
        return SHARE_IMAGE_FAILED;
    }
    image.format = PNG_FORMAT_RGBA;
    *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!*pixels) { lib.png_free(&image); snprintf(error, size, "out of memory"); return SHARE_IMAGE_FAILED; }
    if (!lib.png_finish(&image, NULL, *pixels, 0, NULL)) {
        snprintf(error, size, "the PNG image could not be decoded: %s", image.message);
        lib.png_free(&image);
        free(*pixels);
        *pixels = NULL;
        return SHARE_IMAGE_UNDECODABLE;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    return SHARE_IMAGE_OK;
}
/* The EXIF orientation of JPEG data (1 to 8; 1, upright, when it has none):
   tag 0x0112 of IFD0 in the APP1 "Exif" segment, in the TIFF byte order. */
static int jpeg_orientation(const unsigned char *data, long length) {
    long at = 2;
    while (at + 4 <= length && data[at] == 0xFF) {
        int marker = data[at + 1];
        long size = (long)data[at + 2] << 8 | data[at + 3];
        if (marker == 0xDA || marker == 0xD9 || size < 2) break; /* the image data: no more headers */
        const unsigned char *segment = data + at + 4;
        long room = size - 2;
        if (at + 2 + size > length) break;
        if (marker == 0xE1 && room >= 14 && memcmp(segment, "Exif\0\0", 6) == 0) {
            const unsigned char *tiff = segment + 6;
            long tiff_size = room - 6;
            int little = tiff[0] == 'I';
#define U16(p) (little ? (int)((p)[0] | (p)[1] << 8) : (int)((p)[0] << 8 | (p)[1]))
#define U32(p) (little ? (long)((p)[0] | (p)[1] << 8 | (p)[2] << 16 | (unsigned long)(p)[3] << 24) \
                       : (long)((unsigned long)(p)[0] << 24 | (p)[1] << 16 | (p)[2] << 8 | (p)[3]))
            long ifd = U32(tiff + 4);
            if (ifd < 8 || ifd + 2 > tiff_size) return 1;
            int count = U16(tiff + ifd);
            for (int entry = 0; entry < count && ifd + 2 + (entry + 1) * 12 <= tiff_size; entry++) {
                const unsigned char *field = tiff + ifd + 2 + entry * 12;
                if (U16(field) == 0x0112) {
                    int value = U16(field + 8);
                    return value >= 1 && value <= 8 ? value : 1;
                }
            }
#undef U16
#undef U32
            return 1;
        }
        at += 2 + size;
    }
    return 1;
}

/* Turns RGBA pixels upright for an EXIF orientation (2 to 8): mirrored,
   turned, or both. Frees the pixels given and returns new ones (NULL when
   out of memory); width and height swap for 5 to 8. */
static uint8_t *apply_orientation(uint8_t *pixels, int *width, int *height, int orientation) {
    if (orientation <= 1 || orientation > 8) return pixels;
    int w = *width, h = *height;
    int turned = orientation >= 5;
    int out_w = turned ? h : w, out_h = turned ? w : h;
    uint32_t *source = (uint32_t *)pixels;
    uint32_t *upright = malloc((size_t)out_w * (size_t)out_h * 4);
    if (!upright) { free(pixels); return NULL; }
    for (int y = 0; y < out_h; y++) {
        for (int x = 0; x < out_w; x++) {
            int sx, sy;
            switch (orientation) {
            case 2: sx = w - 1 - x; sy = y; break;             /* mirrored left to right */
            case 3: sx = w - 1 - x; sy = h - 1 - y; break;     /* turned 180° */
            case 4: sx = x; sy = h - 1 - y; break;             /* mirrored top to bottom */
            case 5: sx = y; sy = x; break;                     /* transposed */
            case 6: sx = y; sy = h - 1 - x; break;             /* to be turned 90° clockwise */
            case 7: sx = w - 1 - y; sy = h - 1 - x; break;     /* transversed */
            default: sx = w - 1 - y; sy = x; break;            /* 8: to be turned 90° anticlockwise */
            }
            upright[(size_t)y * (size_t)out_w + (size_t)x] = source[(size_t)sy * (size_t)w + (size_t)sx];
        }
    }
    free(pixels);
    *width = out_w;
    *height = out_h;
    return (uint8_t *)upright;
}

/* Decodes a whole JPEG of width × height (from its header) to RGBA. With least_side > 0 the decoder scales by
   1/2, 1/4 or 1/8 on the way (libjpeg-turbo's DCT scaling, far cheaper than
   decoding every pixel) as long as the longer side stays at least that.
   Any warning stops it and fails: data cut short ("premature end"), or
   corrupt, is not a picture to keep. With accurate, the slower exact DCT
   (a picture to be encoded again); else the fast one (a thumbnail). */
static int decode_jpeg(const unsigned char *data, size_t length, int least_side, int accurate, uint8_t **pixels, int *width,
                       int *height, char *error, size_t size) {
    int longer = *width > *height ? *width : *height;
    int denominator = 1;
    while (least_side > 0 && denominator < 8 && longer / (denominator * 2) >= least_side) denominator *= 2;
    *width = (*width + denominator - 1) / denominator;
    *height = (*height + denominator - 1) / denominator;
    if ((long)*width * (long)*height > MAX_PIXELS) {
        snprintf(error, size, "the image is too large (%d×%d pixels)", *width, *height);
        return SHARE_IMAGE_FAILED;
    }
    tjhandle handle = lib.tj_init();
    *pixels = handle ? malloc((size_t)*width * (size_t)*height * 4) : NULL;
    if (!*pixels) {
        if (handle) lib.tj_destroy(handle);
        snprintf(error, size, "out of memory");
        return SHARE_IMAGE_FAILED;
    }
    int status = lib.tj_decompress(handle, data, (unsigned long)length, *pixels, *width, 0, *height, TJPF_RGBA,
                                   (accurate ? TJFLAG_ACCURATEDCT : TJFLAG_FASTDCT) | TJFLAG_STOPONWARNING);
    if (status != 0) {
        snprintf(error, size, "the JPEG image could not be decoded: %s", lib.tj_error(handle));
        free(*pixels);
        *pixels = NULL;
    }
    lib.tj_destroy(handle);
    return status == 0 ? SHARE_IMAGE_OK : SHARE_IMAGE_UNDECODABLE;
}

/* Decodes a PNG or JPEG whose header said width × height to upright RGBA:
   a JPEG scaled on the way (decode_jpeg's least_side) and turned by its
   EXIF orientation. */
static int decode_upright(const unsigned char *data, size_t length, int format, int least_side,
                          uint8_t **pixels, int *width, int *height, char *error, size_t size) {
    *pixels = NULL;
    if (format == FORMAT_PNG) return decode_png(data, length, pixels, width, height, error, size);
    int status = decode_jpeg(data, length, least_side, 0, pixels, width, height, error, size);
    if (status != SHARE_IMAGE_OK) return status;
    *pixels = apply_orientation(*pixels, width, height, jpeg_orientation(data, (long)length));
    if (!*pixels) { snprintf(error, size, "out of memory"); return SHARE_IMAGE_FAILED; }
    return SHARE_IMAGE_OK;
}

int share_image_info(const unsigned char *data, size_t length, int *format, int *width, int *height, int *orientation,
                     char *error, size_t error_size) {
    load_decoders();
    *format = sniff(data, length);
    *orientation = *format == FORMAT_JPEG ? jpeg_orientation(data, (long)length) : 1;
    if (!decoder_loaded(*format, error, error_size)) return SHARE_IMAGE_FAILED;
    return read_header(data, length, *format, width, height, error, error_size);
}

int share_image_decode(const unsigned char *data, size_t length, int least_side, uint8_t **pixels,
                       int *width, int *height, char *error, size_t error_size) {
    load_decoders();
    *pixels = NULL;
    int format = sniff(data, length);
    if (!decoder_loaded(format, error, error_size)) return SHARE_IMAGE_FAILED;
    int status = read_header(data, length, format, width, height, error, error_size);
    if (status != SHARE_IMAGE_OK) return status;
    return decode_upright(data, length, format, least_side, pixels, width, height, error, error_size);
}

/* Scales RGBA pixels down to target_width × target_height by averaging the
   source pixels each target pixel covers (a box filter), weighting colour
   by alpha so that transparent pixels lend no colour. */
static uint8_t *scale_down(const uint8_t *pixels, int width, int height, int target_width, int target_height) {
    uint8_t *scaled = malloc((size_t)target_width * (size_t)target_height * 4);
    if (!scaled) return NULL;
    for (int y = 0; y < target_height; y++) {
        int top = (int)((long)y * height / target_height);
        int bottom = (int)((long)(y + 1) * height / target_height);
        if (bottom <= top) bottom = top + 1;
        for (int x = 0; x < target_width; x++) {
            int left = (int)((long)x * width / target_width);
            int right = (int)((long)(x + 1) * width / target_width);
            if (right <= left) right = left + 1;
            uint64_t red = 0, green = 0, blue = 0, alpha = 0, count = 0;
            for (int sy = top; sy < bottom; sy++) {
                const uint8_t *pixel = pixels + ((size_t)sy * (size_t)width + (size_t)left) * 4;
                for (int sx = left; sx < right; sx++, pixel += 4) {
                    red += (uint64_t)pixel[0] * pixel[3];
                    green += (uint64_t)pixel[1] * pixel[3];
                    blue += (uint64_t)pixel[2] * pixel[3];
                    alpha += pixel[3];
                    count++;
                }
            }
            uint8_t *out = scaled + ((size_t)y * (size_t)target_width + (size_t)x) * 4;
            out[0] = alpha ? (uint8_t)((red + alpha / 2) / alpha) : 0;
            out[1] = alpha ? (uint8_t)((green + alpha / 2) / alpha) : 0;
            out[2] = alpha ? (uint8_t)((blue + alpha / 2) / alpha) : 0;
            out[3] = (uint8_t)((alpha + count / 2) / count);
        }
    }
    return scaled;
}

/* RGBA pixels encoded as a PNG: RGBA, or RGB when alpha is 0 (the pixels are then packed to RGB in place). */
static unsigned char *encode_png(uint8_t *pixels, int width, int height, int alpha, size_t *output_size, char *error, size_t size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = alpha ? PNG_FORMAT_RGBA : PNG_FORMAT_RGB;
    if (!alpha) {
        size_t count = (size_t)width * (size_t)height;
        for (size_t index = 0; index < count; index++) memmove(pixels + index * 3, pixels + index * 4, 3);
    }
    png_alloc_size_t length = 0;
    if (!lib.png_write(&image, NULL, &length, 0, pixels, 0, NULL)) {
        snprintf(error, size, "cannot encode the PNG image: %s", image.message);
        return NULL;
    }
    unsigned char *output = malloc(length);
    if (!output) { snprintf(error, size, "out of memory"); return NULL; }
    if (!lib.png_write(&image, output, &length, 0, pixels, 0, NULL)) {
        snprintf(error, size, "cannot encode the PNG image: %s", image.message);
        free(output);
        return NULL;
    }
    *output_size = length;
    return output;
}

/* RGBA pixels encoded as a JPEG at quality (1 to 100) with the chroma subsampling given (TJSAMP_…). */
static unsigned char *encode_jpeg(const uint8_t *pixels, int width, int height, int quality, int subsampling, size_t *output_size,
                                  char *error, size_t size) {
    tjhandle handle = lib.tj_init_compress();
    unsigned char *encoded = NULL;
    unsigned long length = 0;
    if (!handle || lib.tj_compress(handle, pixels, width, 0, height, TJPF_RGBA, &encoded, &length, subsampling, quality, 0) != 0) {
        if (handle) lib.tj_destroy(handle);
        snprintf(error, size, "cannot encode the JPEG image");
        return NULL;
    }
    lib.tj_destroy(handle);
    /* One allocator for every output: the caller frees with free(). */
    unsigned char *output = malloc(length);
    if (output) memcpy(output, encoded, length); else snprintf(error, size, "out of memory");
    lib.tj_free(encoded);
    *output_size = length;
    return output;
}

int share_image_fit(const unsigned char *data, size_t length, int max_side, unsigned char **output, size_t *output_size,
                    int *format, int *width, int *height, char *error, size_t error_size) {
    load_decoders();
    *output = NULL;
    *output_size = 0;
    *format = sniff(data, length);
    if (!decoder_loaded(*format, error, error_size)) return SHARE_IMAGE_FAILED;
    int status = read_header(data, length, *format, width, height, error, error_size);
    if (status != SHARE_IMAGE_OK) return status;
    /* Decoded whole even when it fits as it is: a picture cut short is refused, never kept. */
    int fits = *width <= max_side && *height <= max_side;
    uint8_t *pixels = NULL;
    int stored_width = *width, stored_height = *height;
    status = fits ? (*format == FORMAT_PNG ? decode_png(data, length, &pixels, width, height, error, error_size)
                                           : decode_jpeg(data, length, 0, 0, &pixels, width, height, error, error_size))
                  : decode_upright(data, length, *format, max_side, &pixels, width, height, error, error_size);
    if (status != SHARE_IMAGE_OK) return status;
    if (fits) {
        /* Kept as it is, its EXIF orientation with it. */
        free(pixels);
        *width = stored_width;
        *height = stored_height;
        return SHARE_IMAGE_OK;
    }
    /* Encoded again (a JPEG without EXIF: its pixels were turned upright). */
    int longer = *width > *height ? *width : *height;
    int target_width = *width, target_height = *height;
    if (longer > max_side) {
        target_width = (int)(((long)*width * max_side + longer / 2) / longer);
        target_height = (int)(((long)*height * max_side + longer / 2) / longer);
        if (target_width < 1) target_width = 1;
        if (target_height < 1) target_height = 1;
    }
    /* Turned upright but small enough already: encoded again as it is. */
    uint8_t *fitted = (target_width == *width && target_height == *height)
        ? pixels : scale_down(pixels, *width, *height, target_width, target_height);
    status = SHARE_IMAGE_FAILED;
    if (fitted) {
        *output = *format == FORMAT_PNG ? encode_png(fitted, target_width, target_height, 1, output_size, error, error_size)
                                        : encode_jpeg(fitted, target_width, target_height, 90, TJSAMP_420, output_size, error, error_size);
        if (*output) { *width = target_width; *height = target_height; status = SHARE_IMAGE_OK; }
    } else {
        snprintf(error, error_size, "out of memory");
    }
    if (fitted != pixels) free(fitted);
    free(pixels);
    return status;
}

/* Reads a whole file of at most MAX_IMAGE_BYTES. */
static unsigned char *read_file(const char *path, size_t *length, char *error, size_t size) {
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(error, size, "cannot open the image: %s", strerror(errno)); return NULL; }
    unsigned char *data = NULL;
    long end = fseek(file, 0, SEEK_END) == 0 ? ftell(file) : -1;
    if (end <= 0 || end > MAX_IMAGE_BYTES) {
        snprintf(error, size, end > 0 ? "the image file is too large" : "cannot read the image");
    } else {
        rewind(file);
        data = malloc((size_t)end);
        if (!data || fread(data, 1, (size_t)end, file) != (size_t)end) {
            free(data);
            data = NULL;
            snprintf(error, size, "cannot read the image");
        }
    }
    fclose(file);
    *length = (size_t)end;
    return data;
}

int share_thumbnail_render(const char *path, int columns, int rows,
                           uint32_t *symbols, int *foreground, int *background,
                           char *error, size_t error_size) {
    if (share_library_load(&chafa, error, error_size) != 0) return -1;
    if (columns <= 0 || rows <= 0) { snprintf(error, error_size, "no room for a thumbnail"); return -1; }
    size_t length = 0;
    unsigned char *data = read_file(path, &length, error, error_size);
    if (!data) return -1;
    int width = 0, height = 0;
    uint8_t *pixels = NULL;
    /* A thumbnail is a few dozen cells: decoding at 1/8 of a large photo is plenty. */
    int status = share_image_decode(data, length, 4 * (columns > rows * 2 ? columns : rows * 2), &pixels, &width, &height,
                                    error, error_size);
    free(data);
    if (status != SHARE_IMAGE_OK) return -1;

    ChafaSymbolMap *map = lib.symbol_map_new();
    lib.symbol_map_add_by_tags(map, TAG_SPACE | TAG_BLOCK | TAG_HHALF | TAG_VHALF);
    ChafaCanvasConfig *config = lib.config_new();
    lib.config_set_geometry(config, columns, rows);
    lib.config_set_canvas_mode(config, CANVAS_MODE_INDEXED_256);
    lib.config_set_symbol_map(config, map);
    ChafaCanvas *canvas = lib.canvas_new(config);
    lib.draw_all_pixels(canvas, PIXEL_RGBA8_UNASSOCIATED, pixels, width, height, width * 4);
    for (int y = 0; y < rows; y++) {
        for (int x = 0; x < columns; x++) {
            int index = y * columns + x;
            symbols[index] = lib.get_char_at(canvas, x, y);
            lib.get_raw_colors_at(canvas, x, y, &foreground[index], &background[index]);
        }
    }
    lib.canvas_unref(canvas);
    lib.config_unref(config);
    lib.symbol_map_unref(map);
    free(pixels);
    return 0;
}

/* MARK: - Pictures changed before they are shared (--no-metadata, --resize) */

/* The lossless transform that turns a picture of each EXIF orientation upright. */
static const int turn_for_orientation[9] = {TJXOP_NONE, TJXOP_NONE, TJXOP_HFLIP, TJXOP_ROT180, TJXOP_VFLIP,
                                            TJXOP_TRANSPOSE, TJXOP_ROT90, TJXOP_TRANSVERSE, TJXOP_ROT270};

int share_jpeg_turn(const unsigned char *data, size_t length, int orientation, unsigned char **output, size_t *output_size,
                    char *error, size_t error_size) {
    load_decoders();
    *output = NULL;
    *output_size = 0;
    if (!lib.tj_init_transform || !lib.tj_transform) { snprintf(error, error_size, "libturbojpeg is not installed"); return SHARE_IMAGE_FAILED; }
    if (orientation < 2 || orientation > 8) { snprintf(error, error_size, "no turn for orientation %d", orientation); return SHARE_IMAGE_FAILED; }
    if (length > (size_t)MAX_IMAGE_BYTES) { snprintf(error, error_size, "the image file is too large"); return SHARE_IMAGE_FAILED; }
    tjhandle handle = lib.tj_init_transform();
    if (!handle) { snprintf(error, error_size, "out of memory"); return SHARE_IMAGE_FAILED; }
    tjtransform transform;
    memset(&transform, 0, sizeof transform);
    transform.op = turn_for_orientation[orientation];
    /* Whole blocks only: a picture whose edge blocks would be cut is turned by decoding instead. */
    transform.options = TJXOPT_PERFECT;
    unsigned char *turned = NULL;
    unsigned long turned_size = 0;
    int status = lib.tj_transform(handle, data, (unsigned long)length, 1, &turned, &turned_size, &transform, TJFLAG_STOPONWARNING);
    if (status != 0) {
        snprintf(error, error_size, "the JPEG image cannot be turned losslessly: %s", lib.tj_error(handle));
        lib.tj_destroy(handle);
        if (turned) lib.tj_free(turned);
        return SHARE_IMAGE_FAILED;
    }
    lib.tj_destroy(handle);
    *output = malloc(turned_size);
    if (*output) { memcpy(*output, turned, turned_size); *output_size = turned_size; }
    lib.tj_free(turned);
    if (!*output) { snprintf(error, error_size, "out of memory"); return SHARE_IMAGE_FAILED; }
    return SHARE_IMAGE_OK;
}

/* A JPEG's chroma subsampling once its picture is turned by orientation:
   4:2:2 and 4:4:0 swap when width and height do. */
static int subsampling_turned(int subsampling, int orientation) {
    if (subsampling < 0) return TJSAMP_420;
    if (orientation < 5) return subsampling;
    if (subsampling == TJSAMP_422) return TJSAMP_440;
    if (subsampling == TJSAMP_440) return TJSAMP_422;
    if (subsampling == TJSAMP_411) return TJSAMP_420;
    return subsampling;
}

int share_image_rework(const unsigned char *data, size_t length, int orientation, int max_side, int quality,
                       unsigned char **output, size_t *output_size, int *width, int *height, char *error, size_t error_size) {
    load_decoders();
    *output = NULL;
    *output_size = 0;
    int format = sniff(data, length);
    if (!decoder_loaded(format, error, error_size)) return SHARE_IMAGE_FAILED;
    int status = read_header(data, length, format, width, height, error, error_size);
    if (status != SHARE_IMAGE_OK) return status;
    /* What the encoder keeps of the original: a PNG's alpha, a JPEG's chroma subsampling. */
    int alpha = 1, subsampling = TJSAMP_420;
    if (format == FORMAT_PNG) {
        png_image image;
        if (!begin_png(&image, data, length, error, error_size)) return SHARE_IMAGE_UNDECODABLE;
        alpha = (image.format & PNG_FORMAT_FLAG_ALPHA) != 0;
        lib.png_free(&image);
    } else {
        tjhandle handle = lib.tj_init();
        int w = 0, h = 0, colorspace = 0;
        if (handle && lib.tj_header(handle, data, (unsigned long)length, &w, &h, &subsampling, &colorspace) != 0) subsampling = TJSAMP_420;
        if (handle) lib.tj_destroy(handle);
    }
    uint8_t *pixels = NULL;
    status = format == FORMAT_PNG ? decode_png(data, length, &pixels, width, height, error, error_size)
                                  : decode_jpeg(data, length, max_side, 1, &pixels, width, height, error, error_size);
    if (status != SHARE_IMAGE_OK) return status;
    pixels = apply_orientation(pixels, width, height, orientation);
    if (!pixels) { snprintf(error, error_size, "out of memory"); return SHARE_IMAGE_FAILED; }
    int longer = *width > *height ? *width : *height;
    int target_width = *width, target_height = *height;
    if (max_side > 0 && longer > max_side) {
        target_width = (int)(((long)*width * max_side + longer / 2) / longer);
        target_height = (int)(((long)*height * max_side + longer / 2) / longer);
        if (target_width < 1) target_width = 1;
        if (target_height < 1) target_height = 1;
    }
    uint8_t *fitted = (target_width == *width && target_height == *height)
        ? pixels : scale_down(pixels, *width, *height, target_width, target_height);
    status = SHARE_IMAGE_FAILED;
    if (fitted) {
        if (quality < 1) quality = 1;
        if (quality > 100) quality = 100;
        *output = format == FORMAT_PNG
            ? encode_png(fitted, target_width, target_height, alpha, output_size, error, error_size)
            : encode_jpeg(fitted, target_width, target_height, quality, subsampling_turned(subsampling, orientation), output_size,
                          error, error_size);
        if (*output) { *width = target_width; *height = target_height; status = SHARE_IMAGE_OK; }
    } else {
        snprintf(error, error_size, "out of memory");
    }
    if (fitted != pixels) free(fitted);
    free(pixels);
    return status;
}
