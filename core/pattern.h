/*
 * pattern.h - pattern (n-tuple) evaluation: besides the linear features, a position's log-odds
 * gets one table entry per instance of each pattern shape, the instance's squares read as a
 * base-3 number (0 empty, 1 the side to move's stone, 2 the opponent's) that indexes the
 * shape's table; one set of tables per game phase.  This is the evaluation of the classical
 * Othello programs (Buro's Logistello, Edax) and of Buro's n-tuple networks.
 *
 * A PatternSet is what a game module defines (the shapes, where their instances lie, the phase
 * of a position); it belongs to the Game and is read-only.  Two index spaces:
 * - raw: shape offset + the base-3 number.  The engine's tables are raw, so the evaluation reads
 *   one entry per instance and nothing else.
 * - canonical: instances that a symmetry of the shape maps onto themselves read the same
 *   configuration under two numbers; canonical indices count it once.  Weights files and the
 *   tuner use canonical indices, so each configuration's weight learns from all its occurrences.
 */
#ifndef LEUCTRA_PATTERN_H
#define LEUCTRA_PATTERN_H

#include "game.h"

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum { PATTERN_MAX_SHAPES = 128, PATTERN_MAX_CELLS = 12, PATTERN_MAX_INSTANCES = 2048, PATTERN_MAX_PHASES = 64,
       PATTERN_MAX_SELF = 8 };

/* The families of shapes a set is made of, a bit mask.  PATTERN_BASE is the game's own set
 * (Reversi's Edax shapes; the phalanx games' 4-square segments along ranks, files and
 * diagonals), the one every game with tables has and the only one Reversi has; the phalanx
 * games add 2-D windows: two ranks of four files (2x4), two files of four ranks (4x2) and 3x3
 * squares.  0 means PATTERN_BASE (weights and files from before the families). */
enum { PATTERN_BASE = 1, PATTERN_2X4 = 2, PATTERN_4X2 = 4, PATTERN_3X3 = 8, PATTERN_ALL_FAMILIES = 15 };

typedef struct {
    char name[32];
    int cells;                  /* squares per instance: 3^cells raw entries */
    int instances;
    uint32_t raw_size;          /* 3^cells */
    uint32_t raw_offset;        /* of this shape's table within one phase, raw */
    uint32_t canonical_size;    /* distinct configurations up to the shape's own symmetries */
    uint32_t canonical_offset;  /* within one phase, canonical */
    uint32_t *canonical;        /* raw base-3 number -> canonical number (0 .. canonical_size) */
} PatternShape;

typedef struct PatternSet {
    int num_shapes;
    PatternShape shape[PATTERN_MAX_SHAPES];
    int num_instances;          /* over all shapes */
    int num_phases;
    uint32_t raw_phase_size, canonical_phase_size;
    uint64_t id;                /* hash of the shapes, their instances and the phases */
    unsigned families;          /* what the game module built it from (PATTERN_BASE ...) */
    /* The phase of a position (0 .. num_phases - 1). */
    int (*phase)(const Game *g, const Position *p);
    /* Raw index (shape offset included, phase not) of every instance, shape by shape.  The set
     * is passed in: it is the first member of the module's own pattern tables. */
    void (*raw_indices)(const struct PatternSet *set, const Game *g, const Position *p, uint32_t *out);
    /* Which shape each instance belongs to, in raw_indices' order. */
    uint8_t instance_shape[PATTERN_MAX_INSTANCES];
} PatternSet;

/* A shape for pattern_set_init: its instances, each as `cells` square numbers in reading order
 * (the first is the lowest base-3 digit), and the shape's own symmetries as permutations of its
 * cells (perm[k] = the cell that cell k's content moves to): the readings of a configuration
 * under them are one canonical configuration.  The identity need not be listed. */
typedef struct {
    const char *name;
    int cells, instances;
    const int *squares;         /* instances x cells */
    int num_self;
    int self[PATTERN_MAX_SELF][PATTERN_MAX_CELLS];
} PatternShapeSpec;

/* Builds a set; num_squares bounds the square numbers (they also go into the id).  False on
 * out-of-range input or no memory. */
bool pattern_set_init(PatternSet *set, const PatternShapeSpec *specs, int num_shapes, int num_phases,
                      int num_squares);
void pattern_set_free(PatternSet *set);

/* The game's pattern set of its base shapes, or NULL when it has none (core/game.h's
 * GameOps.patterns). */
const PatternSet *pattern_set_of(const Game *g);
/* The set of the given families (0: PATTERN_BASE), or NULL when the game has no such set. */
const PatternSet *pattern_set_with(const Game *g, unsigned families);

/* "base,2x4" (names: base or segments, 2x4, 4x2, 3x3, all) as a family mask; false with a line
 * naming the bad word. */
bool pattern_families_parse(const char *list, unsigned *out, Error *err);
/* The mask as such a list ("base,2x4"; 0 is "base"). */
void pattern_families_format(unsigned families, char *out, size_t len);

/* Raw table entries of every instance of p, phase offset included (phase x raw_phase_size). */
int pattern_raw_entries(const PatternSet *set, const Game *g, const Position *p, uint32_t *out);
/* The same entries as canonical indices (phase x canonical_phase_size + shape offset + number). */
int pattern_canonical_entries(const PatternSet *set, const Game *g, const Position *p, uint32_t *out);

/* Sum of the tables' entries for p: tables is num_phases x raw_phase_size floats. */
double pattern_sum(const PatternSet *set, const float *tables, const Game *g, const Position *p);

/* Raw tables from canonical weights (num_phases x canonical_phase_size), and back (each
 * canonical weight from the first raw entry that maps to it). */
void pattern_expand(const PatternSet *set, const float *canonical, float *raw);
void pattern_compress(const PatternSet *set, const float *raw, float *canonical);

#endif
