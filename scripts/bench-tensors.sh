#!/bin/sh
# bench-tensors.sh - the dataset figures of docs/BENCHMARKS.md (issue 21): for each records file,
# `records export` to CSV by BASELINE (the build before the npz export, or any leuctra) against
# --format npz (default and --packed) by LEUCTRA, timed in alternating pairs by
# scripts/time_pairs.py (medians of 5), and the bytes per position of each output; then the peak
# memory of an npz export of the largest.
#
#   scripts/bench-tensors.sh build/leuctra BASELINE FILE.lrec...
set -eu
bin=$1 base=$2
shift 2
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
echo "machine: $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg), $(date -u +%Y-%m-%d)"
largest=
for f in "$@"; do
    n=$("$bin" records info "$f" | awk '/^positions/ {print $2}')
    echo "== $f: $n positions, $(stat -c %s "$f") bytes of records"
    for mode in "" "--packed"; do
        "$(dirname "$0")/time_pairs.py" -n 5 --timeout 1800 \
            --vs "$base records export $f -o $tmp/out.csv" -- \
            "$bin" records export "$f" -o "$tmp/out.npz" -q $mode | grep -E '^(A|B) (cpu|wall) s|^A/B (cpu|wall)'
        echo "npz $mode: $(stat -c %s "$tmp/out.npz") bytes; csv: $(stat -c %s "$tmp/out.csv") bytes"
    done
    if [ -z "$largest" ] || [ "$(stat -c %s "$f")" -gt "$(stat -c %s "$largest")" ]; then largest=$f; fi
done
echo "== peak memory of the npz export of $largest"
/usr/bin/time -v "$bin" records export "$largest" -o "$tmp/big.npz" -q 2>&1 |
    grep -E 'Maximum resident|Elapsed|User time'
