#!/bin/sh
# compare_builds.sh - is revision NEW stronger than revision OLD?  Builds both (a git worktree of
# each in a temporary folder, `make`) and runs an SPRT match between the two builds as external
# engines (`engine:cmd=DIR/build/leuctra,args=engine`, docs/PROTOCOL.md), so the search, the
# evaluation and the weights compiled into each build are what is compared.
#
# usage: scripts/compare_builds.sh OLD NEW [MATCH OPTION...]
#   OLD, NEW: anything `git rev-parse` takes (a commit, a branch, HEAD~3, a tag).
#   Extra words go to `leuctra match` as they are (e.g. --games 4000 --json).
#
# Settings by environment variable:
#   LEUCTRA=build/leuctra    the match tool (needs the engine: player spec)
#   VARIANT=crossings        VISITS=400 (each engine's visits a move)   GAMES=20000 (at most)
#   TC=                      a game clock instead of visits (e.g. TC=10+0.1: tc= of both engines)
#   SPRT="elo0=0 elo1=10 alpha=0.05 beta=0.05"  CONCURRENCY=$(nproc)   SEED=1
#   OUT=compare-out          where match.lrec (records) and match.txt (results) go
#   KEEP=1                   keep the worktrees (printed) instead of removing them
#
# The defaults decide: two builds that play alike are told apart from a 10 (normalized) Elo gain
# in about 6,600 games (median; 90% within 15,000), simulated with the SPRT of eval/sprt.h (its
# reference, tests/reference/ref_sprt.py) and checked with two real builds (docs/BENCHMARKS.md, Clocks and
# match files).  The old defaults, elo1=5 and 2,000 games, could not: at elo1=5 an equal pair of
# builds needs some 20,000 games, and 2,000 ended at LLR -0.84 of -2.94.  A normalized-Elo SPRT
# needs about (elo1 - elo0)^-2 times as many games, so halving elo1 quadruples them.
#
# The worktrees are made with `git worktree add --detach` and removed at the end (`git worktree
# remove --force`), so the repository's own checkout is never touched.
set -eu
cd "$(git rev-parse --show-toplevel)"
if [ $# -lt 2 ]; then
    sed -n '2,28p' "$0" | sed 's/^# \{0,1\}//' >&2
    exit 2
fi
old=$1
new=$2
shift 2
bin=${LEUCTRA:-build/leuctra}
variant=${VARIANT:-crossings}
visits=${VISITS:-400}
games=${GAMES:-20000}
sprt=${SPRT:-elo0=0 elo1=10 alpha=0.05 beta=0.05}
limit="visits=$visits"
[ -n "${TC:-}" ] && limit="tc=$TC"
concurrency=${CONCURRENCY:-$(nproc)}
seed=${SEED:-1}
out=${OUT:-compare-out}

old_rev=$(git rev-parse --verify "$old^{commit}")
new_rev=$(git rev-parse --verify "$new^{commit}")
tmp=$(mktemp -d "${TMPDIR:-/tmp}/compare_builds.XXXXXX")
cleanup() {
    if [ -z "${KEEP:-}" ]; then
        git worktree remove --force "$tmp/old" 2>/dev/null || true
        git worktree remove --force "$tmp/new" 2>/dev/null || true
        rm -rf "$tmp"
    else
        echo "worktrees kept in $tmp" >&2
    fi
}
trap cleanup EXIT INT TERM

for side in old new; do
    if [ "$side" = old ]; then rev=$old_rev; else rev=$new_rev; fi
    echo "== building $side ($rev)"
    git worktree add --detach "$tmp/$side" "$rev" > /dev/null 2>&1
    make -C "$tmp/$side" -j"$concurrency" build/leuctra > "$tmp/$side.build.log" 2>&1 || {
        echo "compare_builds: building $side failed; the log:" >&2
        tail -20 "$tmp/$side.build.log" >&2
        exit 1
    }
done

mkdir -p "$out"
rm -f "$out/match.lrec" "$out/match.txt"
short_old=$(git rev-parse --short "$old_rev")
short_new=$(git rev-parse --short "$new_rev")
echo "== SPRT match: $short_new (new) vs $short_old (old), $sprt, at most $games games"
# Each engine plays one search thread per game; CONCURRENCY games run at once.
# shellcheck disable=SC2086 # the SPRT settings are separate words on purpose
"$bin" match "engine:cmd=$tmp/new/build/leuctra,args=engine,$limit" \
    "engine:cmd=$tmp/old/build/leuctra,args=engine,$limit" \
    --name1 "$short_new" --name2 "$short_old" --variant "$variant" --games "$games" \
    --concurrency "$concurrency" --seed "$seed" --openings "data/openings/$variant.txt" \
    --sprt $sprt --out "$out/match.lrec" --results "$out/match.txt" "$@"
