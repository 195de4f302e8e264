#!/bin/sh
# demo.sh - the main job on a small default, in under a minute on two cores: the training loop
# from nothing.  An engine with every evaluation weight 0 plays Crossings against itself, the
# tuner fits weights to its games, and a match shows what that was worth.  Everything it writes
# goes to demo-out/ (removed first).
set -eu
bin=${1:-build/leuctra}
out=demo-out
threads=$(nproc)
rm -rf "$out"
mkdir -p "$out"

echo "== 1. rules: perft of the Epaminondas start (RULES.md section 6: 245799684)"
"$bin" perft 4 --threads "$threads" --time
echo
echo "== 2. an untrained engine: the shipped Crossings weights with every value set to 0"
awk '/^#/ { next } $1 == "game" { print; next } { print $1, 0 }' data/weights/crossings.txt > "$out/zero.txt"
cat "$out/zero.txt" | tr '\n' ' ' | cut -c1-100; echo "..."
echo
echo "== 3. self-play: 3000 games at 200 visits a move, $threads at a time"
"$bin" selfplay --variant crossings --weights "$out/zero.txt" --games 3000 --visits 200 --seed 7 \
    --threads "$threads" --out "$out/selfplay.lrec"
"$bin" records info "$out/selfplay.lrec" | sed -n '4,8p'
echo
echo "== 4. tune: fit the weights to those games"
"$bin" tune --data "$out/selfplay.lrec" --init "$out/zero.txt" --out "$out/tuned.txt"
echo
echo "== 5. match: tuned against untrained, 200 games at 200 visits, colours alternating"
"$bin" match "mcts:visits=200,weights=$out/tuned.txt" "mcts:visits=200,weights=$out/zero.txt" \
    --variant crossings --games 200 --concurrency "$threads"
echo
echo "Files in $out/: selfplay.lrec (records: $bin records dump $out/selfplay.lrec | head), zero.txt and"
echo "tuned.txt (weights; tuned.txt says how it was made).  Next: $bin play --variant crossings"
