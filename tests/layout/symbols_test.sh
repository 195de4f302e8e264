#!/bin/sh
# symbols_test.sh BUILD - every name that BUILD/libleuctra.a exports carries its module's prefix
# (game_, records_, mcts_, ...), so that a program linking the library never meets a name of
# its own (`on_board`, `play_game`, `buf_put`) taken.  Prints "N passed, N failed".
set -u
build=${1:-build}
lib="$build/libleuctra.a"
prefixes='api|chart|charts|cholesky|driver|elo|engine|error|external|ffo|game|json|lt|match|mcts|mle|mpi_env|network|npz|number|openings|output|pattern|perft|phalanx|player|playout|policy|prior|ratings|record|records|results|reversi|search|selfplay|solve|solver|sprt|svg|tensor|tensors|threads|time_control|training|tune|utf8|value|weights'
if ! command -v nm >/dev/null 2>&1 || [ ! -f "$lib" ]; then
    echo "FAIL symbols: no nm or no $lib"
    echo "0 passed, 1 failed"
    exit 1
fi
bad=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 && $2 ~ /[TDRBC]/ { print $3 }' | sort -u |
      grep -Ev "^($prefixes)_|^\.gomp_critical_user_|^__odr_asan\.")   # OpenMP names its critical
      # sections so; ASan adds an __odr_asan.NAME indicator beside each global it instruments
count=$(nm -g --defined-only "$lib" 2>/dev/null | awk 'NF == 3 && $2 ~ /[TDRBC]/' | wc -l)
if [ -z "$bad" ] && [ "$count" -gt 100 ]; then
    echo "1 passed, 0 failed"
else
    echo "FAIL symbols: $count exported; without a module prefix: $(echo $bad)"
    echo "0 passed, 1 failed"
    exit 1
fi
