/*
 * driver.h - plays one game between two players from a start position, applying the
 * adjudication that the rules leave to the driver (RULES.md section 2): a draw at a ply limit
 * and, where enabled, on the third occurrence of a position with the same side to move; and,
 * where enabled, a loss once both players agree it is lost (resign adjudication, as
 * cutechess-cli's and fastchess's two-sided -resign).  A player whose spec has a game clock
 * (tc=, search/time_control.h) plays on one that the driver keeps: each move is timed from the
 * call to the player's choose to its return, and a move that overruns the clock by more than the
 * policy's margin loses the game on time.
 */
#ifndef LEUCTRA_DRIVER_H
#define LEUCTRA_DRIVER_H

#include "data/records.h"
#include "selfplay/player.h"

typedef enum {
    END_RULES,          /* the rules ended the game (win, no move, Reversi finished) */
    END_PLY_LIMIT,      /* adjudicated a draw: the ply limit */
    END_REPETITION,     /* adjudicated a draw: third occurrence of a position */
    END_NO_MOVE_CHOSEN, /* a player returned no legal move: it loses */
    END_RESIGN,         /* adjudicated a loss: both players' values agreed for resign_moves moves */
    END_TIME_FORFEIT    /* a player's clock ran out: it loses */
} EndReason;

typedef struct {
    int max_plies;      /* 0 = no limit */
    bool repetition;    /* draw on the third occurrence */
    int resign_moves;   /* 0 = off; else a side loses once, for this many moves of each side in a
                           row, its own value was <= resign_value and its opponent's >= 1 -
                           resign_value (a player that reports no value never agrees) */
    double resign_value;
    double time_margin; /* seconds a clocked move may overrun its clock and still count (--timemargin) */
} DrawPolicy;

/* The default policy: 600 plies, repetition on, no resign adjudication, no time margin. */
DrawPolicy driver_draw_policy_default(void);

typedef struct {
    GameStatus result;  /* never STATUS_ONGOING */
    EndReason reason;
    int plies;
    Move *moves;        /* the moves played (malloc'd; free with game_result_free) */
    double clock_left[2];   /* [WHITE], [BLACK] at the end: negative for a side that lost on time;
                               NAN for a side without a clock */
} GameResult;

/* Called after each move is chosen, before it is made (may be NULL); info->seconds and
 * info->clock_left say what the move took and left.  A move that lost on time is not made and
 * not observed. */
typedef void (*MoveObserver)(void *ctx, const Position *before, Move move, const MoveInfo *info);

/* Plays a game; players[WHITE] and players[BLACK] move in turn.  Each player's new_game is called
 * with a seed derived from `seed`.  False only when memory runs out. */
bool driver_play_game(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy, uint64_t seed,
               MoveObserver observe, void *observe_ctx, GameResult *out);
void game_result_free(GameResult *r);

/* The same game a move at a time, for a caller that plays many games in step (self-play whose
 * searches an outside evaluator batches: selfplay_lockstep.c).  driver_play_game is exactly
 * begin; while not ended, step; finish. */
typedef struct DriverGame DriverGame;

/* Begins a game (the players' new_game called as driver_play_game calls them); NULL when memory
 * runs out.  g, start's game, players and policy must outlive it. */
DriverGame *driver_game_begin(const Game *g, const Position *start, Player *players[2], const DrawPolicy *policy,
                              uint64_t seed, MoveObserver observe, void *observe_ctx);
/* The game so far (valid until the next step). */
const GameSoFar *driver_game_so_far(const DriverGame *d);
/* Whether the game is over: adjudicated before the next move, or a player failed to move. */
bool driver_game_ended(DriverGame *d);
/* Asks the player to move for its move and makes it (a game that has not ended); false only when
 * memory runs out. */
bool driver_game_step(DriverGame *d);
/* The result of an ended game into *out (as driver_play_game's); frees d. */
void driver_game_finish(DriverGame *d, GameResult *out);
/* Frees a game without a result (a run that failed; NULL is fine). */
void driver_game_abandon(DriverGame *d);

const char *driver_end_reason_name(EndReason r);   /* "rules", "ply-limit", "repetition", "no-move", "resign", "time" */
/* The end reason as a game record stores it, and back. */
RecordEnd driver_end_reason_record(EndReason r);
EndReason driver_end_reason_of_record(RecordEnd e);

#endif
