#include "CThumbnail.h"

#include <dlfcn.h>
#include <png.h>
#include <pthread.h>
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
    int loaded;
    char error[256];
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
    tjhandle (*tj_init)(void);
    int (*tj_header)(tjhandle, const unsigned char *, unsigned long, int *, int *, int *, int *);
    int (*tj_decompress)(tjhandle, const unsigned char *, unsigned long, unsigned char *, int, int, int, int, int);
    int (*tj_destroy)(tjhandle);
} lib;

static pthread_once_t once = PTHREAD_ONCE_INIT;

static int resolve(void *library, void *slot, const char *name) {
    void *symbol = library ? dlsym(library, name) : NULL;
    if (!symbol) {
        snprintf(lib.error, sizeof lib.error, "%s is missing", name);
        return 0;
    }
    memcpy(slot, &symbol, sizeof symbol);
    return 1;
}

static void load(void) {
    void *chafa = dlopen("libchafa.so.0", RTLD_NOW | RTLD_LOCAL);
    void *png = dlopen("libpng16.so.16", RTLD_NOW | RTLD_LOCAL);
    void *jpeg = dlopen("libturbojpeg.so.0", RTLD_NOW | RTLD_LOCAL);
    if (!chafa) {
        snprintf(lib.error, sizeof lib.error, "libchafa is not installed");
        return;
    }
    lib.loaded = resolve(chafa, &lib.symbol_map_new, "chafa_symbol_map_new")
        && resolve(chafa, &lib.symbol_map_add_by_tags, "chafa_symbol_map_add_by_tags")
        && resolve(chafa, &lib.symbol_map_unref, "chafa_symbol_map_unref")
        && resolve(chafa, &lib.config_new, "chafa_canvas_config_new")
        && resolve(chafa, &lib.config_set_geometry, "chafa_canvas_config_set_geometry")
        && resolve(chafa, &lib.config_set_canvas_mode, "chafa_canvas_config_set_canvas_mode")
        && resolve(chafa, &lib.config_set_symbol_map, "chafa_canvas_config_set_symbol_map")
        && resolve(chafa, &lib.config_unref, "chafa_canvas_config_unref")
        && resolve(chafa, &lib.canvas_new, "chafa_canvas_new")
        && resolve(chafa, &lib.draw_all_pixels, "chafa_canvas_draw_all_pixels")
        && resolve(chafa, &lib.get_char_at, "chafa_canvas_get_char_at")
        && resolve(chafa, &lib.get_raw_colors_at, "chafa_canvas_get_raw_colors_at")
        && resolve(chafa, &lib.canvas_unref, "chafa_canvas_unref");
    /* The decoders are optional one by one: a missing one only loses its format. */
    if (png) {
        if (!(resolve(png, &lib.png_begin, "png_image_begin_read_from_file")
              && resolve(png, &lib.png_finish, "png_image_finish_read")
              && resolve(png, &lib.png_free, "png_image_free"))) lib.png_begin = NULL;
    }
    if (jpeg) {
        if (!(resolve(jpeg, &lib.tj_init, "tjInitDecompress")
              && resolve(jpeg, &lib.tj_header, "tjDecompressHeader3")
              && resolve(jpeg, &lib.tj_decompress, "tjDecompress2")
              && resolve(jpeg, &lib.tj_destroy, "tjDestroy"))) lib.tj_init = NULL;
    }
}

#define MAX_PIXELS (40L * 1000 * 1000)
#define MAX_JPEG_BYTES (64L * 1024 * 1024)

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

static uint8_t *decode_jpeg(FILE *file, int *width, int *height, char *error, size_t size) {
    if (!lib.tj_init) { snprintf(error, size, "libturbojpeg is not installed"); return NULL; }
    if (fseek(file, 0, SEEK_END) != 0) { snprintf(error, size, "cannot read the image"); return NULL; }
    long length = ftell(file);
    if (length <= 0 || length > MAX_JPEG_BYTES) { snprintf(error, size, "the image is too large for a thumbnail"); return NULL; }
    rewind(file);
    unsigned char *data = malloc((size_t)length);
    if (!data || fread(data, 1, (size_t)length, file) != (size_t)length) {
        free(data);
        snprintf(error, size, "cannot read the image");
        return NULL;
    }
    tjhandle handle = lib.tj_init();
    int subsampling = 0, colorspace = 0;
    uint8_t *pixels = NULL;
    if (handle && lib.tj_header(handle, data, (unsigned long)length, width, height, &subsampling, &colorspace) == 0
        && (long)*width * (long)*height <= MAX_PIXELS) {
        pixels = malloc((size_t)*width * (size_t)*height * 4);
        if (pixels && lib.tj_decompress(handle, data, (unsigned long)length, pixels, *width, 0, *height,
                                         TJPF_RGBA, TJFLAG_FASTDCT) != 0) {
            free(pixels);
            pixels = NULL;
        }
    }
    if (!pixels) snprintf(error, size, "the JPEG image could not be decoded");
    if (handle) lib.tj_destroy(handle);
    free(data);
    return pixels;
}

int share_thumbnail_render(const char *path, int columns, int rows,
                           uint32_t *symbols, int *foreground, int *background,
                           char *error, size_t error_size) {
    pthread_once(&once, load);
    if (!lib.loaded) { snprintf(error, error_size, "%s", lib.error); return -1; }
    if (columns <= 0 || rows <= 0) { snprintf(error, error_size, "no room for a thumbnail"); return -1; }
    FILE *file = fopen(path, "rb");
    if (!file) { snprintf(error, error_size, "cannot open the image"); return -1; }
    unsigned char magic[4] = {0};
    size_t got = fread(magic, 1, sizeof magic, file);
    int width = 0, height = 0;
    uint8_t *pixels = NULL;
    if (got >= 4 && magic[0] == 0x89 && magic[1] == 'P' && magic[2] == 'N' && magic[3] == 'G') {
        pixels = decode_png(path, &width, &height, error, error_size);
    } else if (got >= 3 && magic[0] == 0xFF && magic[1] == 0xD8 && magic[2] == 0xFF) {
        pixels = decode_jpeg(file, &width, &height, error, error_size);
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
