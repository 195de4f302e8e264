/*
 * test_tune_data.c - the tuner's positions from records (tuner/tune_games.c, tune_read.c,
 * tune_extract.c, tune_dedup.c).  Extraction from games built in memory is compared with a plain
 * sequential reference (replay each game ply by ply, skip the opening, keep the first occurrence
 * of each position, split by game, compute features and targets): the same rows in the same
 * order, bit for bit, with one thread or two.  Then the errors: no files, an empty file, a file
 * without games, files of another game or board, a damaged file, an illegal move.
 *
 * With LEUCTRA_RECORDS_FIXTURES=DIR set, test `fixtures` leaves records files in DIR for the
 * command-line test of `leuctra tune` (tests/cli/tune_test.sh), which tests/run.sh runs next.
 */
#include "core/value.h"
#include "record_sample.h"
#include "test.h"
#include "tuner/tune.h"

#include <math.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

enum { NUM_GAMES = 24, PATH_LEN = 512 };

/* Random games on 8x8 Epaminondas with search-like values; odd games start a few plies in. */
static const SampleOptions SAMPLE = {true, false, 80, true};

static Game *small_game(TestContext *t, const char *variant, int size)
{
    Error err;
    Game *g = game_new(variant, size, size, &err);
    CHECK(t, g != NULL);
    return g;
}

/* NUM_GAMES sample games, then copies that repeat positions: game 3 again with its own index
 * (same side of the split), and game 4 under a new index (possibly the other side). */
static bool sample_records(const Game *g, GameRecord *recs)
{
    bool ok = true;
    for (int i = 0; i < NUM_GAMES + 2; i++)
        game_record_init(&recs[i]);
    for (int i = 0; ok && i < NUM_GAMES; i++)
        ok = sample_game(g, 9, (uint64_t)i, &SAMPLE, &recs[i]);
    ok = ok && game_record_copy(&recs[NUM_GAMES], &recs[3]) && game_record_copy(&recs[NUM_GAMES + 1], &recs[4]);
    recs[NUM_GAMES + 1].index = 1000;
    return ok;
}

static void free_records(GameRecord *recs, int n)
{
    for (int i = 0; i < n; i++)
        game_record_free(&recs[i]);
}

static bool add_records(const Game *g, const GameRecord *recs, int n, TuneGames *games)
{
    Error err;
    int source = tune_games_add_source(games, "memory", &err);
    bool ok = source >= 0;
    for (int i = 0; ok && i < n; i++)
        ok = tune_games_add(games, g, &recs[i], source, &err);
    if (!ok)
        fprintf(stderr, "  add: %s\n", err.msg);
    return ok;
}

/* ---------------------------------------------------------------- the reference */

static bool seen_before(uint64_t *seen, size_t *n, uint64_t h)
{
    for (size_t i = 0; i < *n; i++)
        if (seen[i] == h)
            return true;
    seen[(*n)++] = h;
    return false;
}

/* One position into the next row of set. */
static void reference_row(const Game *g, const Position *pos, const GameRecord *r, int ply, double lambda, TuneSet *set)
{
    size_t row = set->count++;
    value_features(g, pos, set->features + row * (size_t)set->num_features);
    int side = game_side_to_move(g, pos);
    double result = r->result == STATUS_DRAW ? 0.5 : (r->result == STATUS_WHITE_WINS) == (side == WHITE) ? 1 : 0;
    double value = record_value_double(r->ply[ply].value);
    set->result[row] = result;
    set->target[row] = isnan(value) ? result : lambda * result + (1 - lambda) * value;
}

/* What tune_extract must give, computed one game and one ply at a time. */
static bool reference(const Game *g, const GameRecord *recs, int n, const TuneDataOptions *o, TuneSet sets[2])
{
    size_t plies = 0, seen_count = 0;
    for (int i = 0; i < n; i++)
        plies += (size_t)recs[i].plies;
    uint64_t *seen = malloc((plies + 1) * sizeof *seen);
    bool ok = seen && tune_set_alloc(&sets[0], g->ops->num_features, 0, plies) &&
              tune_set_alloc(&sets[1], g->ops->num_features, 0, plies);
    sets[0].count = sets[1].count = 0;
    for (int i = 0; ok && i < n; i++) {
        const GameRecord *r = &recs[i];
        TuneSet *set = &sets[tune_in_validation(r->index, r->seed, o->validation)];
        Position pos;
        Error err;
        ok = game_parse_position(g, r->start, &pos, &err);
        for (int ply = 0; ok && ply < r->plies; ply++) {
            if (ply >= o->skip_opening && !seen_before(seen, &seen_count, game_hash(g, &pos)))
                reference_row(g, &pos, r, ply, o->lambda, set);
            Move m;
            Undo u;
            ok = record_move_to_move(g, &pos, r->ply[ply].move, &m, &err);
            if (ok)
                game_make(g, &pos, m, &u);
        }
    }
    free(seen);
    return ok;
}

static bool same_set(const TuneSet *a, const TuneSet *b)
{
    return a->count == b->count && a->num_features == b->num_features &&
           memcmp(a->features, b->features, a->count * (size_t)a->num_features * sizeof *a->features) == 0 &&
           memcmp(a->target, b->target, a->count * sizeof *a->target) == 0 &&
           memcmp(a->result, b->result, a->count * sizeof *a->result) == 0;
}

/* ---------------------------------------------------------------- extraction */

static void check_against_reference(TestContext *t, const Game *g, const GameRecord *recs, const TuneGames *games,
                                    const TuneDataOptions *o)
{
    TuneSet want[2] = {{0}}, train, valid;
    TuneDataStats st;
    Error err;
    CHECK(t, reference(g, recs, NUM_GAMES + 2, o, want));
    bool ok = tune_extract(g, games, o, &train, &valid, &st, &err);
    CHECK(t, ok);
    if (ok) {
        CHECK(t, same_set(&train, &want[0]));
        CHECK(t, same_set(&valid, &want[1]));
        CHECK_EQ_U64(t, st.positions_train, want[0].count);
        CHECK_EQ_U64(t, st.positions_validation, want[1].count);
        CHECK_EQ_U64(t, st.positions_read, games->plies);
        CHECK_EQ_U64(t, st.positions_read, st.positions_opening + st.positions_duplicate + st.positions_train +
                                               st.positions_validation);
        CHECK_EQ_U64(t, st.games, NUM_GAMES + 2);
        CHECK_EQ_U64(t, st.games_train + st.games_validation, NUM_GAMES + 2);
        /* The copy of game 3 repeats all its positions past the opening. */
        int past = recs[3].plies - o->skip_opening;
        CHECK(t, st.positions_duplicate >= (uint64_t)(past > 0 ? past : 0));
    }
    tune_set_free(&train);
    tune_set_free(&valid);
    tune_set_free(&want[0]);
    tune_set_free(&want[1]);
}

static void test_extract_matches_reference(TestContext *t)
{
    Game *g = small_game(t, "epaminondas", 8);
    GameRecord recs[NUM_GAMES + 2];
    TuneGames games;
    tune_games_init(&games);
    CHECK(t, g);
    if (g)
        CHECK(t, sample_records(g, recs) && add_records(g, recs, NUM_GAMES + 2, &games));
    CHECK(t, games.num_starts > 1);
    CHECK(t, games.num_starts <= (size_t)NUM_GAMES + 2);
    const TuneDataOptions cases[] = {
        {0, 0.1, 1.0, 0, NULL, false, 0},     /* the defaults */
        {6, 0.5, 0.3, 2, NULL, false, 0},     /* a skipped opening, a big validation share, values in the target */
        {0, 0.0, 0.0, 1, NULL, false, 0},     /* no validation, values alone */
        {1000, 0.1, 1.0, 2, NULL, false, 0},  /* every position skipped */
    };
    for (size_t c = 0; g && c < sizeof cases / sizeof cases[0]; c++)
        check_against_reference(t, g, recs, &games, &cases[c]);
    tune_games_free(&games);
    free_records(recs, NUM_GAMES + 2);
    game_free(g);
}

static void test_extract_threads_same_bits(TestContext *t)
{
    Game *g = small_game(t, "crossings", 8);
    GameRecord recs[NUM_GAMES + 2];
    TuneGames games;
    tune_games_init(&games);
    CHECK(t, g);
    if (g)
        CHECK(t, sample_records(g, recs) && add_records(g, recs, NUM_GAMES + 2, &games));
    TuneSet train[2], valid[2];
    TuneDataStats st[2];
    Error err;
    for (int i = 0; g && i < 2; i++) {
        TuneDataOptions o = {2, 0.25, 0.5, i + 1, NULL, false, 0};
        CHECK(t, tune_extract(g, &games, &o, &train[i], &valid[i], &st[i], &err));
    }
    if (g) {
        CHECK(t, same_set(&train[0], &train[1]) && same_set(&valid[0], &valid[1]));
        CHECK(t, train[0].count > 100);
        if (train[0].count > 100)
            CHECK(t, valid[0].count > 10);
        for (int i = 0; i < 2; i++) {
            tune_set_free(&train[i]);
            tune_set_free(&valid[i]);
        }
    }
    tune_games_free(&games);
    free_records(recs, NUM_GAMES + 2);
    game_free(g);
}

static void test_dedup(TestContext *t)
{
    enum { N = 5000 };
    uint64_t *hash = malloc(N * sizeof *hash);
    uint8_t *keep = malloc(N), *want = malloc(N);
    Rng rng = rng_seed(4, 0);
    for (size_t i = 0; hash && i < N; i++) {
        /* Repeats near and far, and the hash 0 (which the table cannot store as a key). */
        uint64_t r = rng_next(&rng);
        hash[i] = i % 7 == 0 ? 0 : i > 50 && r % 3 == 0 ? hash[r % i] : r;
    }
    for (size_t i = 0; want && i < N; i++) {
        want[i] = 1;
        for (size_t j = 0; j < i && want[i]; j++)
            want[i] = hash[j] != hash[i];
    }
    for (int threads = 1; hash && keep && want && threads <= 3; threads++) {
        memset(keep, 7, N);
        CHECK(t, tune_dedup(hash, N, keep, threads));
        CHECK(t, memcmp(keep, want, N) == 0);
    }
    free(hash);
    free(keep);
    free(want);
}

static void test_validation_split(TestContext *t)
{
    int held = 0;
    for (uint64_t i = 0; i < 10000; i++) {
        held += tune_in_validation(i, 77, 0.1);
        CHECK(t, !tune_in_validation(i, 77, 0.0));
        CHECK(t, tune_in_validation(i, 77, 0.1) == tune_in_validation(i, 77, 0.1));
    }
    CHECK(t, held > 900);
    CHECK(t, held < 1100);
}

static void test_illegal_move(TestContext *t)
{
    Game *g = small_game(t, "epaminondas", 8);
    GameRecord recs[NUM_GAMES + 2];
    TuneGames games;
    tune_games_init(&games);
    Error perr;
    CHECK(t, g);
    if (g)
        CHECK(t, sample_records(g, recs));
    /* Game 7's fourth move replaced by one no group can make (seven squares up the a-file). */
    CHECK(t, recs[7].plies > 4);
    if (recs[7].plies > 4)
        CHECK(t, record_move_parse("a1-a8", &recs[7].ply[3].move, &perr));
    CHECK(t, g);
    if (g)
        CHECK(t, add_records(g, recs, NUM_GAMES + 2, &games));
    TuneSet train, valid;
    TuneDataStats st;
    Error err;
    TuneDataOptions o = tune_data_defaults();
    for (int threads = 1; g && threads <= 2; threads++) {
        o.threads = threads;
        CHECK(t, !tune_extract(g, &games, &o, &train, &valid, &st, &err));
        CHECK(t, !err.failure);
        if (!err.failure)
            CHECK(t, strstr(err.msg, "memory: game 7, ply 4: move 'a1-a8'") != NULL);
    }
    tune_games_free(&games);
    free_records(recs, NUM_GAMES + 2);
    game_free(g);
}

/* The tuner's fast notation is record_move_format's, code for code. */
static void test_move_notation(TestContext *t)
{
    int valid = 0;
    for (unsigned code = 0; code <= 0xFFFF; code++) {
        RecordMove m = {(uint16_t)code};
        char fast[RECORD_MOVE_TEXT], slow[RECORD_MOVE_TEXT];
        bool ok = tune_move_notation(m, fast);
        CHECK(t, ok == record_move_valid(m));
        record_move_format(m, slow, sizeof slow);
        if (ok && strcmp(fast, slow) != 0) {
            fprintf(stderr, "  code 0x%04x: '%s', want '%s'\n", code, fast, slow);
            t->failures++;
        }
        valid += ok;
    }
    CHECK(t, valid > 20000);
}

/* ---------------------------------------------------------------- files */

typedef struct {
    char dir[PATH_LEN / 2];
} TempDir;

static bool temp_dir(TempDir *d)
{
    const char *base = getenv("TMPDIR");
    snprintf(d->dir, sizeof d->dir, "%s/leuctra-tune-XXXXXX", base && *base ? base : "/tmp");
    return mkdtemp(d->dir) != NULL;
}

static void temp_path(const TempDir *d, const char *name, char *out)
{
    snprintf(out, PATH_LEN, "%s/%s", d->dir, name);
}

/* A records file of `n` sample games of g (seed `seed`), each game its own chunk. */
static bool write_records(const Game *g, const char *path, int n, uint64_t seed, const SampleOptions *o)
{
    RecordsHeader h;
    Error err = {0};
    if (!records_header_init(&h, g, "generator=test_tune_data\n", &err))
        return false;
    RecordsWriter *w = records_create(path, &h, &err);
    GameRecord r;
    game_record_init(&r);
    bool ok = w != NULL;
    for (int i = 0; ok && i < n; i++)
        ok = sample_game(g, seed, (uint64_t)i, o, &r) && records_append(w, &r, &err);
    ok = w && records_writer_close(w, &err) && ok;
    game_record_free(&r);
    records_header_free(&h);
    return ok;
}

/* Reads the files; true when that fails, with the error in *err. */
static bool read_fails(const char *const *paths, int n, Error *err)
{
    TuneGames games;
    tune_games_init(&games);
    Game *g = NULL;
    bool ok = tune_read_records(paths, n, 2, &games, &g, err);
    tune_games_free(&games);
    game_free(g);
    return !ok;
}

static void flip_byte(const char *path, long offset)
{
    FILE *f = fopen(path, "r+b");
    if (!f)
        return;
    fseek(f, offset, SEEK_SET);
    int c = fgetc(f);
    fseek(f, offset, SEEK_SET);
    fputc(c ^ 0x5A, f);
    fclose(f);
}

static void check_read_good(TestContext *t, const char *a, const char *b)
{
    const char *paths[2] = {a, b};
    TuneGames games;
    tune_games_init(&games);
    Game *g = NULL;
    Error err;
    CHECK(t, tune_read_records(paths, 2, 2, &games, &g, &err));
    CHECK(t, g);
    if (g) {
        CHECK(t, g->width == 8);
        if (g->width == 8)
            CHECK(t, strcmp(g->name, "epaminondas") == 0);
    }
    CHECK(t, games.count == 10);
    if (games.count == 10) {
        CHECK(t, games.num_sources == 2);
        if (games.num_sources == 2)
            CHECK(t, games.source[1].games == 4);
    }
    CHECK_STR(t, games.source[0].name, a);
    /* The files were read in parallel; the games are in file order all the same. */
    size_t ply = 0;
    for (size_t i = 0; i < games.count && games.count == 10; i++) {
        CHECK(t, games.game[i].index == (i < 6 ? i : i - 6) && games.game[i].source == (i >= 6));
        CHECK(t, games.game[i].first_ply == ply);
        ply += (size_t)games.game[i].plies;
    }
    CHECK(t, ply == games.plies);
    tune_games_free(&games);
    game_free(g);
}

static void check_read_errors(TestContext *t, const TempDir *d, const char *good)
{
    char path[PATH_LEN];
    Error err;
    CHECK(t, read_fails(NULL, 0, &err) && !err.failure && strstr(err.msg, "no data files"));
    temp_path(d, "empty.lrec", path);
    FILE *f = fopen(path, "wb");
    if (f)
        fclose(f);
    const char *empty[2] = {good, path};
    CHECK(t, read_fails(empty, 2, &err) && err.kind == RECORDS_ERR_EMPTY && !err.failure);
    CHECK(t, strstr(err.msg, path) != NULL);
    temp_path(d, "missing.lrec", path);
    const char *missing[1] = {path};
    CHECK(t, read_fails(missing, 1, &err) && err.kind == RECORDS_ERR_IO && !err.failure && strstr(err.msg, path) != NULL);
}

static void check_mismatch(TestContext *t, const TempDir *d, const char *good)
{
    char crossings[PATH_LEN], big[PATH_LEN], none[PATH_LEN];
    Error err;
    Game *c8 = small_game(t, "crossings", 8), *e10 = small_game(t, "epaminondas", 10);
    temp_path(d, "crossings.lrec", crossings);
    temp_path(d, "e10.lrec", big);
    temp_path(d, "none.lrec", none);
    CHECK(t, c8);
    if (c8) {
        CHECK(t, e10);
        if (e10)
            CHECK(t, write_records(c8, crossings, 2, 1, &SAMPLE) && write_records(e10, big, 2, 1, &SAMPLE));
    }
    CHECK(t, e10);
    if (e10)
        CHECK(t, write_records(e10, none, 0, 1, &SAMPLE));
    const char *variant[2] = {good, crossings}, *board[2] = {good, big}, *no_games[1] = {none};
    CHECK(t, read_fails(variant, 2, &err) && !err.failure && strstr(err.msg, "crossings 8x8 records, but") &&
                 strstr(err.msg, good));
    CHECK(t, read_fails(board, 2, &err) && !err.failure && strstr(err.msg, "epaminondas 10x10 records"));
    CHECK(t, read_fails(no_games, 1, &err) && !err.failure && strstr(err.msg, "no games"));
    game_free(c8);
    game_free(e10);
}

static void check_damaged(TestContext *t, const TempDir *d, const Game *g)
{
    char path[PATH_LEN];
    Error err;
    temp_path(d, "damaged.lrec", path);
    CHECK(t, write_records(g, path, 6, 3, &SAMPLE));
    struct stat sb;
    CHECK(t, stat(path, &sb) == 0);
    flip_byte(path, (long)sb.st_size / 2);
    const char *paths[1] = {path};
    CHECK(t, read_fails(paths, 1, &err) && err.kind != 0 && err.failure);
    CHECK(t, strstr(err.msg, path) != NULL);
    CHECK(t, strstr(err.msg, "offset") != NULL);
}

static void test_read_files(TestContext *t)
{
    TempDir d;
    Game *g = small_game(t, "epaminondas", 8);
    char a[PATH_LEN], b[PATH_LEN];
    bool ok = g && temp_dir(&d);
    CHECK(t, ok);
    if (ok) {
        temp_path(&d, "a.lrec", a);
        temp_path(&d, "b.lrec", b);
        CHECK(t, write_records(g, a, 6, 1, &SAMPLE) && write_records(g, b, 4, 2, &SAMPLE));
        check_read_good(t, a, b);
        check_read_errors(t, &d, a);
        check_mismatch(t, &d, a);
        check_damaged(t, &d, g);
        const char *names[] = {"a.lrec", "b.lrec", "empty.lrec", "crossings.lrec", "e10.lrec", "none.lrec",
                               "damaged.lrec"};
        for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) {
            temp_path(&d, names[i], a);
            unlink(a);
        }
        rmdir(d.dir);
    }
    game_free(g);
}

/* ---------------------------------------------------------------- fixtures for tune_test.sh */

static void test_fixtures(TestContext *t)
{
    const char *dir = getenv("LEUCTRA_RECORDS_FIXTURES");
    if (!dir || !*dir)
        return;
    Game *e8 = small_game(t, "epaminondas", 8), *c8 = small_game(t, "crossings", 8);
    char path[PATH_LEN];
    const SampleOptions long_games = {true, false, 200, true};
    snprintf(path, sizeof path, "%s/tune-epaminondas.lrec", dir);
    unlink(path);
    CHECK(t, e8);
    if (e8)
        CHECK(t, write_records(e8, path, 60, 5, &long_games));
    snprintf(path, sizeof path, "%s/tune-crossings.lrec", dir);
    unlink(path);
    CHECK(t, c8);
    if (c8)
        CHECK(t, write_records(c8, path, 4, 5, &SAMPLE));
    game_free(e8);
    game_free(c8);
}

const TestCase tune_data_tests[] = {
    {"extract_matches_reference", test_extract_matches_reference},
    {"extract_threads_same_bits", test_extract_threads_same_bits},
    {"dedup", test_dedup},
    {"validation_split", test_validation_split},
    {"move_notation", test_move_notation},
    {"illegal_move", test_illegal_move},
    {"read_files", test_read_files},
    {"fixtures", test_fixtures},
    TEST_END,
};
