#!/bin/sh
# demo.sh - a first look at leuctra in a minute: the rules engine's perft and speed, and a game
# of random moves played through the command line, move by move.
set -eu
bin=${1:-build/leuctra}
echo "== perft of the Epaminondas start (RULES.md section 6: 245799684)"
"$bin" perft 4 --threads "$(nproc)" --time
echo
echo "== a random game of Crossings on 8x8, played with 'leuctra moves' and 'leuctra apply'"
pos=$("$bin" apply --variant crossings)
ply=0
seed=${DEMO_SEED:-7}
while [ "$("$bin" status --variant crossings --position "$pos")" = ongoing ] && [ $ply -lt 300 ]; do
    move=$("$bin" moves --variant crossings --position "$pos" |
           awk -v s="$seed" -v p="$ply" 'BEGIN { srand(s * 1000 + p) } { m[NR] = $0 } END { print m[int(rand() * NR) + 1] }')
    pos=$("$bin" apply --variant crossings --position "$pos" "$move")
    ply=$((ply + 1))
done
"$bin" show --variant crossings --position "$pos"
echo "($ply plies)"
