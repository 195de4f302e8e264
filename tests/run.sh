#!/bin/sh
# run.sh - runs the unit tests ($UNIT), the command-line tests (tests/cli/cli_test.sh against
# $LEUCTRA), the engine protocol tests (tests/cli/protocol_test.py) and the Python records reader's
# test (tests/cli/test_records.py, on the records files the unit tests leave in a temporary
# directory), the self-play tests (tests/cli/selfplay_test.py), the tuner's command-line tests
# (tests/cli/tune_test.sh, on records files the unit tests leave there too), the match tests
# (tests/cli/match_test.py), the external-engine players' tests (tests/cli/external_engine_test.py), a
# scripted NBoard session (tests/cli/nboard_test.py),
# the pictures tests (tests/cli/svg_test.py: boards, viewer and charts, with a tiny training-loop
# run; tests/cli/browser_test.py), the Python package and tensor export tests (tests/python/python_test.py,
# run by a python3 that has numpy where there is one: /usr/bin/python3 with Debian's
# python3-numpy; without numpy it says "skip" for the array tests) and the package's fuzz harness
# (tests/python/python_fuzz.py: hostile arguments to every public call; `make check` runs it again
# against the sanitized library), the batched games of leuctra.VecGame against leuctra.Game
# (tests/python/vec_test.py), a network trained in PyTorch and written and evaluated by the library
# (tests/python/network_test.py: "skip" without PyTorch), the one table of search options read by every syntax
# (tests/python/search_options_test.py), searches and self-play guided by a Python evaluator with the
# engine wrapper and the AlphaZero example (tests/python/callback_test.py), the package's tests again in
# a virtual environment after `pip install ./python` (tests/python/venv_test.sh), the MPI tests
# (tests/cli/mpi_test.sh: self-play and tuning under mpirun; "skipped: no mpirun" without Open MPI),
# the training command's tests (tests/cli/train_test.py), the exported names (tests/layout/symbols_test.sh) and the layout check (tests/layout/layout_test.sh:
# scripts/layout_check.py on the build's objects), then prints the combined "N passed, N failed"
# line that CI reads.  A runner that exits non-zero fails the run even if its counts say nothing
# failed.
set -u
: "${UNIT:?set UNIT to the unit-test binary}" "${LEUCTRA:?set LEUCTRA to the leuctra binary}"
here=$(cd "$(dirname "$0")" && pwd)
log=$(mktemp)
fixtures=$(mktemp -d)
status=0
rc=$(mktemp)
trap 'rm -f "$log" "$rc"; rm -rf "$fixtures"' EXIT
# Runs one test runner with its output on the terminal and in the log.  A pipe's status is its
# last command's (tee's), so the runner's own exit status goes through a file.
run() {
    { "$@" 2>&1; echo $? >"$rc"; } | tee -a "$log"
    [ "$(cat "$rc")" = 0 ] || status=1
}
: >"$log"
expected=21
if [ -n "${LEUCTRA_TEST_ONLY:-}" ]; then
    # One runner alone (tests/cli/cli_test.sh checks this script's own accounting this way).
    run "$LEUCTRA_TEST_ONLY"
    expected=1
else
run env LEUCTRA_RECORDS_FIXTURES="$fixtures" "$UNIT"
run env LEUCTRA="$LEUCTRA" sh "$here/cli/cli_test.sh"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/protocol_test.py"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/test_records.py" "$fixtures"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/selfplay_test.py"
run env LEUCTRA="$LEUCTRA" sh "$here/cli/tune_test.sh" "$fixtures"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/match_test.py"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/svg_test.py"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/browser_test.py"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/external_engine_test.py"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/nboard_test.py"
py=python3
for candidate in python3 /usr/bin/python3; do
    if command -v "$candidate" >/dev/null 2>&1 && "$candidate" -c 'import numpy' 2>/dev/null; then
        py=$candidate
        break
    fi
done
run env LEUCTRA="$LEUCTRA" "$py" "$here/python/python_test.py" "$fixtures"
run env LEUCTRA="$LEUCTRA" "$py" "$here/python/python_fuzz.py"
run env LEUCTRA="$LEUCTRA" "$py" "$here/python/vec_test.py"
run env LEUCTRA="$LEUCTRA" "$py" "$here/python/network_test.py"
run env LEUCTRA="$LEUCTRA" "$py" "$here/python/search_options_test.py"
run env LEUCTRA="$LEUCTRA" "$py" "$here/python/callback_test.py"
run env LEUCTRA="$LEUCTRA" sh "$here/python/venv_test.sh"
run env LEUCTRA="$LEUCTRA" sh "$here/cli/mpi_test.sh"
run env LEUCTRA="$LEUCTRA" python3 "$here/cli/train_test.py"
run sh "$here/layout/layout_test.sh" "$(dirname "$UNIT")"
run sh "$here/layout/symbols_test.sh" "$(dirname "$UNIT")"
fi
passed=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | awk '{p += $1} END {print p + 0}')
failed=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$log" | awk '{f += $3} END {print f + 0}')
runs=$(grep -cE '^[0-9]+ passed, [0-9]+ failed' "$log")
if [ "$runs" -lt "$expected" ]; then
    echo "a test runner stopped before its summary line" >&2
    failed=$((failed + 1))
fi
if [ "$status" -ne 0 ] && [ "$failed" -eq 0 ]; then
    echo "a test runner exited with a failure status but counted no failed test" >&2
    failed=1
fi
echo "total: $passed passed, $failed failed"
[ "$failed" -eq 0 ] && [ "$status" -eq 0 ]
