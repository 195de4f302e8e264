/*
 * selfplay_game.c - one self-play game (see selfplay.h): the engine as a Player that sits on both
 * sides of selfplay/driver.c's driver_play_game, so draws are adjudicated exactly as in every other game
 * the toolkit plays, and a move observer that writes each ply into the game record.
 *
 * Per move: uniformly random for the first `random_opening` plies; otherwise an MCTS search of
 * one thread (reproducible from its seed) with root noise, the tree kept from the previous move
 * and the game's earlier positions given for the repetition rule; then the move is sampled by
 * visits^(1/T) during the first `temperature_plies` plies, the best one after that.
 *
 * The game goes a move at a time (driver.h's DriverGame) and stops where a move needs a search,
 * so that the search can be made here (selfplay_game_play) or, batched across many games, by
 * selfplay_lockstep.c: both then choose and record the move the same way.
 */
#include "selfplay.h"

#include "core/rng.h"
#include "search/mcts.h"

#include <math.h>
#include <stdlib.h>

/* Streams of the game seed (core/rng.h): move sampling and random plies use their own. */
enum { SAMPLING_STREAM = 0x5e1f };

struct SelfplayGame {
    Player player;              /* both seats of driver_play_game; player.ctx points back here */
    const Game *game;
    const Weights *weights;
    const SelfplayConfig *cfg;
    MctsConfig search_config;
    MctsLimits limits;
    Mcts *mcts;                 /* made at the first search, restarted with each game's seed */
    uint64_t search_seed;
    Rng rng;                    /* sampling and random plies */
    MctsResult last;            /* the search behind the move being recorded */
    Move moves[MAX_MOVES];
    RecordVisit visits[MCTS_MAX_STATS];
    GameRecord *record;         /* where the observer writes */
    DriverGame *driver;         /* the game being played (NULL between games) */
    bool searched;              /* `last` is the search of the position to move in */
    bool failed;                /* memory ran out during the game */
};

/* --- choosing moves ---------------------------------------------------------------------------- */

/* A move with probability proportional to visits^(1/T), among the visited moves not proven to
 * lose (a proven loss is a blunder the search already knows about, not exploration). */
static Move sample_by_visits(const MctsResult *r, double temperature, Rng *rng)
{
    double weight[MCTS_MAX_STATS], sum = 0, most = 0;
    for (int i = 0; i < r->num_stats; i++)
        if (r->stats[i].proven != PROVEN_LOSS && r->stats[i].visits > most)
            most = (double)r->stats[i].visits;
    if (most == 0)
        return r->best;
    /* Relative to the most visited, so that a small T cannot overflow. */
    for (int i = 0; i < r->num_stats; i++) {
        const MoveStat *s = &r->stats[i];
        weight[i] = s->proven != PROVEN_LOSS && s->visits > 0 ? pow((double)s->visits / most, 1.0 / temperature) : 0;
        sum += weight[i];
    }
    double pick = rng_double(rng) * sum;
    for (int i = 0; i < r->num_stats; i++) {
        if (weight[i] > 0 && pick < weight[i])
            return r->stats[i].move;
        pick -= weight[i];
    }
    return r->best;     /* rounding left `pick` just above the last weight */
}

/* The move of the search made for this position (selfplay_game_advance asked for it). */
static Move searched_move(SelfplayGame *sg, const GameSoFar *game, MoveInfo *info)
{
    if (!sg->searched) {
        sg->failed = true;      /* no search: the game cannot go on (never happens) */
        return MOVE_NONE;
    }
    sg->searched = false;
    info->value = sg->last.value;
    info->visits = sg->last.visits;
    info->search = &sg->last;
    const SelfplayConfig *cfg = sg->cfg;
    bool sample = game->plies < cfg->temperature_plies && cfg->temperature > 0 && sg->last.proven != PROVEN_WIN;
    return sample ? sample_by_visits(&sg->last, cfg->temperature, &sg->rng) : sg->last.best;
}

static Move random_move(SelfplayGame *sg, const Position *pos, MoveInfo *info)
{
    int n = game_gen_moves(sg->game, pos, sg->moves);
    info->value = NAN;
    info->visits = 0;
    info->search = NULL;
    return n ? sg->moves[rng_below(&sg->rng, (uint32_t)n)] : MOVE_NONE;
}

static Move selfplay_choose(Player *p, const GameSoFar *game, MoveInfo *info)
{
    SelfplayGame *sg = p->ctx;
    return game->plies < sg->cfg->random_opening ? random_move(sg, &game->now, info) : searched_move(sg, game, info);
}

/* Player.new_game.  driver_play_game calls it once per seat, both seats being this player, with seeds
 * derived from the game seed; the last call decides, which is as reproducible as the first. */
static void selfplay_new_game(Player *p, uint64_t seed)
{
    SelfplayGame *sg = p->ctx;
    sg->search_seed = seed;   /* the search is made at the first one: random-opening-only games need none */
    if (sg->mcts)
        mcts_restart(sg->mcts, seed);
    sg->rng = rng_seed(seed, SAMPLING_STREAM);
}

/* --- recording --------------------------------------------------------------------------------- */

/* The search's root moves with visits, in the stored form; their count. */
static int visit_list(SelfplayGame *sg, const Position *before, const MctsResult *r)
{
    int n = 0;
    for (int i = 0; i < r->num_stats; i++) {
        if (r->stats[i].visits <= 0)
            continue;
        Error err;
        if (!record_move_from_move(sg->game, before, r->stats[i].move, &sg->visits[n].move, &err)) {
            sg->failed = true;
            continue;
        }
        sg->visits[n++].visits = r->stats[i].visits > UINT32_MAX ? UINT32_MAX : (uint32_t)r->stats[i].visits;
    }
    return n;
}

/* The MoveObserver of driver_play_game: one ply of the record. */
static void record_ply(void *ctx, const Position *before, Move move, const MoveInfo *info)
{
    SelfplayGame *sg = ctx;
    RecordMove played;
    Error err;
    if (!record_move_from_move(sg->game, before, move, &played, &err)) {
        sg->failed = true;
        return;
    }
    int n = info->search ? visit_list(sg, before, info->search) : 0;
    long total = info->search ? info->search->tree_visits : 0;
    uint32_t total_visits = total > (long)UINT32_MAX ? UINT32_MAX : (uint32_t)total;
    if (!game_record_add_ply(sg->record, played, record_value_quantise(info->value), sg->visits, n, total_visits))
        sg->failed = true;
}

/* --- a game a move at a time ------------------------------------------------------------------ */

bool selfplay_game_start(SelfplayGame *sg, const Position *start, uint64_t index, uint64_t seed, GameRecord *record)
{
    driver_game_abandon(sg->driver);
    game_record_clear(record);
    record->index = index;
    record->seed = seed;
    game_format_position(sg->game, start, record->start, sizeof record->start);
    sg->record = record;
    sg->failed = false;
    sg->searched = false;
    Player *seats[2] = {&sg->player, &sg->player};
    sg->driver = driver_game_begin(sg->game, start, seats, &sg->cfg->draw, seed, record_ply, sg);
    return sg->driver != NULL;
}

/* The search tree, made at the first search with the game's seed, set to the game so far. */
static Mcts *tree_for(SelfplayGame *sg, const GameSoFar *game)
{
    if (!sg->mcts) {
        sg->search_config.seed = sg->search_seed;
        sg->mcts = mcts_new(sg->game, sg->weights, &sg->search_config);
        if (!sg->mcts)
            return NULL;
    }
    mcts_set_game(sg->mcts, game);
    return sg->mcts;
}

SelfplayStep selfplay_game_advance(SelfplayGame *sg)
{
    if (!sg->driver)
        return SELFPLAY_FAILED;
    while (!driver_game_ended(sg->driver)) {
        const GameSoFar *game = driver_game_so_far(sg->driver);
        if (!sg->searched && game->plies >= sg->cfg->random_opening)
            return tree_for(sg, game) ? SELFPLAY_SEARCH : SELFPLAY_FAILED;
        if (!driver_game_step(sg->driver) || sg->failed)
            return SELFPLAY_FAILED;
    }
    return SELFPLAY_OVER;
}

Mcts *selfplay_game_tree(SelfplayGame *sg) { return sg->mcts; }

void selfplay_game_searched(SelfplayGame *sg, const MctsResult *r)
{
    if (r != &sg->last)
        sg->last = *r;
    sg->searched = true;
}

bool selfplay_game_finish(SelfplayGame *sg)
{
    if (!sg->driver)
        return false;
    GameResult result;
    driver_game_finish(sg->driver, &result);
    sg->driver = NULL;
    GameRecord *record = sg->record;
    record->result = result.result;
    record->end = driver_end_reason_record(result.reason);
    /* Our player returns no move only when its search could not be made: out of memory. */
    bool ok = !sg->failed && result.reason != END_NO_MOVE_CHOSEN && record->plies == result.plies;
    game_result_free(&result);
    return ok;
}

bool selfplay_game_play(SelfplayGame *sg, const Position *start, uint64_t index, uint64_t seed, GameRecord *record)
{
    if (!selfplay_game_start(sg, start, index, seed, record))
        return false;
    SelfplayStep step;
    while ((step = selfplay_game_advance(sg)) == SELFPLAY_SEARCH) {
        sg->last = mcts_search(sg->mcts, &sg->limits, NULL, NULL, 0, NULL);
        selfplay_game_searched(sg, &sg->last);
    }
    if (step == SELFPLAY_FAILED) {
        driver_game_abandon(sg->driver);
        sg->driver = NULL;
        return false;
    }
    return selfplay_game_finish(sg);
}

/* --- the player's memory ----------------------------------------------------------------------- */

SelfplayGame *selfplay_game_new(const Game *g, const Weights *w, const SelfplayConfig *cfg)
{
    SelfplayGame *sg = calloc(1, sizeof *sg);
    if (!sg)
        return NULL;
    sg->game = g;
    sg->weights = w;
    sg->cfg = cfg;
    sg->search_config = selfplay_search_config(cfg);
    sg->limits.visits = cfg->visits;
    sg->player = (Player){.name = "selfplay", .game = g, .choose = selfplay_choose,
                          .new_game = selfplay_new_game, .destroy = NULL, .ctx = sg};
    return sg;
}

void selfplay_game_free(SelfplayGame *sg)
{
    if (!sg)
        return;
    driver_game_abandon(sg->driver);
    mcts_free(sg->mcts);
    free(sg);
}
