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
    int (*png_begin)(png_imagep, const char *);
    int (*png_finish)(png_imagep, png_const_colorp, void *, png_int_32, void *);
    void (*png_free)(png_imagep);
    int (*png_write)(png_imagep, void *, png_alloc_size_t *, int, const void *, png_int_32, const void *);
    tjhandle (*tj_init)(void);
    int (*tj_header)(tjhandle, const unsigned char *, unsigned long, int *, int *, int *, int *);
    int (*tj_decompress)(tjhandle, const unsigned char *, unsigned long, unsigned char *, int, int, int, int, int);
    int (*tj_destroy)(tjhandle);
    tjhandle (*tj_init_compress)(void);
    int (*tj_compress)(tjhandle, const unsigned char *, int, int, int, int, unsigned char **, unsigned long *, int, int, int);
    void (*tj_free)(unsigned char *);
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
        {"png_image_begin_read_from_file", &lib.png_begin}, {"png_image_finish_read", &lib.png_finish},
        {"png_image_free", &lib.png_free}, {"png_image_write_to_memory", &lib.png_write}, {NULL, NULL}},
};

static struct share_library jpeg = {
    .sonames = {"libturbojpeg.so.0"},
    .symbols = (const struct share_symbol[]){
        {"tjInitDecompress", &lib.tj_init}, {"tjDecompressHeader3", &lib.tj_header}, {"tjDecompress2", &lib.tj_decompress},
        {"tjDestroy", &lib.tj_destroy}, {"tjInitCompress", &lib.tj_init_compress}, {"tjCompress2", &lib.tj_compress},
        {"tjFree", &lib.tj_free}, {NULL, NULL}},
};

/* Loads the decoders, each once; a missing one leaves its functions NULL. */
static void load_decoders(void) {
    share_library_load(&png, NULL, 0);
    share_library_load(&jpeg, NULL, 0);
}

#define MAX_PIXELS (40L * 1000 * 1000)
#define MAX_JPEG_BYTES (64L * 1024 * 1024)

enum { FORMAT_NONE = 0, FORMAT_PNG = 1, FORMAT_JPEG = 2 };

/* PNG or JPEG, from the file's first bytes; the file is left open. */
static int sniff(FILE *file) {
    unsigned char magic[4] = {0};
    size_t got = fread(magic, 1, sizeof magic, file);
    if (got >= 4 && magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G') return FORMAT_PNG;
    if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) return FORMAT_JPEG;
    return FORMAT_NONE;
}

static uint8_t *decode_png(const char *path, int *width, int *height, char *error, size_t size) {
    if (!lib.png_begin) { snprintf(error, size, "libpng is not installed"); return NULL; }
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    if (!lib.png_begin(&image, path)) { snprintf(error, size, "%s", image.message); return NULL; }
    if ((long)image.width * (long)image.height > MAX_PIXELS) {
        lib.png_free(&image);
        snprintf(error, size, "the image is too large for a thumbnail");
        return NULL;
    }
    image.format = PNG_FORMAT_RGBA;
    uint8_t *pixels = malloc(PNG_IMAGE_SIZE(image));
    if (!pixels) { lib.png_free(&image); snprintf(error, size, "out of memory"); return NULL; }
    if (!lib.png_finish(&image, NULL, pixels, 0, NULL)) {
        snprintf(error, size, "%s", image.message);
        lib.png_free(&image);
        free(pixels);
        return NULL;
    }
    *width = (int)image.width;
    *height = (int)image.height;
    return pixels;
}

/* Reads a whole file of at most MAX_JPEG_BYTES. */
static unsigned char *read_all(FILE *file, long *length, char *error, size_t size) {
    if (fseek(file, 0, SEEK_END) != 0) { snprintf(error, size, "cannot read the image"); return NULL; }
    *length = ftell(file);
    if (*length <= 0 || *length > MAX_JPEG_BYTES) { snprintf(error, size, "the image file is too large"); return NULL; }
    rewind(file);
    unsigned char *data = malloc((size_t)*length);
    if (!data || fread(data, 1, (size_t)*length, file) != (size_t)*length) {
        free(data);
        snprintf(error, size, "cannot read the image");
        return NULL;
    }
    return data;
}

/* Reads a JPEG file and its size from its header; NULL with a reason when it cannot. */
static unsigned char *read_jpeg(FILE *file, long *length, int *width, int *height, char *error, size_t size) {
    if (!lib.tj_init) { snprintf(error, size, "libturbojpeg is not installed"); return NULL; }
    unsigned char *data = read_all(file, length, error, size);
    if (!data) return NULL;
    tjhandle handle = lib.tj_init();
    int subsampling = 0, colorspace = 0;
    if (!handle || lib.tj_header(handle, data, (unsigned long)*length, width, height, &subsampling, &colorspace) != 0) {
        snprintf(error, size, "the JPEG image could not be read");
        free(data);
        data = NULL;
    }
    if (handle) lib.tj_destroy(handle);
    return data;
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

/* Decodes JPEG data of width × height (from its header) to RGBA. With least_side > 0 the decoder scales by
   1/2, 1/4 or 1/8 on the way (libjpeg-turbo's DCT scaling, far cheaper than
   decoding every pixel) as long as the longer side stays at least that. */
static uint8_t *decode_jpeg(const unsigned char *data, long length, int least_side, int *width, int *height,
                            char *error, size_t size) {
    tjhandle handle = lib.tj_init();
    uint8_t *pixels = NULL;
    if (handle) {
        int longer = *width > *height ? *width : *height;
        int denominator = 1;
        while (least_side > 0 && denominator < 8 && longer / (denominator * 2) >= least_side) denominator *= 2;
        *width = (*width + denominator - 1) / denominator;
        *height = (*height + denominator - 1) / denominator;
        if ((long)*width * (long)*height <= MAX_PIXELS) {
            pixels = malloc((size_t)*width * (size_t)*height * 4);
            if (pixels && lib.tj_decompress(handle, data, (unsigned long)length, pixels, *width, 0, *height,
                                             TJPF_RGBA, TJFLAG_FASTDCT) != 0) {
                free(pixels);
                pixels = NULL;
            }
        }
    }
    if (!pixels) snprintf(error, size, "the JPEG image could not be decoded");
    if (handle) lib.tj_destroy(handle);
    return pixels;
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

static unsigned char *encode_png(const uint8_t *pixels, int width, int height, size_t *output_size, char *error, size_t size) {
    png_image image;
    memset(&image, 0, sizeof image);
    image.version = PNG_IMAGE_VERSION;
    image.width = (png_uint_32)width;
    image.height = (png_uint_32)height;
    image.format = PNG_FORMAT_RGBA;
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

static unsigned char *encode_jpeg(const uint8_t *pixels, int width, int height, size_t *output_size, char *error, size_t size) {
    tjhandle handle = lib.tj_init_compress();
    unsigned char *encoded = NULL;
    unsigned long length = 0;
    if (!handle || lib.tj_compress(handle, pixels, width, 0, height, TJPF_RGBA, &encoded, &length, TJSAMP_420, 90, 0) != 0) {
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

int share_image_fit(const char *path, int max_side, unsigned char **output, size_t *output_size,
                    int *format, int *width, int *height, char *error, size_t error_size) {
    load_decoders();
    *output = NULL;
    *output_size = 0;
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(error, error_size, "cannot open the image: %s", strerror(errno)); return -1; }
    *format = sniff(file);
    int result = -1;
    uint8_t *pixels = NULL;
    if (*format == FORMAT_PNG) {
        if (!lib.png_begin) {
            snprintf(error, error_size, "libpng is not installed");
        } else {
            png_image image;
            memset(&image, 0, sizeof image);
            image.version = PNG_IMAGE_VERSION;
            if (!lib.png_begin(&image, path)) {
                snprintf(error, error_size, "the PNG image could not be read: %s", image.message);
            } else {
                *width = (int)image.width;
                *height = (int)image.height;
                lib.png_free(&image);
                if (*width <= max_side && *height <= max_side) result = 0;
                else pixels = decode_png(path, width, height, error, error_size);
            }
        }
    } else if (*format == FORMAT_JPEG) {
        long length = 0;
        unsigned char *data = read_jpeg(file, &length, width, height, error, error_size);
        if (data && *width <= max_side && *height <= max_side) {
            result = 0;  /* kept as it is, its EXIF orientation with it */
        } else if (data) {
            /* Encoded again without EXIF: the pixels are turned upright first. */
            pixels = decode_jpeg(data, length, max_side, width, height, error, error_size);
            if (pixels) {
                pixels = apply_orientation(pixels, width, height, jpeg_orientation(data, length));
                if (!pixels) snprintf(error, error_size, "out of memory");
            }
        }
        free(data);
    } else {
        snprintf(error, error_size, "only PNG and JPEG images can be read");
    }
    fclose(file);
    if (pixels) {
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
        if (fitted) {
            *output = *format == FORMAT_PNG ? encode_png(fitted, target_width, target_height, output_size, error, error_size)
                                            : encode_jpeg(fitted, target_width, target_height, output_size, error, error_size);
            if (*output) { *width = target_width; *height = target_height; result = 0; }
        } else {
            snprintf(error, error_size, "out of memory");
        }
        if (fitted != pixels) free(fitted);
        free(pixels);
    }
    return result;
}

int share_thumbnail_render(const char *path, int columns, int rows,
                           uint32_t *symbols, int *foreground, int *background,
                           char *error, size_t error_size) {
    if (share_library_load(&chafa, error, error_size) != 0) return -1;
    load_decoders();
    if (columns <= 0 || rows <= 0) { snprintf(error, error_size, "no room for a thumbnail"); return -1; }
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(error, error_size, "cannot open the image"); return -1; }
    int format = sniff(file);
    int width = 0, height = 0;
    uint8_t *pixels = NULL;
    if (format == FORMAT_PNG) {
        pixels = decode_png(path, &width, &height, error, error_size);
    } else if (format == FORMAT_JPEG) {
        long length = 0;
        unsigned char *data = read_jpeg(file, &length, &width, &height, error, error_size);
        /* A thumbnail is a few dozen cells: decoding at 1/8 of a large photo is plenty. */
        if (data) pixels = decode_jpeg(data, length, 4 * (columns > rows * 2 ? columns : rows * 2), &width, &height,
                                       error, error_size);
        if (pixels) pixels = apply_orientation(pixels, &width, &height, jpeg_orientation(data, length));
        free(data);
    } else {
        snprintf(error, error_size, "only PNG and JPEG images get a thumbnail");
    }
    fclose(file);
    if (!pixels) return -1;

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
