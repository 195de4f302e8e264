#!/bin/sh
# demo.sh - the main job on a small default, in a few minutes: self-play games of Crossings on
# 8x8 written as records, a weight fit to them, and a match of the tuned weights against the
# shipped ones.  Everything it writes goes to demo-out/ (removed first).
set -eu
bin=${1:-build/leuctra}
out=demo-out
threads=$(nproc)
rm -rf "$out"
mkdir -p "$out"

echo "== 1. rules: perft of the Epaminondas start (RULES.md section 6: 245799684)"
"$bin" perft 4 --threads "$threads" --time
echo
echo "== 2. self-play: 400 games of Crossings at 200 visits a move, $threads at a time"
"$bin" selfplay --variant crossings --games 400 --visits 200 --seed 7 --threads "$threads" --out "$out/selfplay.lrec"
"$bin" records info "$out/selfplay.lrec" | sed -n '4,8p'
echo
echo "== 3. tune: fit the evaluation weights to those games"
"$bin" tune --data "$out/selfplay.lrec" --out "$out/tuned.txt"
echo
echo "== 4. match: tuned against shipped weights, 100 games at 200 visits, colours alternating"
"$bin" match "mcts:visits=200,weights=$out/tuned.txt" mcts:visits=200 --variant crossings --games 100 \
    --concurrency "$threads"
echo
echo "Files in $out/: selfplay.lrec (records: leuctra records dump $out/selfplay.lrec | head),"
echo "tuned.txt (weights, with their provenance).  Next: leuctra play --variant crossings"
