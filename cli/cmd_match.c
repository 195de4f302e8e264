/*
 * cmd_match.c - `leuctra match`: two in-process players over N games, colours alternating,
 * games played concurrently; prints wins, draws and losses of the first player.
 */
#include "cli.h"
#include "core/rng.h"
#include "selfplay/driver.h"

#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

typedef struct {
    GameStatus result;
    EndReason reason;
    int plies;
    bool first_is_white;
} MatchGame;

typedef struct {
    const char *spec[2];
    int games, concurrency, max_plies;
    bool repetition, json;
    uint64_t seed;
} MatchOptions;

static double seconds_now(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* +1 first player won, 0 draw, -1 lost. */
static int first_player_score(const MatchGame *m)
{
    if (m->result == STATUS_DRAW)
        return 0;
    bool white_won = m->result == STATUS_WHITE_WINS;
    return white_won == m->first_is_white ? 1 : -1;
}

static void play_games(const Game *g, const Position *start, const MatchOptions *o, MatchGame *out)
{
    DrawPolicy policy = {o->max_plies, o->repetition};
    _Atomic int finished = 0;
    bool tty = isatty(2);
    double t0 = seconds_now();
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
            GameResult r;
            if (!play_game(g, start, seats, &policy, rng_seed(o->seed, (uint64_t)i).s[0], NULL, NULL, &r))
                cli_fail("match", EXIT_FAILURE_RUN, "out of memory");
            out[i] = (MatchGame){r.result, r.reason, r.plies, first_white};
            game_result_free(&r);
            int done = ++finished;
            if (tty) {
                double rate = done / (seconds_now() - t0);
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

static void report(const MatchOptions *o, const MatchGame *games, double seconds)
{
    int wins = 0, draws = 0, losses = 0, adjudicated = 0;
    long plies = 0;
    for (int i = 0; i < o->games; i++) {
        int s = first_player_score(&games[i]);
        wins += s > 0;
        draws += s == 0;
        losses += s < 0;
        adjudicated += games[i].reason == END_PLY_LIMIT || games[i].reason == END_REPETITION;
        plies += games[i].plies;
    }
    double score = (wins + 0.5 * draws) / o->games;
    if (o->json) {
        printf("{\"first\":\"%s\",\"second\":\"%s\",\"games\":%d,\"wins\":%d,\"draws\":%d,\"losses\":%d,"
               "\"score\":%.4f,\"adjudicated_draws\":%d,\"mean_plies\":%.1f,\"seconds\":%.2f}\n",
               o->spec[0], o->spec[1], o->games, wins, draws, losses, score, adjudicated, (double)plies / o->games,
               seconds);
        return;
    }
    printf("%s vs %s: %d games, +%d =%d -%d, score %.1f%% for %s\n", o->spec[0], o->spec[1], o->games, wins, draws,
           losses, 100 * score, o->spec[0]);
    printf("mean length %.1f plies, %d draws adjudicated, %.1f s (%.2f games/min)\n", (double)plies / o->games,
           adjudicated, seconds, o->games / seconds * 60);
}

static int run_match(int argc, char **argv)
{
    ArgReader r = {argc, argv, 1, "match"};
    GameOptions gopts = {0};
    MatchOptions o = {{NULL, NULL}, 100, 1, 600, true, false, 1};
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
    double t0 = seconds_now();
    play_games(g, &start, &o, games);
    report(&o, games, seconds_now() - t0);
    free(games);
    game_free(g);
    return 0;
}

const Command command_match = {
    "match", run_match, "play two players against each other",
    "usage: leuctra match PLAYER1 PLAYER2 [--games N] [--concurrency N] [--variant V] [--size WxH]\n"
    "                     [--position POS] [--max-plies N] [--no-repetition] [--seed S] [--json]\n\n"
    "Plays N games (default 100) with colours alternating, PLAYER1 White in the first game, and\n"
    "prints the first player's wins, draws and losses.  Games run --concurrency at a time (default 1);\n"
    "every game's seed comes from --seed and its number, so results do not depend on concurrency.\n"
    "Draws are adjudicated after --max-plies plies (default 600) and on the third repetition.\n\n"
    PLAYER_SPECS_HELP "\n"
    "example: leuctra match mcts:visits=1000 greedy --games 200 --concurrency 2\n",
};
