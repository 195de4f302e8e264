/*
 * phalanx_reference.c - the plain reference generator (see phalanx_reference.h).  Loops over
 * stone, direction, group size and distance exactly as RULES.md section 2 states the rule, with
 * the changes of section 3 (Crossings) and of docs/RULES.md's Igfip section.
 */
#include "phalanx_reference.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const int DF[8] = {1, -1, 0, 0, 1, -1, -1, 1};
static const int DR[8] = {0, 0, 1, -1, 1, -1, 1, -1};

void ref_load(const Game *g, const Position *pos, RefBoard *b)
{
    memset(b, 0, sizeof *b);
    b->width = g->width;
    b->height = g->height;
    b->crossings = g->variant == VARIANT_CROSSINGS;
    b->igfip = g->variant == VARIANT_IGFIP;
    b->side = game_side_to_move(g, pos);
    for (int r = 0; r < g->height; r++)
        for (int f = 0; f < g->width; f++) {
            char c = game_square(g, pos, f, r);
            b->cell[r][f] = c == 'T' ? 'W' : c == 't' ? 'B' : c;
        }
}

static bool inside(const RefBoard *b, int f, int r) { return f >= 0 && f < b->width && r >= 0 && r < b->height; }
static char colour_char(int side) { return side == WHITE ? 'W' : 'B'; }
static int far_rank(const RefBoard *b, int side) { return side == WHITE ? b->height - 1 : 0; }

/* A stone on the opponent's home rank: a Crossings tower or an Igfip crossing. */
static bool is_across(const RefBoard *b, int f, int r)
{
    char c = b->cell[r][f];
    return (c == 'W' && r == far_rank(b, WHITE)) || (c == 'B' && r == far_rank(b, BLACK));
}

/* Such a stone never moves again (Crossings, Igfip) ... */
static bool is_frozen_at(const RefBoard *b, int f, int r) { return (b->crossings || b->igfip) && is_across(b, f, r); }

/* ... and in Crossings can't be captured either. */
static bool is_tower_at(const RefBoard *b, int f, int r) { return b->crossings && is_across(b, f, r); }

static int count_on_rank(const RefBoard *b, char c, int r)
{
    int n = 0;
    for (int f = 0; f < b->width; f++)
        n += b->cell[r][f] == c;
    return n;
}

typedef struct {
    int f, r, d, k, j;      /* front square, direction, group size, distance */
} RefMove;

/* Plays the move on a copy; returns whether it captured. */
static bool ref_apply(const RefBoard *b, RefMove m, RefBoard *out)
{
    *out = *b;
    char own = colour_char(b->side), enemy = colour_char(!b->side);
    int lf = m.f + m.j * DF[m.d], lr = m.r + m.j * DR[m.d];
    bool capture = out->cell[lr][lf] == enemy;
    for (int f = lf, r = lr; inside(out, f, r) && out->cell[r][f] == enemy; f += DF[m.d], r += DR[m.d]) {
        out->cell[r][f] = '.';
        if (b->crossings)
            break;
    }
    for (int i = 0; i < m.k; i++)
        out->cell[m.r - i * DR[m.d]][m.f - i * DF[m.d]] = '.';
    for (int i = 0; i < m.k; i++)
        out->cell[m.r - i * DR[m.d] + m.j * DR[m.d]][m.f - i * DF[m.d] + m.j * DF[m.d]] = own;
    out->side = !b->side;
    return capture;
}

static bool mirror_symmetric(const RefBoard *b)
{
    for (int r = 0; r < b->height; r++)
        for (int f = 0; f < b->width; f++) {
            char c = b->cell[r][f], m = b->cell[b->height - 1 - r][f];
            char swapped = m == 'W' ? 'B' : m == 'B' ? 'W' : m;
            if (c != swapped)
                return false;
        }
    return true;
}

static bool wins_at_start(const RefBoard *b)
{
    if (b->crossings || b->igfip)
        return false;
    return count_on_rank(b, colour_char(b->side), far_rank(b, b->side)) >
           count_on_rank(b, colour_char(!b->side), far_rank(b, !b->side));
}

static bool allowed_by_rules(const RefBoard *b, RefMove m)
{
    RefBoard after;
    ref_apply(b, m, &after);
    char own = colour_char(b->side), enemy = colour_char(!b->side);
    int far = far_rank(b, b->side);
    bool more_on_far = count_on_rank(&after, own, far) > count_on_rank(b, own, far);
    if (b->crossings || b->igfip) {
        bool behind = count_on_rank(b, own, far) < count_on_rank(b, enemy, far_rank(b, !b->side));
        return !behind || more_on_far;
    }
    return !(more_on_far && mirror_symmetric(&after));
}

/* Every (front, direction, k, j) the movement and capture rules allow. */
static int raw_moves(const RefBoard *b, RefMove *out)
{
    int n = 0;
    char own = colour_char(b->side), enemy = colour_char(!b->side);
    for (int r = 0; r < b->height; r++)
        for (int f = 0; f < b->width; f++) {
            if (b->cell[r][f] != own || is_frozen_at(b, f, r))
                continue;
            for (int d = 0; d < 8; d++) {
                int af = f + DF[d], ar = r + DR[d];
                if (inside(b, af, ar) && b->cell[ar][af] == own)
                    continue;   /* not a front along d */
                int L = 0;
                for (int bf = f, br = r; inside(b, bf, br) && b->cell[br][bf] == own && !is_frozen_at(b, bf, br);
                     bf -= DF[d], br -= DR[d])
                    L++;
                for (int k = 1; k <= L; k++)
                    for (int j = 1; j <= k; j++) {
                        bool clear = true;
                        for (int i = 1; i < j; i++) {
                            int pf = f + i * DF[d], pr = r + i * DR[d];
                            clear = clear && inside(b, pf, pr) && b->cell[pr][pf] == '.';
                        }
                        int lf = f + j * DF[d], lr = r + j * DR[d];
                        if (!clear || !inside(b, lf, lr))
                            continue;
                        char c = b->cell[lr][lf];
                        bool ok = c == '.';
                        if (c == enemy && !is_tower_at(b, lf, lr)) {
                            int m = 0;
                            for (int ef = lf, er = lr; inside(b, ef, er) && b->cell[er][ef] == enemy;
                                 ef += DF[d], er += DR[d])
                                m++;
                            ok = m < k;
                        }
                        if (ok)
                            out[n++] = (RefMove){f, r, d, k, j};
                    }
            }
        }
    return n;
}

static bool behind_across(const RefBoard *b);

/* A permanent wall of the walled draw: an obstacle, or a crossing (docs/RULES.md). */
static bool is_wall(const RefBoard *b, int f, int r) { return b->cell[r][f] == 'x' || is_across(b, f, r); }

/* Marks every square reachable from (f, r) by king steps over squares that are not walls. */
static void flood(const RefBoard *b, int f, int r, bool seen[16][16])
{
    if (!inside(b, f, r) || seen[r][f] || is_wall(b, f, r))
        return;
    seen[r][f] = true;
    for (int d = 0; d < 8; d++)
        flood(b, f + DF[d], r + DR[d], seen);
}

/* Whether some square of `seen`, or a square next to one, holds a crossing of colour c. */
static bool touches_crossing(const RefBoard *b, bool seen[16][16], char c)
{
    for (int r = 0; r < b->height; r++)
        for (int f = 0; f < b->width; f++)
            for (int d = 0; d < 8 && seen[r][f]; d++) {
                int ff = f + DF[d], rr = r + DR[d];
                if (inside(b, ff, rr) && b->cell[rr][ff] == c && is_across(b, ff, rr))
                    return true;
            }
    return false;
}

/* Igfip's walled board (docs/RULES.md), every crossing a wall: in each free stone's region, no
 * square of that stone's far rank; a colour with two free stones or more there meets no enemy
 * stone there and touches no enemy crossing. */
static bool walled(const RefBoard *b)
{
    for (int r = 0; r < b->height; r++)
        for (int f = 0; f < b->width; f++) {
            char c = b->cell[r][f];
            if ((c != 'W' && c != 'B') || is_across(b, f, r))
                continue;
            bool seen[16][16] = {{false}};
            flood(b, f, r, seen);
            int count[2] = {0, 0};
            for (int rr = 0; rr < b->height; rr++)
                for (int ff = 0; ff < b->width; ff++) {
                    for (int side = 0; side < 2 && seen[rr][ff]; side++)
                        count[side] += b->cell[rr][ff] == colour_char(side);   /* free: crossings are walls */
                }
            for (int side = 0; side < 2; side++) {
                bool reaches_far = false;
                for (int ff = 0; ff < b->width; ff++)
                    reaches_far |= seen[far_rank(b, side)][ff];
                if (count[side] > 0 && reaches_far)
                    return false;
                if (count[side] >= 2 && (count[!side] > 0 || touches_crossing(b, seen, colour_char(!side))))
                    return false;
            }
        }
    return true;
}

/* ... at level counts (behind, a side cannot answer; ahead, the other side cannot). */
static bool drawn_walled(const RefBoard *b)
{
    return b->igfip && count_on_rank(b, 'W', far_rank(b, WHITE)) == count_on_rank(b, 'B', far_rank(b, BLACK)) &&
           walled(b);
}

/* The legal moves into out (MAX_MOVES of them); adds the forbidden ones to *forbidden. */
static int legal_moves(const RefBoard *b, RefMove *out, int *forbidden)
{
    if (wins_at_start(b) || drawn_walled(b))
        return 0;
    int n = raw_moves(b, out), kept = 0;
    for (int i = 0; i < n; i++) {
        if (allowed_by_rules(b, out[i]))
            out[kept++] = out[i];
        else if (forbidden)
            ++*forbidden;
    }
    return kept;
}

int ref_moves(const RefBoard *b, char (*out)[12], int max, int *forbidden)
{
    RefMove *legal = malloc(MAX_MOVES * sizeof *legal);
    if (!legal)
        return -1;
    int n = legal_moves(b, legal, forbidden), kept = 0;
    for (int i = 0; i < n && kept < max; i++) {
        RefMove m = legal[i];
        int rf = m.f - (m.k - 1) * DF[m.d], rr = m.r - (m.k - 1) * DR[m.d];
        RefBoard after;
        bool capture = ref_apply(b, m, &after);
        snprintf(out[kept++], 12, "%c%d%c%c%d", (char)('a' + rf), (rr & 15) + 1, capture ? 'x' : '-',
                 (char)('a' + rf + m.j * DF[m.d]), ((rr + m.j * DR[m.d]) & 15) + 1);
    }
    free(legal);
    return kept;
}

/* Igfip's draw: every stone on the board stands on its far rank. */
static bool all_across(const RefBoard *b)
{
    for (int r = 0; r < b->height; r++)
        for (int f = 0; f < b->width; f++)
            if ((b->cell[r][f] == 'W' || b->cell[r][f] == 'B') && !is_across(b, f, r))
                return false;
    return true;
}

static bool behind_across(const RefBoard *b)
{
    return count_on_rank(b, colour_char(b->side), far_rank(b, b->side)) <
           count_on_rank(b, colour_char(!b->side), far_rank(b, !b->side));
}

uint64_t ref_perft(const RefBoard *b, int depth)
{
    if (depth == 0)
        return 1;
    RefMove *legal = malloc(MAX_MOVES * sizeof *legal);
    if (!legal)
        return 0;
    int n = legal_moves(b, legal, NULL);
    uint64_t total = 0;
    for (int i = 0; i < n; i++) {
        RefBoard after;
        ref_apply(b, legal[i], &after);
        total += depth == 1 ? 1 : ref_perft(&after, depth - 1);
    }
    free(legal);
    return total;
}

GameStatus ref_status(const RefBoard *b)
{
    GameStatus mover = b->side == WHITE ? STATUS_WHITE_WINS : STATUS_BLACK_WINS;
    GameStatus other = b->side == WHITE ? STATUS_BLACK_WINS : STATUS_WHITE_WINS;
    if (wins_at_start(b))
        return mover;
    if (drawn_walled(b))
        return STATUS_DRAW;
    char none[1][12];
    if (ref_moves(b, none, 1, NULL) > 0)
        return STATUS_ONGOING;
    RefBoard them = *b;
    them.side = !b->side;
    bool neither = all_across(b) || ref_moves(&them, none, 1, NULL) == 0;
    return b->igfip && !behind_across(b) && neither ? STATUS_DRAW : other;
}
