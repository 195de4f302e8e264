#!/bin/sh
# demo.sh - the main job on a small default, in a few minutes on two cores: `leuctra train` from
# nothing on Crossings.  An engine with every evaluation weight 0 plays itself, the tuner fits the
# whole model (linear weights, pattern tables, learned move priors) to its games, an SPRT match
# gates each candidate against the best so far, and every promoted generation is measured against
# the fixed anchors (gen0 and the shipped weights).  Everything goes to demo-out/ (removed first).
set -eu
bin=${1:-build/leuctra}
out=demo-out
threads=$(nproc)

echo "== rules: perft of the Epaminondas start (RULES.md section 6: 245799684)"
"$bin" perft 4 --threads "$threads" --time
echo
echo "== leuctra train on Crossings from an untrained engine (every weight 0):"
echo "   3 generations of self-play (1000 games, 200 visits) -> fit -> SPRT gate (<= 400 games)"
echo "   -> ladder (100 games against gen0 and against the shipped weights)"
rm -rf "$out"
"$bin" train "$out" --variant crossings --start zero --generations 3 --games 1000 --visits 200 \
    --gate-games 400 --gate-visits 200 --ladder-games 100 --ladder-visits 200 \
    --openings data/openings/crossings.txt --threads "$threads" --seed 7
echo
echo "Files in $out/ (docs/TRAINING.md): genK/ holds each generation's self-play records"
echo "(selfplay.lrec), its fitted weights (weights.lwt, which say how they were made), tune.json,"
echo "the gate's games and verdict; ladder.txt lists each promoted generation against the anchors;"
echo "training.svg and ratings.svg draw the run (open them in a browser).  Play the best:"
best=0
for v in "$out"/gen*/verdict; do
    [ "$(cat "$v")" = promoted ] && best=$(basename "$(dirname "$v")" | tr -d gen)
done
echo "  $bin play --variant crossings --engine mcts:visits=5000,weights=$out/gen$best/weights.lwt"
