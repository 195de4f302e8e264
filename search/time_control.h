/*
 * time_control.h - game clocks, and how much of its clock a move gets.  One module for every
 * side of a timed game: the game driver keeps each side's clock and forfeits a side whose time
 * runs out (driver.c), the in-process `mcts` player and the engine server's `go wtime ...` budget
 * their moves from it, and the external player sends it to its engine (player_external.c).
 *
 * A time control is `SECONDS[+INC]` (the whole game on one clock, INC added after every move) or
 * `MOVES/SECONDS[+INC]` (repeating periods: SECONDS more every MOVES moves), as cutechess-cli
 * and fastchess write them; SECONDS may also be written M:SS.  All times are seconds.
 *
 * The search needs only a deadline and a stop flag: a MoveTimer turns a budget into both, and is
 * called by the search's progress callback (mcts.h's MctsInfoFn) to stop early once the best move
 * cannot change before the move's target time.
 */
#ifndef LEUCTRA_TIME_CONTROL_H
#define LEUCTRA_TIME_CONTROL_H

#include "core/game.h"
#include "search/mcts.h"

#include <stdatomic.h>
#include <stdbool.h>
#include <stddef.h>

typedef struct {
    double seconds;     /* on the clock at the start, and added at every new period; 0: no clock */
    double increment;   /* added after every move */
    int moves;          /* moves per period; 0: the whole game is one period */
} TimeControl;

/* "40/10+0.1", "10+0.1", "60", "1:30+1" into *out; false with *err (naming the text) otherwise. */
bool time_control_parse(const char *text, TimeControl *out, Error *err);
/* The form time_control_parse reads back ("40/10+0.1"; "-" for no clock). */
void time_control_format(const TimeControl *tc, char *buf, size_t len);
static inline bool time_control_on(const TimeControl *tc) { return tc->seconds > 0; }

/* One side's clock in a game. */
typedef struct {
    TimeControl tc;
    double left;        /* seconds on it now (negative once the side has lost on time) */
    int moves;          /* moves made on it */
} GameClock;

void game_clock_start(GameClock *c, const TimeControl *tc);
/* Moves until the next period's time is added (0: sudden death). */
int game_clock_moves_to_go(const GameClock *c);
/* A move that took `used` seconds: false when it overran the clock by more than `margin` (the
 * side has lost on time; left goes negative).  An overrun within the margin is forgiven: the
 * clock stops at 0.  Then the increment, and at a period's end its time, are added. */
bool game_clock_charge(GameClock *c, double used, double margin);

/* What a player is told about the clocks before a move: UCI's `go wtime W btime B winc WI binc
 * BI movestogo N`, in seconds. */
typedef struct {
    double left[2];         /* [WHITE], [BLACK] */
    double increment[2];
    int moves_to_go;        /* of the side to move; 0: none (sudden death) */
} ClockReading;

/* The reading of two clocks for `mover`; a side without a clock (tc off) reads as the mover's. */
ClockReading time_control_clock_reading(const GameClock clocks[2], const bool on[2], int mover);

/* How long a move may take: it aims at `target` and never goes past `max`. */
typedef struct {
    double target, max;
} TimeBudget;

/* Seconds reserved on every move for what the search does not see (pipes, process switches, a
 * loaded machine): a move is budgeted as if the clock had this much less. */
#define TIME_DEFAULT_OVERHEAD 0.02

/* The moves the side to move is expected still to play: by the empty squares in Reversi (the
 * last ones are solved at once), by the plies played against a typical game length in the
 * phalanx games, never fewer than a floor (a game may always go on longer than is typical). */
int time_control_moves_left(const Game *g, const Position *pos, int plies_played);

/* The budget of a move from the mover's clock: an even share of the time up to the next period
 * (or of the game's expected rest, whichever is nearer), the increments to come included, less a
 * reserve (the overhead, 2% of the clock, 3 increments); at most 3 times that, and never more
 * than half of what is left (80% on a period's last move). */
TimeBudget time_control_budget(const ClockReading *r, int mover, int moves_left, double overhead);

/* The deadline and early stop of one timed move (see the file comment). */
typedef struct {
    TimeBudget budget;
    double start;           /* clock_seconds() when the move began (before any setup) */
    atomic_bool *stop;      /* the search's stop flag, set when the move should end */
} MoveTimer;

/* How often the search should call time_control_timer_check: often enough to stop within 1% of a 1 s
 * move, rarely enough that collecting the result (a sort of the root's moves) costs nothing. */
#define MOVE_TIMER_INTERVAL 0.01

void time_control_timer_start(MoveTimer *t, TimeBudget budget, double start, atomic_bool *stop);
/* The search limits that go with the timer: its max, less what went before the search began. */
MctsLimits time_control_timer_limits(const MoveTimer *t, long visits);
/* A MctsInfoFn (ctx: the MoveTimer): sets *stop when the move is over: its max reached; its
 * target reached and the most visited move also the best valued; or, half the target in, the
 * most visited move ahead of the second by more visits than the search makes by the
 * target, so that no other move can overtake it. */
void time_control_timer_check(const MctsResult *so_far, void *timer);

#endif
