/*
 * record_tensors.c - a game record's positions as tensor rows (record_tensors.h).
 *
 * Per position the legal actions are marked in a bitmap over the action index, which gives them
 * in ascending order, tells in one lookup whether a visited move is legal, and where its count
 * goes.  A symmetric copy maps the identity row's actions and re-sorts them through the same
 * bitmap.  Nothing is allocated per position.
 */
#include "record_tensors.h"

#include <math.h>
#include <stdlib.h>
#include <string.h>

enum { CODES = 1 << 16, UNKNOWN = -2 };

/* count_at's mark for a legal action the ply's visit list has not named (yet): a list that names
   a move twice must be refused, not summed into a visit total its counts do not add up to */
#define UNNAMED UINT64_MAX

struct RecordTensors {
    const Game *g;
    unsigned symmetries;            /* the extras, bit s for symmetry s */
    int num_actions, words;
    uint64_t *bitmap;               /* words: the actions marked */
    Move *move_at;                  /* num_actions: the legal move of a marked action */
    uint64_t *count_at;             /* num_actions: the visits of a marked action, or UNNAMED */
    int16_t *code_action[2];        /* per side to move, a stored move code's action (-1: none),
                                       or UNKNOWN until first asked: visit lists repeat codes */
    unsigned char *planes, *turned;
    Move moves[MAX_MOVES];
    int actions[MAX_MOVES], legal[MAX_MOVES], turned_legal[MAX_MOVES];
    uint32_t visits[MAX_MOVES], turned_visits[MAX_MOVES];
};

RecordTensors *record_tensors_new(const Game *g, unsigned symmetries)
{
    RecordTensors *rt = calloc(1, sizeof *rt);
    if (!rt)
        return NULL;
    size_t planes = (size_t)PLANES_COUNT * (size_t)g->width * (size_t)g->height;
    rt->g = g;
    rt->symmetries = symmetries & game_symmetries(g) & ~1u;
    rt->num_actions = game_num_actions(g);
    rt->words = (rt->num_actions + 63) / 64;
    rt->bitmap = calloc((size_t)rt->words, sizeof *rt->bitmap);
    rt->move_at = malloc((size_t)rt->num_actions * sizeof *rt->move_at);
    rt->count_at = malloc((size_t)rt->num_actions * sizeof *rt->count_at);
    for (int side = 0; side < 2; side++) {
        rt->code_action[side] = malloc(CODES * sizeof *rt->code_action[side]);
        for (int c = 0; rt->code_action[side] && c < CODES; c++)
            rt->code_action[side][c] = UNKNOWN;
    }
    rt->planes = malloc(planes);
    rt->turned = malloc(planes);
    if (!rt->bitmap || !rt->move_at || !rt->count_at || !rt->planes || !rt->turned || !rt->code_action[0] ||
        !rt->code_action[1]) {
        record_tensors_free(rt);
        return NULL;
    }
    return rt;
}

void record_tensors_free(RecordTensors *rt)
{
    if (!rt)
        return;
    free(rt->bitmap);
    free(rt->move_at);
    free(rt->count_at);
    free(rt->code_action[0]);
    free(rt->code_action[1]);
    free(rt->planes);
    free(rt->turned);
    free(rt);
}

int record_tensors_copies(const RecordTensors *rt)
{
    return 1 + __builtin_popcount(rt->symmetries);
}

static bool marked(const RecordTensors *rt, int a)
{
    return a >= 0 && a < rt->num_actions && (rt->bitmap[a >> 6] >> (a & 63) & 1);
}

static void mark(RecordTensors *rt, int a) { rt->bitmap[a >> 6] |= 1ull << (a & 63); }

/* The marked actions ascending, with their counts; clears the bitmap for the next use. */
static int collect(RecordTensors *rt, int *legal, uint32_t *visits)
{
    int n = 0;
    for (int w = 0; w < rt->words; w++) {
        for (uint64_t bits = rt->bitmap[w]; bits; bits &= bits - 1) {
            int a = w * 64 + __builtin_ctzll(bits);
            legal[n] = a;
            visits[n++] = rt->count_at[a] == UNNAMED ? 0 : (uint32_t)rt->count_at[a];
        }
        rt->bitmap[w] = 0;
    }
    return n;
}

static int stored_action(RecordTensors *rt, int side, RecordMove m)
{
    int16_t *known = &rt->code_action[side][m.code];
    if (*known == UNKNOWN) {
        MoveSquares squares;
        *known = (int16_t)(record_move_squares(m, &squares) ? game_action_of_squares(rt->g, side, &squares) : -1);
    }
    return *known;
}

typedef struct {
    RecordTensors *rt;
    const GameRecord *r;
    int ply;
    Error *err;
} Replay;

static bool refuse(const Replay *x, RecordMove m, const char *why)
{
    char text[RECORD_MOVE_TEXT];
    record_move_format(m, text, sizeof text);
    error_set(x->err, "game %llu ply %d: %s %s", (unsigned long long)x->r->index, x->ply + 1, why, text);
    return false;
}

/* A stored move's squares name a legal move (action a); its notation must be the rules' too, mark
 * included ('-' or 'x'), or the record says a move the rules would not write: a visit list's
 * "a2-b2" where the move captures is no move of the position, whatever its squares name.  Only a
 * step's code has a mark (its low bit, FORMAT.md): a placement or a pass that names the action
 * is its notation, and a step's squares are the action's, so the mark is all there is to compare
 * (the texts are made only to say what differs: formatting each visit cost a fifth of the
 * export). */
static bool written_as_rules(const Replay *x, const Position *pos, RecordMove m, int a, const char *what)
{
    unsigned shape = m.code & 0xFF;
    if (shape == 0 || shape == 1)
        return true;
    char stored[RECORD_MOVE_TEXT], rules[32];
    game_format_move(x->rt->g, pos, x->rt->move_at[a], rules, sizeof rules);
    int mark = (m.code >> 8 & 15) + 1 >= 10 ? 3 : 2;     /* after the first square, "a2" or "a12" */
    if ((rules[mark] == 'x') == (bool)(m.code & 1))
        return true;
    record_move_format(m, stored, sizeof stored);
    error_set(x->err, "game %llu ply %d: %s notation is not the rules': %s (the rules write %s)",
              (unsigned long long)x->r->index, x->ply + 1, what, stored, rules);
    return false;
}

/* Marks the legal actions of pos and puts the ply's visits on them; *played the move's. */
static bool read_position(Replay *x, const Position *pos, int side, Move *played, uint64_t *sum)
{
    RecordTensors *rt = x->rt;
    const RecordPly *p = &x->r->ply[x->ply];
    int n = game_legal_actions(rt->g, pos, rt->moves, rt->actions);
    for (int i = 0; i < n; i++) {
        mark(rt, rt->actions[i]);
        rt->move_at[rt->actions[i]] = rt->moves[i];
        rt->count_at[rt->actions[i]] = UNNAMED;
    }
    *sum = 0;
    for (uint32_t k = 0; k < p->num_visits; k++) {
        const RecordVisit *v = &x->r->visit[p->first_visit + k];
        int a = stored_action(rt, side, v->move);
        if (!marked(rt, a))
            return refuse(x, v->move, "the visit list names no legal move:");
        if (rt->count_at[a] != UNNAMED)
            return refuse(x, v->move, "the visit list names a move twice:");
        if (!written_as_rules(x, pos, v->move, a, "the visit list's"))
            return false;
        rt->count_at[a] = v->visits;
        *sum += v->visits;
    }
    int a = stored_action(rt, side, p->move);
    if (!marked(rt, a))
        return refuse(x, p->move, "the stored move is no legal move:");
    if (!written_as_rules(x, pos, p->move, a, "the stored move's"))
        return false;
    *played = rt->move_at[a];
    return true;
}

static bool emit_rows(Replay *x, TensorRow *row, const Position *pos, TensorRowFn fn, void *ctx)
{
    RecordTensors *rt = x->rt;
    game_planes(rt->g, pos, rt->planes);
    row->planes = rt->planes;
    row->num_legal = collect(rt, rt->legal, rt->visits);
    row->legal = rt->legal;
    row->visits = rt->visits;
    row->symmetry = 0;
    int played = row->played;
    if (!fn(row, ctx, x->err))
        return false;
    for (int s = 1; s < SYM_COUNT; s++) {
        if (!(rt->symmetries >> s & 1))
            continue;
        for (int i = 0; i < row->num_legal; i++) {
            int t = game_transform_action(rt->g, s, rt->legal[i]);
            mark(rt, t);
            rt->count_at[t] = rt->visits[i];
        }
        game_transform_planes(rt->g, s, rt->planes, rt->turned);
        TensorRow copy = *row;
        copy.symmetry = s;
        copy.planes = rt->turned;
        copy.num_legal = collect(rt, rt->turned_legal, rt->turned_visits);
        copy.legal = rt->turned_legal;
        copy.visits = rt->turned_visits;
        copy.played = game_transform_action(rt->g, s, played);
        if (!fn(&copy, ctx, x->err))
            return false;
    }
    return true;
}

static float result_for(GameStatus result, int side)
{
    if (result == STATUS_DRAW)
        return 0.5f;
    return (result == STATUS_WHITE_WINS) == (side == WHITE) ? 1.0f : 0.0f;
}

/* Clears the marks of a position whose rows are not wanted. */
static void clear_marks(RecordTensors *rt) { memset(rt->bitmap, 0, (size_t)rt->words * sizeof *rt->bitmap); }

/* The replay of both: rows through fn, or (fn NULL) the checks alone. */
static bool replay(RecordTensors *rt, const GameRecord *r, TensorRowFn fn, void *ctx, Error *err)
{
    Position pos;
    Error why;
    if (!game_parse_position(rt->g, r->start, &pos, &why)) {
        error_set(err, "game %llu: bad start position: %s", (unsigned long long)r->index, why.msg);
        return false;
    }
    Replay x = {rt, r, 0, err};
    for (; x.ply < r->plies; x.ply++) {
        int side = game_side_to_move(rt->g, &pos);
        Move m;
        TensorRow row = {.game = r->index, .ply = x.ply, .side = side};
        if (!read_position(&x, &pos, side, &m, &row.visit_sum)) {
            clear_marks(rt);
            return false;
        }
        if (fn) {
            row.played = game_action_of(rt->g, &pos, m);
            row.result = result_for(r->result, side);
            row.value = (float)record_value_double(r->ply[x.ply].value);
            if (!emit_rows(&x, &row, &pos, fn, ctx))
                return false;
        } else {
            clear_marks(rt);
        }
        Undo u;
        game_make(rt->g, &pos, m, &u);
    }
    return true;
}

bool record_tensors_game(RecordTensors *rt, const GameRecord *r, TensorRowFn fn, void *ctx, Error *err)
{
    return replay(rt, r, fn, ctx, err);
}

bool record_tensors_check(RecordTensors *rt, const GameRecord *r, Error *err)
{
    return replay(rt, r, NULL, NULL, err);
}
