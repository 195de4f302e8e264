/*
 * cmd_match.c - `leuctra match`: players against each other over N games (two players, a
 * gauntlet or a round robin), colours swapped in pairs from shared openings, games played
 * concurrently; optional SPRT stop, records and results files, resume.  This file reads and
 * checks the options; eval/match_run.c plays the match (eval/match.h), cmd_match_report.c prints
 * the result, docs/MATCHES.md is the manual.
 */
#include "cli/cli.h"
#include "cli/match_cli.h"
#include "core/utf8.h"
#include "selfplay/player_external.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

/* `--sprt` takes the key=value words after it: elo0, elo1, alpha, beta, model. */
void cli_match_read_sprt(ArgReader *r, const char *command, SprtTest *test)
{
    while (r->index < r->argc) {
        const char *word = r->argv[r->index];
        const char *eq = strchr(word, '=');
        if (!eq || strchr(word, ':'))
            break;
        size_t n = (size_t)(eq - word);
        const char *v = eq + 1;
        if (n == 4 && strncmp(word, "elo0", 4) == 0)
            test->elo0 = arg_real(command, "--sprt elo0", v, -1000, 1000);
        else if (n == 4 && strncmp(word, "elo1", 4) == 0)
            test->elo1 = arg_real(command, "--sprt elo1", v, -1000, 1000);
        else if (n == 5 && strncmp(word, "alpha", 5) == 0)
            test->alpha = arg_real(command, "--sprt alpha", v, 1e-9, 0.5);
        else if (n == 4 && strncmp(word, "beta", 4) == 0)
            test->beta = arg_real(command, "--sprt beta", v, 1e-9, 0.5);
        else if (n == 5 && strncmp(word, "model", 5) == 0 && (!strcmp(v, "normalized") || !strcmp(v, "logistic")))
            test->model = strcmp(v, "logistic") == 0 ? ELO_LOGISTIC : ELO_NORMALIZED;
        else
            fail_exit(command, EXIT_USAGE, "--sprt: unknown setting '%s' (elo0, elo1, alpha, beta, model)", word);
        r->index++;
    }
}

/* `--resign` takes the key=value words after it: movecount (default 3) and value (0.02). */
static void read_resign(ArgReader *r, MatchOptions *o)
{
    o->resign_moves = 3;
    o->resign_value = 0.02;
    while (r->index < r->argc) {
        const char *word = r->argv[r->index];
        if (strncmp(word, "movecount=", 10) == 0)
            o->resign_moves = (int)arg_integer("match", "--resign movecount", word + 10, 1, 10000);
        else if (strncmp(word, "value=", 6) == 0)
            o->resign_value = arg_real("match", "--resign value", word + 6, 0, 0.5);
        else if (strchr(word, '=') && !strchr(word, ':'))
            fail_exit("match", EXIT_USAGE, "--resign: unknown setting '%s' (movecount, value)", word);
        else
            break;
        r->index++;
    }
}

/* A name goes into results files, which `leuctra ratings` reads, and into JSON: it must be a
 * results file's name (eval/results_read.c). */
static void set_name(MatchOptions *o, int i, const char *name)
{
    bool ok = strlen(name) > 0 && strlen(name) <= RESULTS_NAME_MAX && !strpbrk(name, " \t\r\n#");
    for (const char *c = name; ok && *c; c++)
        ok = (unsigned char)*c >= 32 && *c != 127;
    char from[32] = "its spec";
    if (i < 2)
        snprintf(from, sizeof from, "its spec, or --name%d", i + 1);
    if (!ok || !utf8_valid(name, strlen(name), NULL) || strstr(name, UTF8_BOM))
        fail_exit("match", EXIT_USAGE,
                  "bad name '%s' for player %d (%s): UTF-8, no blanks, control characters or '#', at most %d bytes",
                  name, i + 1, from, RESULTS_NAME_MAX);
    memcpy(o->name[i], name, strlen(name) + 1);   /* at most RESULTS_NAME_MAX bytes, checked above */
}

/* The options that only set a number or a flag; true if it consumed an argument. */
static bool read_number_option(ArgReader *r, MatchOptions *o)
{
    const char *t;
    if (arg_value(r, "--games", &t))
        o->games = (int)arg_integer("match", "--games", t, 1, 10000000);
    else if (arg_value(r, "--concurrency", &t))
        o->concurrency = (int)arg_integer("match", "--concurrency", t, 1, 1024);
    else if (arg_value(r, "--max-plies", &t))
        o->max_plies = (int)arg_integer("match", "--max-plies", t, 0, 100000);
    else if (arg_value(r, "--opening-plies", &t) || arg_value(r, "--plies", &t))
        o->opening_plies = (int)arg_integer("match", "--opening-plies", t, 0, 1000);
    else if (arg_value(r, "--seed", &t))
        o->seed = (uint64_t)arg_integer("match", "--seed", t, 0, 0x7fffffffffffffffL);
    else if (arg_value(r, "--make-openings", &t))
        o->make_openings = (int)arg_integer("match", "--make-openings", t, 1, 100000);
    else if (arg_value(r, "--visits", &t))
        o->make_visits = (int)arg_integer("match", "--visits", t, 1, 10000000);
    else if (arg_value(r, "--timemargin", &t))
        o->time_margin = arg_real("match", "--timemargin", t, 0, 3600);
    else if (arg_flag(r, "--no-repetition"))
        o->repetition = false;
    else if (arg_flag(r, "--resume"))
        o->resume = true;
    else
        return false;
    return true;
}

/* The options that name files or players; true if it consumed an argument. */
static bool read_text_option(ArgReader *r, MatchOptions *o, const char **names)
{
    const char *t;
    if (arg_value(r, "--openings", &t))
        o->openings_path = t;
    else if (arg_value(r, "--out", &t))
        o->out_path = t;
    else if (arg_value(r, "--results", &t))
        o->results_path = t;
    else if (arg_value(r, "--pgn", &t))
        o->pgn_path = t;
    else if (arg_value(r, "--debug", &t))
        o->debug_path = t;
    else if (arg_value(r, "--name1", &t))
        names[0] = t;
    else if (arg_value(r, "--name2", &t))
        names[1] = t;
    else if (arg_value(r, "--tournament", &t)) {
        if (strcmp(t, "gauntlet") != 0 && strcmp(t, "round-robin") != 0)
            fail_exit("match", EXIT_USAGE, "--tournament: '%s' is not gauntlet or round-robin", t);
        o->tournament = t;
    } else if (arg_flag(r, "--sprt")) {
        o->sprt_on = true;
        cli_match_read_sprt(r, "match", &o->sprt);
    } else if (arg_flag(r, "--resign"))
        read_resign(r, o);
    else
        return false;
    return true;
}

/* The files a player spec names among its key=value words after the ':' (player.h): weights it
 * reads, and an engine's log, which it appends to and which players may share.  The paths are
 * copies (*copies of them in copy[]), freed by the caller. */
static int spec_files(const char *spec, FileRole *files, char **copy, int *copies)
{
    static const struct { const char *key; const char *option; bool output; } keys[] = {
        {"weights=", "weights=", false}, {"log=", "log=", true},
    };
    const char *word = strchr(spec, ':');
    int n = 0;
    while (word && *word++) {
        size_t len = strcspn(word, ",");
        for (size_t k = 0; k < sizeof keys / sizeof keys[0]; k++) {
            size_t key = strlen(keys[k].key);
            if (len <= key || strncmp(word, keys[k].key, key) != 0)
                continue;
            char *path = strndup(word + key, len - key);
            if (!path)
                fail_exit("match", EXIT_FAILURE_RUN, "out of memory");
            copy[(*copies)++] = path;
            files[n++] = (FileRole){keys[k].option, path, keys[k].output, keys[k].output};
        }
        word = strchr(word, ',');
    }
    return n;
}

/* --out, --results, --pgn, --debug and the engines' logs apart from each other and from every
 * file the match reads (--openings, the players' weights): the records of a match must not
 * replace its weights, nor its results its games. */
static void check_files(const MatchOptions *o)
{
    size_t words = 0;      /* a spec names at most one file a word */
    for (int i = 0; i < o->players; i++)
        for (const char *c = o->spec[i]; *c; c++)
            words += *c == ',' || *c == ':';
    FileRole *files = malloc((5 + words) * sizeof *files);
    char **copy = malloc((words + 1) * sizeof *copy);
    if (!files || !copy)
        fail_exit("match", EXIT_FAILURE_RUN, "out of memory");
    int n = 0, copies = 0;
    if (o->out_path)
        files[n++] = (FileRole){"--out", o->out_path, true, false};
    if (o->results_path)
        files[n++] = (FileRole){"--results", o->results_path, true, false};
    if (o->pgn_path)
        files[n++] = (FileRole){"--pgn", o->pgn_path, true, false};
    if (o->debug_path)
        files[n++] = (FileRole){"--debug", o->debug_path, true, false};
    if (o->openings_path)
        files[n++] = (FileRole){"--openings", o->openings_path, false, false};
    for (int i = 0; i < o->players; i++)
        n += spec_files(o->spec[i], files + n, copy, &copies);
    cli_files_distinct("match", files, n);
    for (int i = 0; i < copies; i++)
        free(copy[i]);
    free(copy);
    free(files);
}

static void check_options(MatchOptions *o, const char **names, bool json)
{
    if (o->make_openings) {
        if (!o->out_path)
            fail_exit("match", EXIT_USAGE, "--make-openings needs --out FILE");
        if (o->opening_plies == 0)
            fail_exit("match", EXIT_USAGE, "--make-openings needs --plies of at least 1: with 0 every opening is the "
                      "start position");
        cli_output_check("match", "--out", o->out_path);
        return;
    }
    if (o->results_path && cli_output_is_stdout(o->results_path))
        fail_exit("match", EXIT_USAGE, "--results needs a file: stdout carries the match report");
    if (o->results_path)
        cli_output_check("match", "--results", o->results_path);
    if (o->pgn_path && !o->out_path)
        fail_exit("match", EXIT_USAGE, "--pgn needs --out FILE.lrec: the text is made from the records file");
    if (o->pgn_path && cli_output_is_stdout(o->pgn_path))
        fail_exit("match", EXIT_USAGE, "--pgn needs a file: stdout carries the match report");
    if (o->pgn_path)
        cli_output_check("match", "--pgn", o->pgn_path);
    Error records_err;
    if (o->out_path && !records_path_check(o->out_path, &records_err))
        fail_exit("match", EXIT_USAGE, "--out %s", records_err.msg);
    if (o->players < 2)
        fail_exit("match", EXIT_USAGE, "expected two players (see leuctra match --help)");
    if (o->players > 2 && !o->tournament)
        fail_exit("match", EXIT_USAGE, "more than two players need --tournament gauntlet|round-robin");
    if (o->tournament && (o->sprt_on || json))
        fail_exit("match", EXIT_USAGE, "--tournament takes neither --sprt nor --json");
    if (o->resume && !o->out_path)
        fail_exit("match", EXIT_USAGE, "--resume needs --out FILE");
    check_files(o);
    const char *why = o->sprt_on ? sprt_invalid(&o->sprt) : NULL;
    if (why)
        fail_exit("match", EXIT_USAGE, "--sprt: %s", why);
    if (o->sprt_on && o->games < 2)
        fail_exit("match", EXIT_USAGE, "--sprt needs --games of at least 2 (it counts pairs)");
    for (int i = 0; i < o->players; i++) {
        char spec_name[RESULTS_NAME_MAX + 2];
        bool named = player_spec_name(o->spec[i], spec_name, sizeof spec_name);
        set_name(o, i, i < 2 && names[i] ? names[i] : named ? spec_name : o->spec[i]);
    }
    bool named_apart = o->results_path || o->tournament;    /* results and ratings tell players by name */
    for (int i = 0; named_apart && i < o->players; i++)
        for (int j = 0; j < i; j++)
            if (strcmp(o->name[i], o->name[j]) == 0)
                fail_exit("match", EXIT_USAGE, "two players named '%s' (see --name1, --name2)", o->name[i]);
}

static void parse_options(int argc, char **argv, MatchOptions *o, GameOptions *gopts, MatchReportOptions *report)
{
    ArgReader r = {argc, argv, 1, "match", false};
    const char *names[2] = {NULL, NULL};
    while (r.index < argc) {
        if (arg_game_option(&r, gopts) || read_number_option(&r, o) || read_text_option(&r, o, names))
            continue;
        if (arg_flag(&r, "--json")) {
            report->json = true;
            continue;
        }
        if (arg_operand(&r)) {
            if (o->players == MATCH_MAX_PLAYERS)
                fail_exit("match", EXIT_USAGE, "more than %d players", MATCH_MAX_PLAYERS);
            o->spec[o->players++] = argv[r.index++];
        } else {
            arg_common(&r, &command_match);
        }
    }
    check_options(o, names, report->json);
    o->progress = isatty(2) && !report->json ? cli_match_progress_line : NULL;
    o->player_output.note = cli_note_line;
}

void cli_match_progress_line(const MatchProgress *p, void *ctx)
{
    MatchProgressLine *line = ctx;
    double rate = p->done / (p->seconds > 0 ? p->seconds : 1e-9);
    fprintf(stderr, "\r%d/%d games  %.2f games/s  ETA %.0f s", p->done, p->todo, rate, (p->todo - p->done) / rate);
    if (p->sprt)
        fprintf(stderr, "  LLR %.2f [%.2f, %.2f]", p->sprt->llr, sprt_lower_bound(&p->sprt->test),
                sprt_upper_bound(&p->sprt->test));
    fputs("   ", stderr);
    line->shown = true;
}

void cli_match_progress_end(MatchProgressLine *line)
{
    if (line->shown)
        fputc('\n', stderr);
    line->shown = false;
}

/* Every spec made into a player once (a bad one ends the command before any game), their
 * clocks kept for the files, and a warning when the games in flight want more cores than there
 * are: players that share a core lose time to each other, which skews every timed result. */
static void check_players(const Game *g, MatchOptions *o, bool say)
{
    MatchPlayerInfo info[MATCH_MAX_PLAYERS];
    Error err;
    if (!match_inspect_players(g, o, info, &err))
        fail_exit("match", EXIT_USAGE, "%s", err.msg);
    int threads = 1;
    for (int i = 0; i < o->players; i++) {
        o->tc[i] = info[i].tc;
        o->timed = o->timed || info[i].timed;
        threads = info[i].threads > threads ? info[i].threads : threads;
    }
    long cores = sysconf(_SC_NPROCESSORS_ONLN);
    long busy = (long)o->concurrency * threads;
    if (say && cores > 0 && busy > cores)
        fprintf(stderr, "leuctra match: warning: --concurrency %d x %d search thread%s = %ld threads at once on %ld "
                "core%s: the players take time from each other, which skews timed results\n", o->concurrency,
                threads, threads == 1 ? "" : "s", busy, cores, cores == 1 ? "" : "s");
}

static void load_suite(const Game *g, const Position *start, const MatchOptions *o, OpeningSuite *suite, bool say)
{
    openings_init(suite);
    Error err;
    if (o->openings_path && !openings_load(suite, g, start, o->openings_path, &err))
        fail_exit("match", EXIT_USAGE, "%s", err.msg);
    /* Pairs cycle through the suite; players that search a fixed budget on one thread play a
     * repeated opening's games again move for move, and the interval would count them anew. */
    const long pairs = (o->games + 1) / 2;
    if (say && suite->count > 0 && pairs > suite->count)
        fprintf(stderr, "leuctra match: note: %ld game pairs from %d opening%s: each is played up to %ld times, "
                "and deterministic players repeat those games (a larger suite: --make-openings)\n",
                pairs, suite->count, suite->count == 1 ? "" : "s", (pairs + suite->count - 1) / suite->count);
}

static int run_match(int argc, char **argv)
{
    GameOptions gopts = {0};
    MatchOptions o = {.games = 100, .concurrency = 1, .max_plies = 600, .opening_plies = 4, .repetition = true,
                      .seed = 1, .sprt = {0, 5, 0.05, 0.05, ELO_NORMALIZED}, .make_visits = 200,
                      .make_low = 0.4, .make_high = 0.6};
    MatchReportOptions report = {false};
    parse_options(argc, argv, &o, &gopts, &report);
    Position start;
    Game *g = cli_open_game("match", &gopts, &start);
    /* Under mpirun every process plays its share and process 0 alone speaks and writes. */
    MpiEnv env = mpi_env_start();
    o.mpi = &env;
    const bool say = env.rank == 0;
    if (!say)
        o.progress = NULL;
    Error err = {0};
    bool ok;
    if (o.make_openings) {
        ok = match_make_openings(g, &start, &o, &err);
        if (ok && say && !report.json && !cli_output_is_stdout(o.out_path))
            printf("%d openings written to %s\n", o.make_openings, o.out_path);
    } else {
        check_players(g, &o, say);
        OpeningSuite suite;
        load_suite(g, &start, &o, &suite, say);
        MatchProgressLine line = {false};
        o.progress_ctx = &line;
        ok = match_run(g, &start, &o, &suite, cli_match_report, &report, &err);
        cli_match_progress_end(&line);
        openings_free(&suite);
    }
    game_free(g);
    /* the line comes from the process whose error it is, before MPI stops (fail_say) */
    if (!ok && !err.elsewhere)
        fail_say("match", &err);
    mpi_env_stop(&env);
    if (!ok)
        exit(fail_status(&err));
    return 0;
}

const Command command_match = {
    "match", run_match, "play players against each other (matches, SPRT, tournaments)",
    "usage: leuctra match PLAYER1 PLAYER2 [--games N] [--concurrency N] [--variant V] [--size WxH]\n"
    "                     [--position POS] [--openings FILE | --opening-plies N] [--max-plies N]\n"
    "                     [--no-repetition] [--resign [movecount=3] [value=0.02]] [--seed S] [--json]\n"
    "                     [--sprt [elo0=0] [elo1=5] [alpha=0.05] [beta=0.05] [model=normalized|logistic]]\n"
    "                     [--out FILE.lrec [--resume]] [--results FILE.txt] [--pgn FILE.pgn]\n"
    "                     [--name1 A] [--name2 B] [--timemargin SECONDS] [--debug FILE]\n"
    "       leuctra match P1 P2 P3... --tournament gauntlet|round-robin [--games N per pairing] ...\n"
    "       leuctra match --make-openings N --out FILE [--variant V] [--plies K] [--visits V]\n\n"
    "Plays N games (default 100) per pairing in pairs from one opening with colours swapped,\n"
    "PLAYER1 White in the first game, and prints the first player's wins, draws and losses.\n"
    "Openings: --openings FILE (docs/MATCHES.md; pair i plays opening i, cycling), else\n"
    "--opening-plies N (default 4; --plies N is the same option) random moves, different for every\n"
    "pair.  Games run --concurrency at a time (default 1); every game's seed comes from --seed and\n"
    "its number, so results do not depend on concurrency.  Draws are adjudicated after --max-plies\n"
    "plies (default 600) and on the third repetition.  --resign adjudicates a loss once, for\n"
    "movecount moves of each side in a row, the loser's own win probability was <= value and the\n"
    "winner's >= 1 - value (both must agree, as cutechess's two-sided -resign; players that report\n"
    "no value never resign).\n"
    "--sprt stops once the LLR (pentanomial, counted pair by pair in order) leaves its bounds;\n"
    "the match is then the pairs up to that one: games still in flight finish but are left out of\n"
    "the report and every file, which so do not depend on --concurrency.  elo0 and elo1 are\n"
    "normalized Elo (model=normalized, the default, as fishtest) or logistic Elo (model=logistic).\n"
    "--out writes every game to a records file (--resume plays only the games it lacks, and only\n"
    "when the file's players, seed, games and openings are this run's);\n"
    "--results writes `white black result` lines for `leuctra ratings` (names: --name1/--name2,\n"
    "a spec's name=NAME, or the spec); --pgn writes the games as text from the records file: a\n"
    "block a game with its tags (players, variant, opening, result, reason, clocks) and each\n"
    "move's value, visits, time and clock as a comment.  --tournament plays the first player\n"
    "against each other (gauntlet) or every pair (round-robin) and prints a ratings table.\n"
    "Clocks: a player spec with tc=SECONDS+INC or tc=MOVES/SECONDS+INC plays on a clock that the\n"
    "match keeps; a move that overruns it by more than --timemargin (default 0 s) loses the game\n"
    "on time.  The report gives each player's time per move, clock left and losses on time.\n"
    "--debug FILE logs every line sent to and read from external engines, with timestamps.\n"
    "A warning says when --concurrency x search threads exceeds the cores.\n"
    "--make-openings writes N openings of --plies random moves whose value for the side to move by\n"
    "mcts:visits=--visits (default 200) is within [0.4, 0.6], --concurrency evaluated at once.\n"
    "Under mpirun (make MPI=1; docs/MATCHES.md, docs/CLUSTER.md) each process plays its share of\n"
    "the game pairs, process 0 gathers them and writes the files and the report: the same files\n"
    "as one process.\n\n"
    PLAYER_SPECS_HELP PLAYER_EXTERNAL_SPECS_HELP "\n"
    "example: leuctra match mcts:visits=1000 greedy --games 200 --concurrency 2 --sprt elo0=0 elo1=10\n"
    "         leuctra match mcts:tc=10+0.1,name=clock mcts:time=0.1,name=fixed --variant crossings\n"
    "                       --games 100 --out m.lrec --pgn m.pgn\n",
};
