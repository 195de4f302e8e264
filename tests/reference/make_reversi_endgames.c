/*
 * make_reversi_endgames.c - writes tests/reference/reversi_endgames.h: positions from uniformly
 * random Reversi games, a few at each number of empty squares, with the exact score that the
 * plain reference solver (reversi_reference_solve.c) finds for them.  The unit tests check the
 * engine's solver against the file; `make reversi-endgames` rebuilds it (about half an hour on
 * one core: the reference solver has no move ordering and no table).
 *
 *   make_reversi_endgames SEED EMPTIES:COUNT...
 *
 * Positions with E empties come from their own random stream (the seed and E), so a run asking
 * for fewer of them gives the first ones of a run asking for more.
 */
#include "core/game.h"
#include "core/rng.h"
#include "core/solve.h"
#include "reversi_reference_solve.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>

/* A position with exactly `empties` empty squares and a game still going, from random play. */
static void random_position(const Game *g, Rng *rng, int empties, Position *p)
{
    for (;;) {
        game_start(g, p);
        while (game_status(g, p) == STATUS_ONGOING && solve_empties(g, p) > empties) {
            Move moves[MAX_MOVES];
            Undo undo;
            const int n = game_gen_moves(g, p, moves);
            game_make(g, p, moves[rng_next(rng) % (uint64_t)n], &undo);
        }
        if (game_status(g, p) == STATUS_ONGOING && solve_empties(g, p) == empties)
            return;
    }
}

int main(int argc, char **argv)
{
    if (argc < 3) {
        fprintf(stderr, "usage: make_reversi_endgames SEED EMPTIES:COUNT...\n");
        return 2;
    }
    Error err;
    Game *g = game_new("reversi", 0, 0, &err);
    if (!g)
        return 1;
    const uint64_t seed = strtoull(argv[1], NULL, 10);
    printf("/*\n * reversi_endgames.h - Reversi endgames with the exact score for the side to move (final\n"
           " * disc difference, empties to the winner) found by tests/reference/reversi_reference_solve.c, for\n"
           " * test_solve.c.  Positions from random games; written by `make reversi-endgames`:\n"
           " * make_reversi_endgames %s", argv[1]);
    for (int i = 2; i < argc; i++)
        printf(" %s", argv[i]);
    printf("\n */\n");
    for (int i = 2; i < argc; i++) {
        int empties, count;
        if (sscanf(argv[i], "%d:%d", &empties, &count) != 2 || empties < 1 || empties > 60 || count < 0) {
            fprintf(stderr, "make_reversi_endgames: bad EMPTIES:COUNT '%s'\n", argv[i]);
            return 2;
        }
        Rng rng = rng_seed(seed, (uint64_t)empties);
        for (int k = 0; k < count; k++) {
            Position p;
            random_position(g, &rng, empties, &p);
            char text[128];
            game_format_position(g, &p, text, sizeof text);
            int score;
            uint64_t nodes;
            if (!ref_solve(text, &score, &nodes))
                return 1;
            printf("{\"%s\", %d},\n", text, score);
            fflush(stdout);
        }
    }
    game_free(g);
    return 0;
}
