#!/bin/sh
# ensure-deps.sh - checks that the Debian packages leuctra builds with are installed; installs the
# missing ones with apt-get when run as root, otherwise prints the exact command and fails.
# Open MPI (openmpi-bin libopenmpi-dev) is optional and not installed here: it is needed only by
# `make MPI=1` and tests/cli/mpi_test.sh, which says "skipped: no mpirun" without it (.ci/run installs it).
# python3-numpy is installed here when run as root (the tensor tests and scripts/train_example.py
# use it); without root its absence is only noted.
set -u
need=""
have_header() { printf '#include <%s>\n' "$1" | ${CC:-cc} -E -x c - >/dev/null 2>&1; }
command -v ${CC:-cc} >/dev/null 2>&1 || need="$need gcc"
command -v make >/dev/null 2>&1 || need="$need make"
have_header zlib.h || need="$need zlib1g-dev"
have_header gsl/gsl_vector.h || need="$need libgsl-dev"
have_header omp.h || printf 'int main(void){return 0;}\n' | ${CC:-cc} -fopenmp -x c - -o /dev/null 2>/dev/null || need="$need libgomp1"
command -v python3 >/dev/null 2>&1 || need="$need python3"
# numpy for the Python package's array tests (tests/python/python_test.py), in Debian's python3: wanted,
# not needed, so a user who cannot install it still builds (the tests then say "skip").
want=""
[ -x /usr/bin/python3 ] && /usr/bin/python3 -c 'import numpy' 2>/dev/null || want="python3-numpy"
if [ -n "$want" ] && [ "$(id -u)" = 0 ]; then
    need="$need $want"
elif [ -n "$want" ] && [ -z "$need" ]; then
    echo "note: $want is not installed: the array tests will be skipped (sudo apt-get install -y $want)" >&2
fi
[ -z "$need" ] && exit 0
if [ "$(id -u)" = 0 ]; then
    echo "installing:$need"
    apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq $need >/dev/null || {
        echo "apt-get install failed for:$need" >&2; exit 1; }
else
    echo "missing packages:$need" >&2
    echo "run: sudo apt-get install -y$need" >&2
    exit 1
fi
