#!/bin/sh
# training_loop.sh - the training loop's settings by environment variable, run by `leuctra train`
# (docs/TRAINING.md), which does the work: generations of self-play of the best weights, a fit
# to the recent games, an SPRT gate, promotion, charts.  Kept for the scripts and docs that set
# these variables; new runs are better started with `leuctra train` itself, which resumes after
# any stop (`--resume`) and also measures every generation against fixed anchors.
#
# usage: scripts/training_loop.sh [OUT_DIR]          (default training-out, removed first)
#
# Settings by environment variable (defaults: a couple of minutes on two cores):
#   LEUCTRA=build/leuctra   VARIANT=crossings   GENERATIONS=2
#   SELFPLAY_GAMES=300      SELFPLAY_VISITS=100 MATCH_GAMES=200   MATCH_VISITS=100
#   SPRT="elo0=0 elo1=20 alpha=0.05 beta=0.05"  THREADS=$(nproc)   SEED=1
#   START_WEIGHTS=FILE      (default: zero, every weight of the variant 0)
#   WINDOW=3                the fit reads the self-play games of the last WINDOW generations
#   TABLES=1 or PRIORS=1    fit the whole model: tables and learned priors too (else the linear
#                           weights alone)
#   LADDER_GAMES=0          games of each promoted generation against gen0 and the shipped weights
#
# The layout of OUT_DIR is leuctra train's (docs/TRAINING.md): genK/ holds generation K's
# selfplay.lrec, weights (weights.txt or weights.lwt), tune.json, match.lrec, match.txt,
# match.json and verdict; training.svg and ratings.svg chart the run.
set -eu
out=${1:-training-out}
bin=${LEUCTRA:-build/leuctra}
variant=${VARIANT:-crossings}
fit="--linear-only"
[ "${TABLES:-0}${PRIORS:-0}" != 00 ] && fit=""
openings=""
[ -f "data/openings/$variant.txt" ] && openings="--openings data/openings/$variant.txt"
rm -rf "$out"
# shellcheck disable=SC2086 # the SPRT settings and the optional options are separate words
"$bin" train "$out" --variant "$variant" --generations "${GENERATIONS:-2}" --start "${START_WEIGHTS:-zero}" \
    --games "${SELFPLAY_GAMES:-300}" --visits "${SELFPLAY_VISITS:-100}" --window "${WINDOW:-3}" \
    --gate-games "${MATCH_GAMES:-200}" --gate-visits "${MATCH_VISITS:-100}" \
    --sprt ${SPRT:-elo0=0 elo1=20 alpha=0.05 beta=0.05} --ladder-games "${LADDER_GAMES:-0}" \
    --ladder-visits "${MATCH_VISITS:-100}" --threads "${THREADS:-$(nproc)}" --seed "${SEED:-1}" \
    $fit $openings
