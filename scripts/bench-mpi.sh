#!/bin/sh
# bench-mpi.sh - the MPI figures of docs/BENCHMARKS.md: the same self-play run as 1 process x 2
# threads (the plain build) and as 2 processes x 1 thread (mpirun, the MPI build), in games/hour,
# and the one file both write.
#
#   scripts/bench-mpi.sh build-mpi/leuctra build/leuctra [GAMES]
set -eu
mpi=$1 plain=$2 games=${3:-200}
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then MPIRUN="mpirun --allow-run-as-root --oversubscribe"; else MPIRUN=mpirun; fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
RUN="--variant crossings --visits 200 --games $games --seed 3"
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d)"
echo "run:     leuctra selfplay $RUN"
t0=$(date +%s.%N)
"$plain" selfplay $RUN --threads 2 --out "$tmp/a.lrec" --quiet
t1=$(date +%s.%N)
$MPIRUN -np 2 "$mpi" selfplay $RUN --threads 1 --out "$tmp/b.lrec" --quiet
t2=$(date +%s.%N)
awk -v g="$games" -v a="$t0" -v b="$t1" -v c="$t2" 'BEGIN {
    p = b - a; m = c - b;
    printf "1 process x 2 threads:  %.1f s, %.0f games/hour\n", p, 3600 * g / p;
    printf "2 processes x 1 thread: %.1f s, %.0f games/hour (mpirun start-up and merge included)\n", m, 3600 * g / m;
    printf "overhead: %+.1f%%\n", 100 * (m - p) / p }'
cmp -s "$tmp/a.lrec" "$tmp/b.lrec" && echo "files: identical" || { echo "files: DIFFER"; exit 1; }
