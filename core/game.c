/*
 * game.c - building and freeing games by variant name, and board-size parsing.  The helpers the
 * game modules use themselves (error_set, game_status_name) live below this file, in
 * core/error.c and game.h, because game.c calls the modules' setup.
 */
#include "game.h"
#include "modules.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct {
    const char *name;
    Variant variant;
    int default_width, default_height;
    bool resizable;
} VariantInfo;

static const VariantInfo variants[] = {
    {"epaminondas", VARIANT_EPAMINONDAS, 14, 12, true},
    {"crossings", VARIANT_CROSSINGS, 8, 8, true},
    {"reversi", VARIANT_REVERSI, 8, 8, false},
    {"igfip", VARIANT_IGFIP, 14, 12, true},
};

static const VariantInfo *find_variant(const char *name, Error *err)
{
    for (size_t i = 0; i < sizeof variants / sizeof variants[0]; i++)
        if (name && strcmp(name, variants[i].name) == 0)
            return &variants[i];
    error_set(err, "unknown variant '%s' (expected epaminondas, crossings, igfip or reversi)", name ? name : "");
    return NULL;
}

/* Digits, at most three, into *v; the characters read, 0 when there are none. */
static int size_digits(const char *s, int *v)
{
    int n = 0;
    for (*v = 0; n < 3 && s[n] >= '0' && s[n] <= '9'; n++)
        *v = *v * 10 + (s[n] - '0');
    return n;
}

/* WxH exactly: digits, one x (or X), digits.  sscanf's %d took blanks and signs (' 5x5',
 * '+5x5') and %[xX] any run of x's. */
bool game_parse_size(const char *text, int *width, int *height, Error *err)
{
    int w = 0, h = 0, a = size_digits(text, &w);
    int b = a && (text[a] == 'x' || text[a] == 'X') ? size_digits(text + a + 1, &h) : 0;
    if (b == 0 || text[a + 1 + b] != '\0') {
        error_set(err, "bad board size '%s' (expected WxH, e.g. 8x8)", text);
        return false;
    }
    if (w < 3 || w > 16 || h < 5 || h > 16) {
        error_set(err, "board size %dx%d out of range (width 3-16, height 5-16)", w, h);
        return false;
    }
    *width = w;
    *height = h;
    return true;
}

static Game *build(const VariantInfo *v, int width, int height, const unsigned char *obstacles, Error *err)
{
    if (!v->resizable && ((width && width != v->default_width) || (height && height != v->default_height))) {
        error_set(err, "%s is played on %dx%d only", v->name, v->default_width, v->default_height);
        return NULL;
    }
    Game *g = calloc(1, sizeof *g);
    if (!g) {
        error_set(err, "out of memory");
        return NULL;
    }
    g->variant = v->variant;
    g->name = v->name;
    g->width = width ? width : v->default_width;
    g->height = height ? height : v->default_height;
    bool ok = v->variant == VARIANT_REVERSI ? reversi_setup(g, err) : phalanx_setup(g, obstacles, err);
    if (!ok) {
        free(g);
        return NULL;
    }
    return g;
}

Game *game_new(const char *variant_name, int width, int height, Error *err)
{
    const VariantInfo *v = find_variant(variant_name, err);
    return v ? build(v, width, height, NULL, err) : NULL;
}

Game *game_new_for_position(const char *variant_name, const char *position, Position *pos, Error *err)
{
    const VariantInfo *v = find_variant(variant_name, err);
    if (!v)
        return NULL;
    Game *g;
    if (v->variant == VARIANT_REVERSI) {
        g = build(v, 0, 0, NULL, err);
    } else {
        int w, h;
        unsigned char obstacles[256];
        if (!phalanx_scan_shape(position, &w, &h, obstacles, err))
            return NULL;
        g = build(v, w, h, obstacles, err);
    }
    if (g && !game_parse_position(g, position, pos, err)) {
        game_free(g);
        return NULL;
    }
    return g;
}

void game_free(Game *game)
{
    if (!game)
        return;
    if (game->variant == VARIANT_REVERSI)
        reversi_teardown(game);
    else
        phalanx_teardown(game);
    free(game);
}
