#!/bin/sh
# bench-train-mpi.sh - the scaling figures of docs/CLUSTER.md and docs/BENCHMARKS.md (issue 48):
# one generation of `leuctra train` (Crossings 8x8 from the shipped weights, a gate whose SPRT
# cannot decide before its cap, so that it plays every game) as 1 process x 1 thread and as R
# processes x 1 thread under mpirun; each step's wall seconds from train.log, the whole run's,
# the ratio, the parallel fraction p each ratio implies (Amdahl: T_R = T_1 (1 - p + p/R)) and
# what p predicts for 8 and 64 machines; then the two folders compared (every file but the
# timings).
#
#   scripts/bench-train-mpi.sh build-mpi/leuctra [RANKS] [GAMES] [GATE_GAMES]
set -eu
mpi=$(realpath "$1") ranks=${2:-2} games=${3:-2000} gate=${4:-400}
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then MPIRUN="mpirun --allow-run-as-root --oversubscribe"; else MPIRUN=mpirun; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RUN="--variant crossings --start shipped --generations 1 --games $games --visits 200 --gate-games $gate --gate-visits 400"
RUN="$RUN --sprt elo0=0 elo1=10 alpha=0.0001 beta=0.0001 --ladder-games 40 --ladder-visits 200 --make-openings 100"
RUN="$RUN --seed 9 --threads 1 --quiet"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d), load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "run:     mpirun -np R $mpi train run $RUN"
for np in 1 "$ranks"; do
    mkdir "$tmp/np$np"
    t0=$(date +%s.%N)
    (cd "$tmp/np$np" && $MPIRUN -np "$np" "$mpi" train run $RUN)
    t1=$(date +%s.%N)
    echo "$t0 $t1" | awk '{ printf "total %.1f\n", $2 - $1 }' >"$tmp/times$np"
    # each step's "in XmYYs" from the log, summed by step
    awk '
        function secs(s) { sub(/s.*/, "", s); split(s, a, "m"); return a[1] * 60 + a[2] }
        / in [0-9]+m[0-9]+s/ {
            step = "other"
            if (/self-play done/) step = "self-play"
            else if (/fit done/) step = "fit"
            else if (/ladder: /) step = "ladder"
            else if (/against gen0, LLR/) step = "gate"
            match($0, / in [0-9]+m[0-9]+s/)
            t[step] += secs(substr($0, RSTART + 4, RLENGTH - 4))
        }
        END { for (s in t) printf "%s %d\n", s, t[s] }' "$tmp/np$np/run/train.log" >>"$tmp/times$np"
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
awk -v r="$ranks" '
    FNR == NR { one[$1] = $2; next }
    { many[$1] = $2 }
    END {
        printf "%-10s %10s %10s %7s %7s %9s %9s\n", "step", "1 rank s", r " ranks s", "ratio", "p", "8 pred.", "64 pred."
        n = split("self-play fit gate ladder total", order, " ")
        for (i = 1; i <= n; i++) {
            s = order[i]
            if (!(s in one) || one[s] <= 0) continue
            ratio = many[s] / one[s]
            p = (1 - ratio) / (1 - 1 / r)
            printf "%-10s %10.1f %10.1f %7.3f %7.2f %8.3fx %8.3fx\n", s, one[s], many[s], ratio, p,
                   1 - p + p / 8, 1 - p + p / 64
        }
    }' "$tmp/times1" "$tmp/times$ranks"
# the two folders: every file but the timings (train.log, elapsed, the fits' reports)
diffs=0
for f in $(cd "$tmp/np1/run" && find . -type f | sort); do
    case $f in */train.log|*/elapsed|*/tune.json|*/lock) continue ;; esac
    cmp -s "$tmp/np1/run/$f" "$tmp/np$ranks/run/$f" || { echo "differs: $f"; diffs=$((diffs + 1)); }
done
[ "$diffs" = 0 ] && echo "folders: identical (but the timings)" || { echo "folders: $diffs files DIFFER"; exit 1; }
