/*
 * cmd_match.c - `leuctra match`: two in-process players over N games, colours alternating,
 * games played concurrently; prints wins, draws and losses of the first player.
 */
#include "cli.h"
#include "core/rng.h"
#include "eval/elo.h"
#include "selfplay/driver.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct {
    GameStatus result;
    EndReason reason;
    int plies;
    bool first_is_white;
} MatchGame;

typedef struct {
    const char *spec[2];
    int games, concurrency, max_plies, opening_plies;
    bool repetition, json;
    uint64_t seed;
} MatchOptions;

/* +1 first player won, 0 draw, -1 lost. */
static int first_player_score(const MatchGame *m)
{
    if (m->result == STATUS_DRAW)
        return 0;
    bool white_won = m->result == STATUS_WHITE_WINS;
    return white_won == m->first_is_white ? 1 : -1;
}

/* The start of game pair i: `plies` uniformly random moves from the start position, the same
 * for both games of the pair (colours swapped), so neither player gets the easier side of an
 * opening; without it two deterministic searches would replay the same two games. */
static Position pair_opening(const Game *g, const Position *start, int plies, uint64_t seed, int pair)
{
    Position pos = *start;
    Rng rng = rng_seed(seed ^ 0x0BE1157ull, (uint64_t)pair);
    Move *moves = malloc(MAX_MOVES * sizeof *moves);
    if (!moves)
        cli_fail("match", EXIT_FAILURE_RUN, "out of memory");
    for (int i = 0; i < plies; i++) {
        int n = game_gen_moves(g, &pos, moves);
        if (n == 0)
            break;
        Undo undo;
        game_make(g, &pos, moves[rng_below(&rng, (uint32_t)n)], &undo);
    }
    free(moves);
    return pos;
}

static void play_games(const Game *g, const Position *start, const MatchOptions *o, MatchGame *out)
{
    DrawPolicy policy = {o->max_plies, o->repetition};
    _Atomic int finished = 0;
    bool tty = isatty(2);
    double t0 = cli_seconds();
#pragma omp parallel num_threads(o->concurrency)
    {
        Error err;
        Player *p[2] = {player_create(g, o->spec[0], &err), player_create(g, o->spec[1], &err)};
        if (!p[0] || !p[1])
            cli_fail("match", EXIT_FAILURE_RUN, "%s", err.msg);
#pragma omp for schedule(dynamic, 1)
        for (int i = 0; i < o->games; i++) {
            bool first_white = i % 2 == 0;
            Player *seats[2] = {first_white ? p[0] : p[1], first_white ? p[1] : p[0]};
            Position opening = pair_opening(g, start, o->opening_plies, o->seed, i / 2);
            GameResult r;
            if (!play_game(g, &opening, seats, &policy, rng_seed(o->seed, (uint64_t)i).s[0], NULL, NULL, &r))
                cli_fail("match", EXIT_FAILURE_RUN, "out of memory");
            out[i] = (MatchGame){r.result, r.reason, r.plies, first_white};
            game_result_free(&r);
            int done = ++finished;
            if (tty) {
                double rate = done / (cli_seconds() - t0);
#pragma omp critical(match_progress)
                fprintf(stderr, "\r%d/%d games  %.2f games/s  ETA %.0f s   ", done, o->games, rate,
                        (o->games - done) / rate);
            }
        }
        player_free(p[0]);
        player_free(p[1]);
    }
    if (tty)
        fputc('\n', stderr);
}

/* Pair scores of the first player: games 2i and 2i+1 share an opening (pentanomial counts). */
static Pentanomial pair_counts(const MatchOptions *o, const MatchGame *games)
{
    Pentanomial p = {{0, 0, 0, 0, 0}};
    for (int i = 0; i + 1 < o->games; i += 2)
        p.pairs[first_player_score(&games[i]) + first_player_score(&games[i + 1]) + 2]++;
    return p;
}

static void report(const MatchOptions *o, const MatchGame *games, double seconds)
{
    Trinomial t = {0, 0, 0};
    int adjudicated = 0;
    long plies = 0;
    for (int i = 0; i < o->games; i++) {
        int s = first_player_score(&games[i]);
        t.wins += s > 0;
        t.draws += s == 0;
        t.losses += s < 0;
        adjudicated += games[i].reason == END_PLY_LIMIT || games[i].reason == END_REPETITION;
        plies += games[i].plies;
    }
    Pentanomial pairs = pair_counts(o, games);
    EloEstimate e, ep;
    bool have_elo = elo_trinomial(&t, 0.95, &e), have_pairs = o->games >= 2 && elo_pentanomial(&pairs, 0.95, &ep);
    if (o->json) {
        printf("{\"first\":\"%s\",\"second\":\"%s\",\"games\":%d,\"wins\":%lld,\"draws\":%lld,\"losses\":%lld,"
               "\"score\":%.4f,\"elo\":%.2f,\"elo_lower\":%.2f,\"elo_upper\":%.2f,\"los\":%.4f,"
               "\"pentanomial\":[%lld,%lld,%lld,%lld,%lld],\"adjudicated_draws\":%d,\"mean_plies\":%.1f,"
               "\"seconds\":%.2f}\n",
               o->spec[0], o->spec[1], o->games, (long long)t.wins, (long long)t.draws, (long long)t.losses,
               have_elo ? e.score : 0.5, have_elo ? e.elo : 0, have_elo ? e.elo_lower : 0, have_elo ? e.elo_upper : 0,
               have_elo ? e.los : 0.5, (long long)pairs.pairs[0], (long long)pairs.pairs[1], (long long)pairs.pairs[2],
               (long long)pairs.pairs[3], (long long)pairs.pairs[4], adjudicated, (double)plies / o->games, seconds);
        return;
    }
    printf("%s vs %s: %d games, +%lld =%lld -%lld, score %.1f%% for %s\n", o->spec[0], o->spec[1], o->games,
           (long long)t.wins, (long long)t.draws, (long long)t.losses, 100 * (t.wins + 0.5 * t.draws) / o->games,
           o->spec[0]);
    if (have_elo)
        printf("Elo %+.1f [%+.1f, %+.1f] (95%%), LOS %.1f%%\n", e.elo, e.elo_lower, e.elo_upper, 100 * e.los);
    if (have_pairs)
        printf("pairs (0, 1/2, 1, 3/2, 2 points): %lld %lld %lld %lld %lld, Elo %+.1f [%+.1f, %+.1f]\n",
               (long long)pairs.pairs[0], (long long)pairs.pairs[1], (long long)pairs.pairs[2],
               (long long)pairs.pairs[3], (long long)pairs.pairs[4], ep.elo, ep.elo_lower, ep.elo_upper);
    printf("mean length %.1f plies, %d draws adjudicated, %.1f s (%.2f games/min)\n", (double)plies / o->games,
           adjudicated, seconds, o->games / seconds * 60);
}

static int run_match(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "match"};
    GameOptions gopts = {0};
    MatchOptions o = {{NULL, NULL}, 100, 1, 600, 4, true, false, 1};
    const char *text;
    int specs = 0;
    while (r.index < argc) {
        if (arg_game_option(&r, &gopts))
            continue;
        if (arg_value(&r, "--games", &text))
            o.games = (int)arg_integer("match", "--games", text, 1, 10000000);
        else if (arg_value(&r, "--concurrency", &text))
            o.concurrency = (int)arg_integer("match", "--concurrency", text, 1, 1024);
        else if (arg_value(&r, "--max-plies", &text))
            o.max_plies = (int)arg_integer("match", "--max-plies", text, 0, 100000);
        else if (arg_value(&r, "--opening-plies", &text))
            o.opening_plies = (int)arg_integer("match", "--opening-plies", text, 0, 1000);
        else if (arg_value(&r, "--seed", &text))
            o.seed = (uint64_t)arg_integer("match", "--seed", text, 0, 0x7fffffffffffffffL);
        else if (arg_flag(&r, "--no-repetition"))
            o.repetition = false;
        else if (arg_flag(&r, "--json"))
            o.json = true;
        else if (argv[r.index][0] != '-' && specs < 2)
            o.spec[specs++] = argv[r.index++];
        else
            arg_common(&r, &command_match);
    }
    if (specs < 2)
        cli_fail("match", EXIT_USAGE, "expected two players (see leuctra match --help)");
    Position start;
    Game *g = cli_open_game("match", &gopts, &start);
    for (int i = 0; i < 2; i++) {
        Error err;
        Player *check = player_create(g, o.spec[i], &err);
        if (!check)
            cli_fail("match", EXIT_USAGE, "%s", err.msg);
        player_free(check);
    }
    MatchGame *games = calloc((size_t)o.games, sizeof *games);
    if (!games)
        cli_fail("match", EXIT_FAILURE_RUN, "out of memory");
    double t0 = cli_seconds();
    play_games(g, &start, &o, games);
    report(&o, games, cli_seconds() - t0);
    free(games);
    game_free(g);
    return 0;
}

const Command command_match = {
    "match", run_match, "play two players against each other",
    "usage: leuctra match PLAYER1 PLAYER2 [--games N] [--concurrency N] [--variant V] [--size WxH]\n"
    "                     [--position POS] [--opening-plies N] [--max-plies N] [--no-repetition]\n"
    "                     [--seed S] [--json]\n\n"
    "Plays N games (default 100) with colours alternating, PLAYER1 White in the first game, and\n"
    "prints the first player's wins, draws and losses.  Games run --concurrency at a time (default 1);\n"
    "every game's seed comes from --seed and its number, so results do not depend on concurrency.\n"
    "Games are played in pairs from the same opening with colours swapped: --opening-plies (default\n"
    "4) uniformly random moves from the start position, different for every pair.\n"
    "Draws are adjudicated after --max-plies plies (default 600) and on the third repetition.\n\n"
    PLAYER_SPECS_HELP "\n"
    "example: leuctra match mcts:visits=1000 greedy --games 200 --concurrency 2\n",
};
