/*
 * phalanx_tensors.c - the action index and input planes of Epaminondas, Crossings and Igfip
 * (core/tensors.h, docs/TENSORS.md).
 *
 * A move is named by its rearmost stone's square, its direction and its distance (the group is
 * every own stone ahead of the rear, so these three determine it), all in the mover's frame:
 * for Black the board is mirrored top to bottom, so "north" is always towards the opponent.
 * action = ((direction * D + distance - 1) * height + row) * width + file, with directions
 * N NE E SE S SW W NW = 0..7, row 0 the top of the mover's board, and D = max(width, height) / 2:
 * a group of k stones moves at most k squares and must fit on its line with them, so no move
 * goes farther.  The policy over actions is then 8 * D planes of the board's shape.
 */
#include "phalanx.h"
#include "tensors.h"

#include <string.h>

static int max_distance(const PhalanxTables *t)
{
    return (t->width > t->height ? t->width : t->height) / 2;
}

/* The plane row of a rank as `side` sees the board: the opponent's home rank on top. */
static int frame_row(const PhalanxTables *t, int side, int rank)
{
    return side == WHITE ? t->height - 1 - rank : rank;
}

/* Directions N NE E SE S SW W NW as (file, up) steps, up being towards the opponent. */
static const int action_dir_file[8] = {0, 1, 1, 1, 0, -1, -1, -1};
static const int action_dir_up[8] = {1, 1, 0, -1, -1, -1, 0, 1};

static int action_direction(int df, int dup)
{
    for (int d = 0; d < 8; d++)
        if (action_dir_file[d] == df && action_dir_up[d] == dup)
            return d;
    return -1;
}

static int sign(int v) { return (v > 0) - (v < 0); }
static int absolute(int v) { return v < 0 ? -v : v; }

int phalanx_num_actions(const Game *g)
{
    const PhalanxTables *t = tables_of(g);
    return 8 * max_distance(t) * t->height * t->width;
}

int phalanx_action_of_squares(const Game *g, int side, const MoveSquares *m)
{
    const PhalanxTables *t = tables_of(g);
    int from_rank = m->from_number - 1, to_rank = m->to_number - 1;
    if (m->pass || !phalanx_on_board(t, m->from_file, from_rank) || !phalanx_on_board(t, m->to_file, to_rank))
        return -1;
    int df = m->to_file - m->from_file, dr = to_rank - from_rank;
    int distance = absolute(df) > absolute(dr) ? absolute(df) : absolute(dr);
    if (distance == 0 || (df && dr && absolute(df) != absolute(dr)) || distance > max_distance(t))
        return -1;
    int dir = action_direction(sign(df), side == WHITE ? sign(dr) : -sign(dr));
    int channel = dir * max_distance(t) + distance - 1;
    return (channel * t->height + frame_row(t, side, from_rank)) * t->width + m->from_file;
}

/* The action direction of each move direction (phalanx.h's DIR_E, DIR_W, DIR_N ...) for the
 * side to move: Black's frame swaps north and south. */
static const uint8_t frame_direction[2][NUM_DIRS] = {{2, 6, 0, 4, 1, 5, 7, 3}, {2, 6, 4, 0, 3, 7, 5, 1}};

/* The hot path of exports: a legal move needs no checking, only arithmetic. */
int phalanx_action_of(const Game *g, const Position *pos, Move m)
{
    const PhalanxTables *t = tables_of(g);
    int side = cpos_of(pos)->side, rear = move_rear(m);
    int channel = frame_direction[side][move_dir(m)] * max_distance(t) + move_dist(m) - 1;
    return (channel * t->height + frame_row(t, side, sq_rank(rear))) * t->width + sq_file(rear);
}

void phalanx_actions_of(const Game *g, const Position *pos, const Move *moves, int n, int *out)
{
    const PhalanxTables *t = tables_of(g);
    int side = cpos_of(pos)->side, distances = max_distance(t), h = t->height, w = t->width;
    const uint8_t *direction = frame_direction[side];
    for (int i = 0; i < n; i++) {
        Move m = moves[i];
        int rear = move_rear(m), channel = direction[move_dir(m)] * distances + move_dist(m) - 1;
        out[i] = (channel * h + frame_row(t, side, sq_rank(rear))) * w + sq_file(rear);
    }
}

static void fill_plane(unsigned char *plane, int area, bool on)
{
    memset(plane, on, (size_t)area);
}

/* The 8 bytes, 0 or 1, of each 8 bits (bit 0 first): a row of a plane is one or two lookups
 * instead of a test per square (the planes are written at every step of a batched game). */
#define SPREAD(b) {(b) & 1, (b) >> 1 & 1, (b) >> 2 & 1, (b) >> 3 & 1, (b) >> 4 & 1, (b) >> 5 & 1, (b) >> 6 & 1, (b) >> 7 & 1}
#define SPREAD4(b) SPREAD(b), SPREAD((b) + 1), SPREAD((b) + 2), SPREAD((b) + 3)
#define SPREAD16(b) SPREAD4(b), SPREAD4((b) + 4), SPREAD4((b) + 8), SPREAD4((b) + 12)
#define SPREAD64(b) SPREAD16(b), SPREAD16((b) + 16), SPREAD16((b) + 32), SPREAD16((b) + 48)
static const unsigned char spread_bits[256][8] = {SPREAD64(0), SPREAD64(64), SPREAD64(128), SPREAD64(192)};

/* Bits 0 .. w-1 of `bits` as w bytes (w <= 16). */
static void spread_row(unsigned bits, int w, unsigned char *out)
{
    memcpy(out, spread_bits[bits & 0xFF], (size_t)(w < 8 ? w : 8));
    if (w > 8)
        memcpy(out + 8, spread_bits[bits >> 8 & 0xFF], (size_t)(w - 8));
}

void phalanx_planes(const Game *g, const Position *pos, unsigned char *out)
{
    const PhalanxTables *t = tables_of(g);
    const PhalanxPos *p = cpos_of(pos);
    int w = t->width, area = w * t->height, us = p->side, them = !us;
    for (int rank = 0; rank < t->height; rank++) {
        int row = frame_row(t, us, rank) * w, l = ROW0 + rank;
        unsigned own = p->lines[us][l], opp = p->lines[them][l], valid = t->valid[l];
        spread_row(own, w, out + PLANE_OWN * area + row);
        spread_row(opp, w, out + PLANE_OPPONENT * area + row);
        spread_row(~valid, w, out + PLANE_OBSTACLE * area + row);
        spread_row(own & t->towers[us][l], w, out + PLANE_OWN_FROZEN * area + row);
        spread_row(opp & t->towers[them][l], w, out + PLANE_OPPONENT_FROZEN * area + row);
    }
    fill_plane(out + PLANE_MUST_ANSWER * area, area, phalanx_must_answer_crossing(t, p));
    fill_plane(out + PLANE_SYMMETRY_RULE * area, area, phalanx_symmetry_rule_applies(t, p));
    fill_plane(out + PLANE_WHITE_TO_MOVE * area, area, us == WHITE);
    fill_plane(out + PLANE_ON_BOARD * area, area, true);
}

/* The rules know no left and right, so the file mirror is a symmetry wherever the obstacles
 * allow it; the top-bottom mirror is already the colour swap of the mover's frame. */
unsigned phalanx_symmetries(const Game *g)
{
    const PhalanxTables *t = tables_of(g);
    for (int rank = 0; rank < t->height; rank++)
        for (int f = 0; f < t->width; f++)
            if (phalanx_is_obstacle(t, make_sq(f, rank)) != phalanx_is_obstacle(t, make_sq(t->width - 1 - f, rank)))
                return 1u << SYM_IDENTITY;
    return 1u << SYM_IDENTITY | 1u << SYM_MIRROR_FILES;
}

int phalanx_transform_action(const Game *g, int s, int action)
{
    const PhalanxTables *t = tables_of(g);
    if (s != SYM_MIRROR_FILES)
        return action;
    int w = t->width, h = t->height, distances = max_distance(t);
    int file = action % w, row = action / w % h, channel = action / (w * h);
    int dir = channel / distances, distance = channel % distances;
    int mirrored = (8 - dir) & 7;  /* N and S stay; NE <-> NW, E <-> W, SE <-> SW */
    return ((mirrored * distances + distance) * h + row) * w + (w - 1 - file);
}
