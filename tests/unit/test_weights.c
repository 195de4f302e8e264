/*
 * test_weights.c - weights files (docs/WEIGHTS.md): a valid file in every permitted spelling,
 * each error with its message and line, exact save/load round trips, atomic saving (no
 * temporary file left, an old file replaced whole), the identity hash, and that the compiled-in
 * defaults are exactly the shipped data/weights/<game>.txt files.
 */
#include "data/weights.h"
#include "test.h"

#include <dirent.h>
#include <math.h>
#include <stdlib.h>
#include <unistd.h>

static Game *new_game(const char *variant)
{
    Error err;
    return game_new(variant, 0, 0, &err);
}

/* A complete valid text for g with weight i = (i + 1) / 8, after `before` (lines ahead of the
 * weights) and with `extra` lines appended. */
static void valid_text(const Game *g, const char *before, const char *extra, char *out, size_t len)
{
    size_t used = (size_t)snprintf(out, len, "%sgame %s\n", before, g->name);
    for (int i = 0; i < g->ops->num_features; i++)
        used += (size_t)snprintf(out + used, len - used, "%s %g\n", g->ops->feature_names[i], (i + 1) / 8.0);
    snprintf(out + used, len - used, "%s", extra);
}

/* The error message for text, or "" if it parses. */
static const char *parse_error(const Game *g, const char *text, Error *err)
{
    Weights w;
    err->msg[0] = '\0';
    if (weights_parse(g, text, "w.txt", &w, err))
        return "";
    return err->msg;
}

#define CHECK_ERROR(t, g, text, want)                                                                   \
    do {                                                                                                \
        Error err_;                                                                                     \
        const char *got_ = parse_error(g, text, &err_);                                                 \
        if (!strstr(got_, want) || !got_[0]) {                                                          \
            fprintf(stderr, "  %s:%d: error \"%s\", want it to contain \"%s\"\n", __FILE__, __LINE__, got_, want); \
            (t)->failures++;                                                                            \
        }                                                                                               \
    } while (0)

/* --- reading ------------------------------------------------------------------------------------ */

static void test_parse_valid(TestContext *t)
{
    Game *g = new_game("epaminondas");
    char text[4096];
    valid_text(g, "# leuctra weights\n\n   # indented comment\n", "\n# trailing comment\n", text, sizeof text);
    Weights w;
    Error err;
    CHECK(t, weights_parse(g, text, "w.txt", &w, &err));
    CHECK(t, w.variant == VARIANT_EPAMINONDAS);
    CHECK(t, w.count == g->ops->num_features);
    for (int i = 0; i < w.count; i++)
        CHECK(t, w.w[i] == (i + 1) / 8.0);
    /* a byte order mark at the start of the file is no part of its first line */
    valid_text(g, "\xEF\xBB\xBF# saved by an editor that marks UTF-8\n", "", text, sizeof text);
    CHECK(t, weights_parse(g, text, "w.txt", &w, &err));
    valid_text(g, "\xEF\xBB\xBF", "", text, sizeof text);
    CHECK(t, weights_parse(g, text, "w.txt", &w, &err));
    /* anywhere else it is what it is: not a feature name */
    valid_text(g, "# a comment\n\xEF\xBB\xBF", "", text, sizeof text);
    CHECK(t, !weights_parse(g, text, "w.txt", &w, &err) && strstr(err.msg, "w.txt:2:"));
    game_free(g);
}

/* Tabs, CRLF line ends, inline comments, signs and exponents are all allowed. */
static void test_parse_spellings(TestContext *t)
{
    Game *g = new_game("reversi");
    const char *text = "game reversi  # the game\r\n"
                       "mobility\t+1.5\r\n"
                       "  potential_mobility -.25   # a comment\n"
                       "frontier 1e-3\n"
                       "corners 2.E+1\n"
                       "corner_moves -0\n"
                       "x_squares 7\n"
                       "c_squares 0.000\n"
                       "edges 1E2\n"
                       "stable 3.\n"
                       "discs -1.25e-2\n"
                       "discs_late 0\n"
                       "parity 0.1";    /* no final newline */
    Weights w;
    Error err;
    bool ok = weights_parse(g, text, "w.txt", &w, &err);
    CHECK(t, ok);
    if (!ok)
        fprintf(stderr, "  %s\n", err.msg);
    double want[] = {1.5, -0.25, 1e-3, 20, -0.0, 7, 0, 100, 3, -1.25e-2, 0, 0.1};
    for (int i = 0; ok && i < 12; i++)
        CHECK(t, w.w[i] == want[i]);
    game_free(g);
}

static void test_parse_errors(TestContext *t)
{
    Game *g = new_game("epaminondas");
    char text[8192];
    valid_text(g, "", "bogus 1\n", text, sizeof text);
    CHECK_ERROR(t, g, text, "w.txt:20: unknown feature 'bogus' for epaminondas");
    valid_text(g, "", "material 2\n", text, sizeof text);
    CHECK_ERROR(t, g, text, "w.txt:20: duplicate feature 'material' (first set on line 2)");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1\nmobility 2\n", "w.txt: 16 features missing: long_moves, captures");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1\nmobility 2\n", "...");
    CHECK_ERROR(t, g, "# only a comment\n", "w.txt: missing 'game' line");
    CHECK_ERROR(t, g, "", "w.txt: missing 'game' line");
    CHECK_ERROR(t, g, "# x\nmaterial 1\ngame epaminondas\n", "w.txt:2: 'material' before the game line");
    CHECK_ERROR(t, g, "game reversi\n", "w.txt:1: weights are for reversi, this game is epaminondas");
    CHECK_ERROR(t, g, "game\n", "w.txt:1: 'game' without a name");
    CHECK_ERROR(t, g, "game epaminondas extra\n", "w.txt:1: unexpected text 'extra' after the game name");
    CHECK_ERROR(t, g, "game epaminondas\ngame epaminondas\n", "w.txt:2: second 'game' line (the first is line 1)");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial\n", "w.txt:2: feature 'material' has no value");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial abc\n", "w.txt:2: bad number 'abc' for 'material'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1.5x\n", "w.txt:2: bad number '1.5x' for 'material': trailing junk 'x'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1,5\n", "trailing junk ',5'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 0x10\n", "trailing junk 'x10'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1e\n", "trailing junk 'e'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial inf\n", "bad number 'inf'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial nan\n", "bad number 'nan'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial .\n", "bad number '.'");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1e999\n", "w.txt:2: number '1e999' for 'material' is not finite");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial -1e400\n", "is not finite");
    /* finite, but log-odds no evaluation can use (summed they overflowed to a logit of inf) */
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1e300\n", "w.txt:2: weight '1e300' for 'material' is beyond +-1e+06");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial -1000001\n", "beyond +-1e+06");
    CHECK_ERROR(t, g, "game epaminondas\nmaterial 1 2\n", "w.txt:2: unexpected text '2' after the value");
    /* overlong lines, comments included */
    char *long_text = malloc(WEIGHTS_MAX_LINE + 64);
    snprintf(long_text, WEIGHTS_MAX_LINE + 64, "# ok\n# %*s\n", WEIGHTS_MAX_LINE, "x");
    CHECK_ERROR(t, g, long_text, "w.txt:2: line longer than 1024 characters");
    snprintf(long_text, WEIGHTS_MAX_LINE + 64, "#%*s\n", WEIGHTS_MAX_LINE - 1, "x");   /* exactly the limit */
    CHECK_ERROR(t, g, long_text, "missing 'game' line");
    free(long_text);
    /* non-printing input is shown safely and the message stays on one line */
    Error err;
    parse_error(g, "game epaminondas\nmat\x01rial 1\n", &err);
    CHECK(t, strstr(err.msg, "unknown feature 'mat?rial'"));
    CHECK(t, !strchr(err.msg, '\n'));
    game_free(g);
}

/* A source name appears in every message, and the parser writes nothing past the Error. */
static void test_error_names_source(TestContext *t)
{
    Game *g = new_game("crossings");
    Weights w;
    Error err;
    CHECK(t, !weights_parse(g, "game crossings\nx 1\n", "/some/dir/mine.txt", &w, &err));
    CHECK_STR(t, err.msg, "/some/dir/mine.txt:2: unknown feature 'x' for crossings");
    game_free(g);
}

/* --- files ---------------------------------------------------------------------------------------- */

typedef struct {
    char dir[64];
} TempDir;

static bool temp_dir(TestContext *t, TempDir *d)
{
    snprintf(d->dir, sizeof d->dir, "/tmp/leuctra-weights-XXXXXX");
    if (!mkdtemp(d->dir)) {
        fprintf(stderr, "  mkdtemp failed\n");
        t->failures++;
        return false;
    }
    return true;
}

static void path_in(const TempDir *d, const char *name, char *out, size_t len)
{
    snprintf(out, len, "%s/%s", d->dir, name);
}

static int count_entries(const TempDir *d)
{
    DIR *dir = opendir(d->dir);
    int n = 0;
    for (struct dirent *e; dir && (e = readdir(dir));)
        n += e->d_name[0] != '.';
    if (dir)
        closedir(dir);
    return n;
}

static void remove_dir(const TempDir *d)
{
    DIR *dir = opendir(d->dir);
    char path[512];
    for (struct dirent *e; dir && (e = readdir(dir));)
        if (e->d_name[0] != '.') {
            path_in(d, e->d_name, path, sizeof path);
            unlink(path);
        }
    if (dir)
        closedir(dir);
    rmdir(d->dir);
}

static void write_text(const char *path, const char *text, size_t len)
{
    FILE *f = fopen(path, "wb");
    if (f) {
        fwrite(text, 1, len, f);
        fclose(f);
    }
}

static void test_load_errors(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    Game *g = new_game("reversi");
    Weights w;
    Error err;
    char path[256];
    path_in(&d, "missing.txt", path, sizeof path);
    CHECK(t, !weights_load(g, path, &w, &err));
    CHECK(t, strstr(err.msg, "cannot read weights file"));
    CHECK(t, strstr(err.msg, "missing.txt"));
    CHECK(t, strstr(err.msg, "No such file"));
    CHECK(t, !weights_load(g, d.dir, &w, &err));    /* a directory */
    CHECK(t, strstr(err.msg, "cannot read weights file") != NULL);
    path_in(&d, "nul.txt", path, sizeof path);
    write_text(path, "game reversi\n# a\0b\n", 19);
    CHECK(t, !weights_load(g, path, &w, &err));
    CHECK(t, strstr(err.msg, "nul.txt:2: NUL byte") != NULL);
    path_in(&d, "wrong.txt", path, sizeof path);
    write_text(path, "game crossings\n", 15);
    CHECK(t, !weights_load(g, path, &w, &err));
    CHECK(t, strstr(err.msg, "wrong.txt:1: weights are for crossings, this game is reversi") != NULL);
    game_free(g);
    remove_dir(&d);
}

/* Values that only survive a text round trip printed with 17 significant digits, and the largest
 * magnitude a file may hold (half of WEIGHTS_MAX_VALUE, which the loop below doubles at most). */
static void awkward_weights(const Game *g, Weights *w)
{
    static const double values[] = {0.1, 1.0 / 3, -2.0 / 3, 1e-300, -WEIGHTS_MAX_VALUE / 2, 5e-324, 123456.789123456789,
                                    -0.0, 0.0, 1.0 - 0x1p-53, 3.14159265358979323846, -1e-7};
    weights_zero(g, w);
    for (int i = 0; i < w->count; i++)
        w->w[i] = values[i % (sizeof values / sizeof values[0])] * (1 + i / 12);
}

static void test_save_load_round_trip(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    const char *variants[] = {"epaminondas", "crossings", "reversi"};
    for (int v = 0; v < 3; v++) {
        Game *g = new_game(variants[v]);
        Weights w, back;
        Error err;
        char path[256];
        path_in(&d, "w.txt", path, sizeof path);
        awkward_weights(g, &w);
        CHECK(t, weights_save(g, &w, "tuned by test_weights\n\nsecond paragraph", path, &err));
        CHECK(t, weights_load(g, path, &back, &err));
        CHECK(t, back.variant == w.variant);
        CHECK(t, back.count == w.count);
        CHECK(t, memcmp(back.w, w.w, sizeof(double) * (size_t)w.count) == 0);   /* bit for bit, -0 too */
        CHECK(t, weights_id(&back) == weights_id(&w));
        CHECK(t, count_entries(&d) == 1);   /* the temporary file is gone */
        game_free(g);
    }
    remove_dir(&d);
}

static void test_save_writes_comments(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    /* Linear weights alone are written as text: on 6x7 the default is the text file (a table
     * file is for the board its tables were made for). */
    Error err;
    Game *g = game_new("crossings", 6, 7, &err);
    Weights w;
    char path[256], text[4096] = "";
    path_in(&d, "c.txt", path, sizeof path);
    CHECK(t, g != NULL);
    if (!g) {
        remove_dir(&d);
        return;
    }
    CHECK(t, weights_default(g, &w) && !w.tables && !w.policy);
    CHECK(t, weights_save(g, &w, "from run 7\nseed 42\n", path, &err));
    FILE *f = fopen(path, "r");
    size_t n = f ? fread(text, 1, sizeof text - 1, f) : 0;
    text[n] = '\0';
    if (f)
        fclose(f);
    char id[17], id_line[32];
    weights_id_text(&w, id);
    snprintf(id_line, sizeof id_line, "# id %s\n", id);
    CHECK(t, strncmp(text, "# leuctra weights", 17) == 0);
    CHECK(t, strstr(text, "\n# from run 7\n# seed 42\n") != NULL);
    CHECK(t, strstr(text, id_line) != NULL);
    CHECK(t, strstr(text, "\ngame crossings\nmaterial ") != NULL);
    game_free(g);
    remove_dir(&d);
}

/* Saving over a file replaces it whole; saving where no file can be made fails and leaves
 * nothing behind. */
static void test_save_atomic(TestContext *t)
{
    TempDir d;
    if (!temp_dir(t, &d))
        return;
    Game *g = new_game("epaminondas");
    Weights w, back = {0};
    Error err;
    char path[256];
    path_in(&d, "w.txt", path, sizeof path);
    write_text(path, "old contents, much longer than nothing at all\n", 46);
    weights_default(g, &w);
    w.w[0] = 42;
    CHECK(t, weights_save(g, &w, NULL, path, &err));
    CHECK(t, weights_load(g, path, &back, &err) && back.w[0] == 42);
    CHECK(t, count_entries(&d) == 1);
    char bad[256];
    path_in(&d, "no/such/dir/w.txt", bad, sizeof bad);
    CHECK(t, !weights_save(g, &w, NULL, bad, &err));
    CHECK(t, strstr(err.msg, "cannot save weights"));
    CHECK(t, strstr(err.msg, "no/such/dir/w.txt"));
    CHECK(t, count_entries(&d) == 1);
    Weights other;
    Game *r = new_game("reversi");
    weights_default(r, &other);
    CHECK(t, !weights_save(g, &other, NULL, path, &err));   /* reversi weights, epaminondas game */
    CHECK(t, strstr(err.msg, "not epaminondas weights") != NULL);
    weights_dispose(&other);
    weights_dispose(&back);
    weights_dispose(&w);
    game_free(r);
    game_free(g);
    remove_dir(&d);
}

/* --- identity and defaults ------------------------------------------------------------------------ */

static void test_weights_id(TestContext *t)
{
    Game *g = new_game("reversi");
    Weights a, b;
    weights_default(g, &a);
    b = a;
    CHECK(t, weights_id(&a) == weights_id(&b));
    b.w[3] = nextafter(b.w[3], 1e9);
    CHECK(t, weights_id(&a) != weights_id(&b));
    b = a;
    b.w[11] = 0.0;
    a.w[11] = -0.0;
    CHECK(t, weights_id(&a) == weights_id(&b));
    char text[17];
    weights_id_text(&a, text);
    CHECK(t, strlen(text) == 16);
    CHECK(t, strspn(text, "0123456789abcdef") == 16);
    Weights zero_r, zero_c;
    Game *c = new_game("crossings"), *e = new_game("epaminondas");
    weights_zero(c, &zero_c);
    weights_zero(e, &zero_r);
    CHECK(t, weights_id(&zero_c) != weights_id(&zero_r));  /* same values, different game */
    /* A table entry moves the identity too (b borrows a's tables). */
    if (a.tables) {
        b = a;
        const uint64_t before = weights_id(&b);
        a.tables[7] += 1.0f;
        CHECK(t, weights_id(&b) != before);
    }
    weights_dispose(&a);
    game_free(c);
    game_free(e);
    game_free(g);
}

/* The compiled-in defaults are the shipped files (the tests run from the repository root). */
/* Whether the built-in weights are exactly the file's (every value, table entry and prior). */
static bool same_as_file(TestContext *t, const Game *g, const Weights *built_in, const char *path)
{
    Weights file;
    Error err;
    if (!weights_load(g, path, &file, &err)) {
        fprintf(stderr, "  %s (run the tests from the repository root)\n", err.msg);
        return false;
    }
    const bool same = file.count == built_in->count && memcmp(file.w, built_in->w, sizeof file.w) == 0 &&
                      weights_id(&file) == weights_id(built_in) && !file.tables == !built_in->tables &&
                      !file.policy == !built_in->policy;
    CHECK(t, same);
    weights_dispose(&file);
    return same;
}

/* The defaults are the shipped files: a game's table file (data/weights/<game>.lwt) on the board
 * its tables were made for, else its text file; every linear weight chosen (none left at 0). */
static void test_defaults_match_files(TestContext *t)
{
    const char *variants[] = {"epaminondas", "crossings", "reversi", "igfip"};
    for (int v = 0; v < 4; v++) {
        Game *g = new_game(variants[v]);
        Weights built_in;
        char path[128];
        snprintf(path, sizeof path, "data/weights/%s.lwt", variants[v]);
        const bool table_file = access(path, R_OK) == 0;
        if (!table_file)
            snprintf(path, sizeof path, "data/weights/%s.txt", variants[v]);
        CHECK(t, weights_default(g, &built_in));
        CHECK(t, same_as_file(t, g, &built_in, path));
        CHECK(t, !table_file || built_in.tables || built_in.policy);
        int nonzero = 0;
        for (int i = 0; i < built_in.count; i++)
            nonzero += built_in.w[i] != 0;
        CHECK(t, nonzero == built_in.count);
        weights_dispose(&built_in);
        /* A phalanx table file is for one board; on another the text file serves. */
        if (table_file && g->variant != VARIANT_REVERSI) {
            Error err;
            Game *other = game_new(variants[v], 6, 7, &err);
            snprintf(path, sizeof path, "data/weights/%s.txt", variants[v]);
            CHECK(t, other);
            if (other)
                CHECK(t, weights_default(other, &built_in) && !built_in.tables);
            CHECK(t, same_as_file(t, other, &built_in, path));
            weights_dispose(&built_in);
            game_free(other);
        }
        game_free(g);
    }
}

/* The evaluation with the default weights: a probability strictly inside (0, 1), 1/2 at the
 * symmetric phalanx starts. */
static void test_default_evaluation(TestContext *t)
{
    const char *variants[] = {"epaminondas", "crossings", "reversi", "igfip"};
    for (int v = 0; v < 4; v++) {
        Game *g = new_game(variants[v]);
        Weights w;
        Position pos;
        CHECK(t, weights_default(g, &w));
        game_start(g, &pos);
        double p = value_win_probability(g, &w, &pos);
        CHECK(t, p > 0);
        CHECK(t, p < 1);
        /* Linear features compare the sides, so a symmetric start is even; tables may value the
         * first move. */
        if (g->variant != VARIANT_REVERSI && !w.tables)
            CHECK(t, p == 0.5);
        weights_dispose(&w);
        game_free(g);
    }
}

const TestCase weights_tests[] = {
    {"parse_valid", test_parse_valid},
    {"parse_spellings", test_parse_spellings},
    {"parse_errors", test_parse_errors},
    {"error_names_source", test_error_names_source},
    {"load_errors", test_load_errors},
    {"save_load_round_trip", test_save_load_round_trip},
    {"save_writes_comments", test_save_writes_comments},
    {"save_atomic", test_save_atomic},
    {"weights_id", test_weights_id},
    {"defaults_match_files", test_defaults_match_files},
    {"default_evaluation", test_default_evaluation},
    TEST_END,
};
