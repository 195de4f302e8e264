#!/bin/sh
# training_loop.sh - generations of the training loop with a strength gate: each generation the
# current best weights play themselves (leuctra selfplay), the tuner fits new weights to those
# games (leuctra tune), and the candidate meets the best in an SPRT match (leuctra match --sprt);
# it is promoted only when the test accepts H1.  At the end `leuctra ratings` rates every
# generation from all the match results, and two charts show the run (docs/PICTURES.md).
# docs/MATCHES.md explains the pieces.
#
# usage: scripts/training_loop.sh [OUT_DIR]          (default training-out, removed first)
#
# Settings by environment variable (defaults: a couple of minutes on two cores):
#   LEUCTRA=build/leuctra   VARIANT=crossings   GENERATIONS=2
#   SELFPLAY_GAMES=300      SELFPLAY_VISITS=100 MATCH_GAMES=200   MATCH_VISITS=100
#   SPRT="elo0=0 elo1=20 alpha=0.05 beta=0.05"  THREADS=$(nproc)   SEED=1
#   START_WEIGHTS=FILE      (default: the shipped weights of VARIANT with every value 0)
#   WINDOW=3                the tuner fits the self-play games of the last WINDOW generations
#                           (a replay window, as KataGo and Leela train on recent games)
#   TABLES=1                also fit the pattern tables (tune --tables); TUNE_OPTIONS adds more
#   PRIORS=1                also fit learned move priors (tune --priors) to the visit lists
#
# OUT_DIR/gen0/weights.txt is the start; OUT_DIR/genK/ holds generation K's selfplay.lrec,
# weights.txt (the candidate; weights.lwt, a table file, with TABLES or PRIORS), tune.json (the
# tuner's report) and tune.log, match.lrec,
# match.txt (results), match.json, match.log and verdict (promoted | rejected | undecided);
# OUT_DIR/best names the best generation so far.  At the end: OUT_DIR/ratings.txt (the ratings
# table), ratings.svg (its chart) and training.svg (log-losses and Elo per generation).
set -eu
out=${1:-training-out}
bin=${LEUCTRA:-build/leuctra}
variant=${VARIANT:-crossings}
generations=${GENERATIONS:-2}
sp_games=${SELFPLAY_GAMES:-300}
sp_visits=${SELFPLAY_VISITS:-100}
m_games=${MATCH_GAMES:-200}
m_visits=${MATCH_VISITS:-100}
sprt=${SPRT:-elo0=0 elo1=20 alpha=0.05 beta=0.05}
threads=${THREADS:-$(nproc)}
seed=${SEED:-1}
window=${WINDOW:-3}
tune_options=${TUNE_OPTIONS:-}
[ "${TABLES:-0}" = 1 ] && tune_options="$tune_options --tables"
[ "${PRIORS:-0}" = 1 ] && tune_options="$tune_options --priors"
name=weights.txt
[ -n "$tune_options" ] && [ "${TABLES:-0}${PRIORS:-0}" != 00 ] && name=weights.lwt
weights_of() { # the weights file of generation $1
    if [ "$1" = 0 ]; then echo "$out/gen0/weights.txt"; else echo "$out/gen$1/$name"; fi
}

rm -rf "$out"
mkdir -p "$out/gen0"
if [ -n "${START_WEIGHTS:-}" ]; then
    cp "$START_WEIGHTS" "$out/gen0/weights.txt"
else
    # An untrained engine: the shipped weights' features, every value 0 (as scripts/demo.sh).
    awk '/^#/ { next } $1 == "game" { print; next } { print $1, 0 }' "data/weights/$variant.txt" \
        > "$out/gen0/weights.txt"
fi
best=0
echo "$best" > "$out/best"

gen=1
while [ "$gen" -le "$generations" ]; do
    dir="$out/gen$gen"
    bestw=$(weights_of "$best")
    mkdir -p "$dir"
    echo "== generation $gen: self-play of gen$best ($sp_games games, $sp_visits visits)"
    "$bin" selfplay --variant "$variant" --weights "$bestw" --games "$sp_games" --visits "$sp_visits" \
        --seed $((seed + gen)) --threads "$threads" --out "$dir/selfplay.lrec" > "$dir/selfplay.log" 2>&1
    data=""
    k=$((gen - window + 1))
    [ "$k" -ge 1 ] || k=1
    while [ "$k" -le "$gen" ]; do
        data="$data $out/gen$k/selfplay.lrec"
        k=$((k + 1))
    done
    echo "   tune on the self-play of generations $(( gen - window + 1 > 1 ? gen - window + 1 : 1 ))-$gen"
    # shellcheck disable=SC2086 # one word per data file and option
    "$bin" tune --data $data --init "$bestw" --out "$dir/$name" $tune_options --json \
        > "$dir/tune.json" 2> "$dir/tune.log"
    echo "   SPRT match gen$gen vs gen$best ($sprt, at most $m_games games)"
    # shellcheck disable=SC2086 # the SPRT settings are separate words on purpose
    "$bin" match "mcts:visits=$m_visits,weights=$dir/$name" "mcts:visits=$m_visits,weights=$bestw" \
        --name1 "gen$gen" --name2 "gen$best" --variant "$variant" --games "$m_games" \
        --concurrency "$threads" --seed $((seed + gen)) --openings "data/openings/$variant.txt" \
        --sprt $sprt --out "$dir/match.lrec" --results "$dir/match.txt" --json > "$dir/match.json" 2> "$dir/match.log"
    decision=$(sed -n 's/.*"decision":"\([A-Za-z0-9]*\)".*/\1/p' "$dir/match.json")
    case "$decision" in
        H1) verdict=promoted; best=$gen; echo "$best" > "$out/best" ;;
        H0) verdict=rejected ;;
        *) verdict=undecided ;;
    esac
    echo "$verdict" > "$dir/verdict"
    echo "   $verdict: $(sed -n 's/.*"wins":\([0-9]*\),"draws":\([0-9]*\),"losses":\([0-9]*\).*"llr":\([-0-9.]*\).*/+\1 =\2 -\3, LLR \4/p' "$dir/match.json")"
    gen=$((gen + 1))
done

echo "== ratings of all generations (best: gen$best)"
# Two virtual draws a pair (docs/RATINGS.md) keep the table finite when gen0 loses every game.
"$bin" ratings "$out"/gen*/match.txt --anchor gen0 --prior 2 --svg "$out/ratings.svg" | tee "$out/ratings.txt"
"$bin" chart training "$out" --prior 2 -o "$out/training.svg"
echo "== charts: $out/training.svg (losses and Elo per generation), $out/ratings.svg"
