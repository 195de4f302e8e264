#!/bin/sh
# run.sh - runs the unit tests ($UNIT), the command-line tests (tests/cli_test.sh against
# $LEUCTRA), the engine protocol tests (tests/protocol_test.py) and the Python records reader's
# test (tests/test_records.py, on the records files the unit tests leave in a temporary
# directory), the self-play tests (tests/selfplay_test.py), the tuner's command-line tests
# (tests/tune_test.sh, on records files the unit tests leave there too), the match tests
# (tests/match_test.py), the external-engine players' tests (tests/external_engine_test.py),
# the pictures tests (tests/svg_test.py: boards, viewer and charts, with a tiny training-loop
# run; tests/browser_test.py), the Python package and tensor export tests (tests/python_test.py,
# run by a python3 that has numpy where there is one: /usr/bin/python3 with Debian's
# python3-numpy; without numpy it says "skip" for the array tests), the MPI tests (tests/mpi_test.sh: self-play and tuning under
# mpirun; "skipped: no mpirun" without Open MPI), then prints the combined "N passed, N failed"
# line that CI reads.
set -u
: "${UNIT:?set UNIT to the unit-test binary}" "${LEUCTRA:?set LEUCTRA to the leuctra binary}"
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
fixtures=$(mktemp -d)
trap 'rm -f "$log"; rm -rf "$fixtures"' EXIT
status=0
LEUCTRA_RECORDS_FIXTURES="$fixtures" "$UNIT" 2>&1 | tee "$log" || status=1
LEUCTRA="$LEUCTRA" sh "$here/cli_test.sh" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/protocol_test.py" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/test_records.py" "$fixtures" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/selfplay_test.py" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" sh "$here/tune_test.sh" "$fixtures" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/match_test.py" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/svg_test.py" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/browser_test.py" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" python3 "$here/external_engine_test.py" 2>&1 | tee -a "$log" || status=1
py=python3
for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import numpy' 2>/dev/null; then
        py=$candidate
        break
    fi
done
LEUCTRA="$LEUCTRA" "$py" "$here/python_test.py" "$fixtures" 2>&1 | tee -a "$log" || status=1
LEUCTRA="$LEUCTRA" sh "$here/mpi_test.sh" 2>&1 | tee -a "$log" || status=1
passed=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | awk '{p += $1} END {print p + 0}')
failed=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | awk '{f += $3} END {print f + 0}')
runs=$(grep -cE '^[0-9]+ passed, [0-9]+ failed' "$log")
if [ "$runs" -lt 12 ]; then
    echo "a test runner stopped before its summary line" >&2
    failed=$((failed + 1))
fi
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
