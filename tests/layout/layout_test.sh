#!/bin/sh
# layout_test.sh BUILD - scripts/layout_check.py as a test runner: the includes point one way and
# no two source files call each other, and docs/ARCHITECTURE.md lists every file (README, Layout),
# checked on BUILD's object files.
# Prints its findings and "N passed, N failed" like the other runners.
set -u
here=$(cd "$(dirname "$0")" && pwd)
build=${1:-build}
cd "$here/../.." || exit 1
if python3 scripts/layout_check.py "$build"; then
    echo "1 passed, 0 failed"
else
    echo "FAIL layout: scripts/layout_check.py $build"
    echo "0 passed, 1 failed"
    exit 1
fi
