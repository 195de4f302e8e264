#!/bin/sh
# demo.sh - the main job on a small default, in a minute or two on two cores: the training loop
# from nothing (scripts/training_loop.sh, small settings).  An engine with every evaluation
# weight 0 plays Crossings against itself, the tuner fits weights to its games, an SPRT match
# gates each candidate against the best so far, and a ratings table of all generations ends it.
# Everything it writes goes to demo-out/ (removed first).
set -eu
bin=${1:-build/leuctra}
out=demo-out
threads=$(nproc)

echo "== rules: perft of the Epaminondas start (RULES.md section 6: 245799684)"
"$bin" perft 4 --threads "$threads" --time
echo
echo "== the training loop on Crossings from an untrained engine (every weight 0):"
echo "   3 generations of self-play (2000 games, 200 visits) -> tune -> SPRT gate (<= 400 games)"
LEUCTRA="$bin" VARIANT=crossings GENERATIONS=3 SELFPLAY_GAMES=2000 SELFPLAY_VISITS=200 \
    MATCH_GAMES=400 MATCH_VISITS=200 THREADS="$threads" SEED=7 scripts/training_loop.sh "$out"
echo
echo "Files in $out/: genK/ holds each generation's self-play records (selfplay.lrec), candidate"
echo "weights (weights.txt, which say how they were made), tune.json, match records and verdict;"
echo "training.svg and ratings.svg draw the run (open them in a browser); best names the best"
echo "generation.  Play it:"
echo "  $bin play --variant crossings --engine mcts:visits=5000,weights=$out/gen$(cat "$out/best")/weights.txt"
