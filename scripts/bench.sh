#!/bin/sh
# bench.sh - the benchmarks docs/BENCHMARKS.md records: `leuctra bench` for every suite, with the
# machine it ran on.
set -eu
bin=${1:-build/leuctra}
echo "machine: $(nproc) cores, $(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2 | sed 's/^ //'), $(date -u +%Y-%m-%d)"
echo "build:   $($bin --version)"
"$bin" bench search
"$bin" bench rules --threads "$(nproc)"
"$bin" bench solve               # FFO #40-#49; --ffo 40-59 for the whole suite (hours)
