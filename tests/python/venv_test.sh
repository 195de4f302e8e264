#!/bin/sh
# venv_test.sh - the Python package's tests as a user meets the package: in a virtual environment
# made with `python3 -m venv --system-site-packages` (numpy and PyTorch come from the system's
# site packages), after `pip install ./python` with no network.  Each of the package's test
# runners (python_test.py, python_fuzz.py, vec_test.py, network_test.py, search_options_test.py,
# callback_test.py) then runs with the environment's interpreter, LEUCTRA_LIB unset and
# LEUCTRA_TEST_INSTALLED=1, so that `import leuctra` is the installed package with the library
# its wheel carries, never python/ of the source tree (their runs under tests/run.sh test that).
# The parts that test the source tree itself (its pip install, the example scripts) are theirs.
#
#   LEUCTRA=build/leuctra sh tests/python/venv_test.sh
#
# Prints the runners' failed checks (prefixed "venv:") and one "N passed, N failed" line; says
# "skip" and passes where the system's Python has no venv module or no numpy.
set -u
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
: "${LEUCTRA:=$root/build/leuctra}"
case $LEUCTRA in /*) ;; *) LEUCTRA=$PWD/$LEUCTRA ;; esac
py=/usr/bin/python3
[ -x "$py" ] || py=python3
if ! "$py" -c 'import numpy, venv, ensurepip' 2>/dev/null; then
    echo "skip: $py has no numpy or no venv/ensurepip (apt-get install python3-numpy python3-venv)"
    echo "0 passed, 0 failed"
    exit 0
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
passed=0
failed=0
fail() {
    echo "FAIL venv: $1"
    failed=$((failed + 1))
}
if ! "$py" -m venv --system-site-packages "$tmp/env" >"$tmp/log" 2>&1; then
    fail "python3 -m venv --system-site-packages: $(tail -c 300 "$tmp/log" | tr '\n' '|')"
elif ! "$tmp/env/bin/python" -m pip install --no-index --no-deps --quiet "$root/python" >"$tmp/log" 2>&1; then
    fail "pip install ./python into the environment: $(tail -c 300 "$tmp/log" | tr '\n' '|')"
else
    where=$(cd "$tmp" && env -u LEUCTRA_LIB "$tmp/env/bin/python" -c 'import leuctra, os; print(os.path.dirname(leuctra.__file__), leuctra.library_path)')
    case $where in
        "$tmp/env/"*) passed=$((passed + 1)) ;;
        *) fail "import leuctra in the environment is not the installed package: $where" ;;
    esac
    for runner in python_test.py python_fuzz.py vec_test.py network_test.py search_options_test.py callback_test.py; do
        # from the temporary folder, so that no python/ of the source tree is on the path
        (cd "$tmp" && env -u LEUCTRA_LIB LEUCTRA="$LEUCTRA" LEUCTRA_TEST_INSTALLED=1 \
            "$tmp/env/bin/python" "$here/$runner") >"$tmp/out" 2>&1
        status=$?
        sed -n 's/^FAIL /FAIL venv: '"$runner"': /p' "$tmp/out"
        line=$(grep -E '^[0-9]+ passed, [0-9]+ failed' "$tmp/out" | tail -1)
        if [ -z "$line" ]; then
            fail "$runner stopped before its summary (exit $status): $(tail -c 400 "$tmp/out" | tr '\n' '|')"
            continue
        fi
        passed=$((passed + $(echo "$line" | awk '{print $1}')))
        failed=$((failed + $(echo "$line" | awk '{print $3}')))
        [ "$status" -eq 0 ] || [ "$(echo "$line" | awk '{print $3}')" -ne 0 ] ||
            fail "$runner exited with $status but counted no failure"
    done
fi
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
