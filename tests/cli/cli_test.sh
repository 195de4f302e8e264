#!/bin/sh
# cli_test.sh - tests of the `leuctra` command as scripts use it: the moves, perft, status, apply
# and show subcommands, their --help, and the rule that bad input of any kind ends with exit
# status 2, exactly one line on stderr and nothing on stdout.
#
#   LEUCTRA=build/leuctra sh tests/cli/cli_test.sh
#
# Prints one line per failed check ("FAIL what: expected ...; got ...", newlines shown as '|'),
# ends with the line "N passed, N failed" and exits non-zero if any check failed.
# LEUCTRA_QUICK=1 (the sanitizer build) skips the slowest perft depths and nothing else.
# The sections run in two parallel workers (see the end of the file); each check is one leuctra
# run or a comparison of a few, so a sanitizer build (about 70 ms a start) decides the time.
set -u
: "${LEUCTRA:?set LEUCTRA to the leuctra binary}"
L=$LEUCTRA
QUICK=0
case "${LEUCTRA_QUICK:-}" in '' | 0) ;; *) QUICK=1 ;; esac

tests_dir=$(cd "$(dirname "$0")" && pwd)
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err
passed=0
failed=0
rc=0

NL='
'
START_14x12='BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/14/WWWWWWWWWWWWWW/WWWWWWWWWWWWWW w'
START_8x8='BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w'
START_REVERSI='8/8/8/3WB3/3BW3/8/8/8 b'
OBSTACLES='BBBBB/BBBBB/5/1x1x1/5/WWWWW/WWWWW w'
TOWERS='W7/B7/B7/8/3W4/8/8/7B w'
REVERSI_PASS='8/8/8/8/8/8/8/WB6 b'
REVERSI_DRAW='WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB b'
REVERSI_WHITE='WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB w'

# --- helpers -----------------------------------------------------------------------------------

# Text on one line (newlines as '|'), for failure reports.
oneline() { printf '%s' "$1" | tr '\n' '|' | cut -c1-300; }
file_oneline() { tr '\n' '|' <"$1" | cut -c1-300; }
# Sets $what to the command line, quoted (no subshell: this runs for every check).
cmdline() {
    what="leuctra"
    for a in "$@"; do what="$what '$a'"; done
}

pass() { passed=$((passed + 1)); }
fail() {    # fail WHAT EXPECTED GOT
    failed=$((failed + 1))
    printf 'FAIL %s: expected %s; got %s\n' "$(oneline "$1")" "$(oneline "$2")" "$(oneline "$3")"
}
check() {   # check WHAT EXPECTED GOT
    if [ "$2" = "$3" ]; then pass; else fail "$1" "$2" "$3"; fi
}

# Runs leuctra; stdout in $out, stderr in $err, exit status in $rc.
run() { "$L" "$@" >"$out" 2>"$err"; rc=$?; }

# Runs leuctra and requires exit 0 with nothing on stderr (one check, counted only on failure;
# the caller counts the success with its own check).  Returns 1 after a failure.
run_ok() {
    run "$@"
    if [ "$rc" -ne 0 ] || [ -s "$err" ]; then
        cmdline "$@"
        fail "$what" "exit 0, nothing on stderr" "exit $rc, stderr: $(file_oneline "$err")"
        return 1
    fi
    return 0
}

# expect_out EXPECTED ARGS...: the whole stdout.
expect_out() {
    want=$1; shift
    run_ok "$@" || return 0
    cmdline "$@"
    check "$what" "$want" "$(cat "$out")"
}

# expect_last EXPECTED ARGS...: the last line of stdout.
expect_last() {
    want=$1; shift
    run_ok "$@" || return 0
    cmdline "$@"
    check "$what (last line)" "$want" "$(tail -n 1 "$out")"
}

# expect_lines N ARGS...: the number of stdout lines.
expect_lines() {
    want=$1; shift
    run_ok "$@" || return 0
    cmdline "$@"
    check "$what (lines)" "$want" "$(awk 'END { print NR }' "$out")"
}

# expect_contains 'TEXT|TEXT|...' ARGS...: stdout holds every TEXT (fixed strings, '|'-separated).
expect_contains() {
    texts=$1; shift
    run_ok "$@" || return 0
    missing=""
    old_ifs=$IFS
    IFS='|'
    for t in $texts; do
        grep -qF -e "$t" "$out" || missing="$missing '$t'"
    done
    IFS=$old_ifs
    if [ -z "$missing" ]; then pass; else
        cmdline "$@"
        fail "$what" "output containing: $texts" "missing:$missing in: $(file_oneline "$out")"
    fi
}

# expect_error KEYWORD ARGS...: exit status 2 (no crash), nothing on stdout, exactly one line on
# stderr, and that line mentions KEYWORD (case-insensitive fixed string).
expect_error() {
    key=$1; shift
    run "$@"
    problems=""
    [ "$rc" -ge 128 ] && problems="$problems crashed (signal $((rc - 128)));"
    [ "$rc" -ne 2 ] && problems="$problems exit $rc;"
    [ -s "$out" ] && problems="$problems stdout: $(file_oneline "$out");"
    lines=$(awk 'END { print NR }' "$err")
    [ "$lines" -ne 1 ] && problems="$problems $lines lines on stderr;"
    grep -qiF -e "$key" "$err" || problems="$problems message lacks '$key';"
    if [ -z "$problems" ]; then pass; else
        cmdline "$@"
        fail "$what" "exit 2, no stdout, one stderr line mentioning '$key'" \
            "$problems stderr: $(file_oneline "$err")"
    fi
}

# get ARGS...: runs leuctra, which must succeed, and sets $got to its stdout (to "" and returns 1
# after a failure, which is counted).
get() {
    got=""
    run_ok "$@" || return 1
    got=$(cat "$out")
}

# --- moves ---------------------------------------------------------------------------------------

section_moves() {
    expect_lines 114 moves
    expect_lines 114 moves --variant epaminondas --position "$START_14x12"
    expect_lines 60 moves --size 8x8
    expect_lines 60 moves --variant crossings
    expect_lines 132 moves --size 16x16
    expect_out "d3${NL}c4${NL}f5${NL}e6" moves --variant reversi
    expect_out "pass" moves --variant reversi --position "$REVERSI_PASS"
    expect_lines 29 moves --position "$OBSTACLES"
    # Crossings, answering a crossing: only the moves that make a tower.
    run_ok moves --variant crossings --position 'W7/8/8/8/8/8/B7/8 b' &&
        check "crossings answering moves" "a2-a1 a2-b1" "$(sort "$out" | tr '\n' ' ' | sed 's/ $//')"
    # Epaminondas symmetry rule: a4-a5 would leave the board mirror-symmetric.
    run_ok moves --position '3/W2/3/3/B2 w' &&
        check "symmetry rule removes a4-a5" "a4-a3 a4-b3 a4-b4 a4-b5" "$(sort "$out" | tr '\n' ' ' | sed 's/ $//')"
    # Finished games list nothing.
    expect_out "" moves --position 'W4/5/5/B4/5 w'
    expect_out "" moves --position '5/5/5/5/5 w'
    expect_out "" moves --variant crossings --position 'W7/8/8/8/8/B7/8/8 b'
    expect_out "" moves --variant reversi --position "$REVERSI_DRAW"
    # Igfip: the 14x12 start; answering a crossing; no symmetry rule (a4-a5 stays); the draw.
    expect_lines 114 moves --variant igfip
    expect_lines 60 moves --variant igfip --size 8x8
    run_ok moves --variant igfip --position 'W7/8/8/8/8/8/B7/8 b' &&
        check "igfip answering moves" "a2-a1 a2-b1" "$(sort "$out" | tr '\n' ' ' | sed 's/ $//')"
    run_ok moves --variant igfip --position '3/W2/3/3/B2 w' &&
        check "igfip has no symmetry rule" "a4-a5 a4-b5" "$(sort "$out" | tr '\n' ' ' | sed 's/ $//')"
    expect_out "" moves --variant igfip --position 'WW1/3/3/3/B1B b'
}

# --- perft: RULES.md section 6 references ------------------------------------------------------

# --divide: lines sum to the total, one per legal move, the same moves as `moves`, the same with
# threads, and each count equals perft DEPTH-1 of the child that `apply` makes.
divide_check() {    # divide_check DEPTH ARGS... (the game options)
    depth=$1; shift
    label="perft $depth --divide $*"
    run_ok moves "$@" || return 0
    sort "$out" >"$out.moves"
    run_ok perft "$depth" --divide "$@" || return 0
    cp "$out" "$out.divide"
    total=$(tail -n 1 "$out.divide")
    sed '$d' "$out.divide" >"$out.lines"
    check "$label: sum of lines" "$total" "$(awk '{ s += $2 } END { print s + 0 }' "$out.lines")"
    check "$label: moves listed" "$(cat "$out.moves")" "$(awk '{ print $1 }' "$out.lines" | sort)"
    run_ok perft "$depth" --divide --threads 2 "$@" &&
        check "$label --threads 2" "$(cat "$out.divide")" "$(cat "$out")"
    n=$(awk 'END { print NR }' "$out.lines")
    [ "$n" -gt 0 ] || return 0
    for k in 1 $(((n + 1) / 2)) "$n"; do
        line=$(sed -n "${k}p" "$out.lines")
        move=${line% *}
        count=${line#* }
        get apply "$@" "$move" || continue
        child=$got
        # The child keeps the board and obstacles; only the variant goes along.
        variant=epaminondas
        prev=""
        for a in "$@"; do
            case "$prev" in --variant) variant=$a ;; esac
            case "$a" in --variant=*) variant=${a#--variant=} ;; esac
            prev=$a
        done
        run_ok perft $((depth - 1)) --variant "$variant" --position "$child" &&
            check "$label: $move vs perft $((depth - 1)) of its child" "$count" "$(tail -n 1 "$out")"
    done
}

section_perft() {
    expect_last 1 perft 0
    expect_last 114 perft 1
    expect_last 12996 perft 2
    expect_last 1787292 perft 3
    [ "$QUICK" = 1 ] || expect_last 245799684 perft 4
    expect_last 60 perft 1 --size 8x8
    expect_last 3600 perft 2 --size 8x8
    expect_last 269278 perft 3 --size 8x8
    [ "$QUICK" = 1 ] || expect_last 20039444 perft 4 --size 8x8
    expect_last 60 perft 1 --variant crossings
    expect_last 3600 perft 2 --variant crossings
    expect_last 269278 perft 3 --variant crossings
    [ "$QUICK" = 1 ] || expect_last 20039500 perft 4 --variant crossings --size 8x8
    expect_last 114 perft 1 --variant igfip
    expect_last 12996 perft 2 --variant igfip
    expect_last 1787292 perft 3 --variant igfip
    [ "$QUICK" = 1 ] || expect_last 245799684 perft 4 --variant igfip
    expect_last 269278 perft 3 --variant igfip --size 8x8
    expect_last 20039444 perft 4 --variant igfip --size 8x8 --threads 2
    expect_last 48593 perft 4 --variant igfip --position 'W1B2W2/1B6/2BB4/8/3W4/2W5/1W2B3/B2WW2W w'
    expect_last 0 perft 1 --variant igfip --position 'WW1/3/3/3/B1B b'
    d=0
    for n in 4 12 56 244 1396 8200 55092 390216; do
        d=$((d + 1))
        [ "$QUICK" = 1 ] && [ "$d" -gt 6 ] && break
        expect_last "$n" perft "$d" --variant reversi
    done
    # Two sides that cannot meet in two plies: perft 2 is the square of perft 1.
    expect_last 17424 perft 2 --size 16x16
    # A forced pass is a ply; a finished game has no leaves.
    expect_last 1 perft 1 --variant reversi --position "$REVERSI_PASS"
    expect_last 1 perft 2 --variant reversi --position "$REVERSI_PASS"
    expect_last 0 perft 1 --variant reversi --position "$REVERSI_DRAW"
    expect_last 1 perft 0 --variant reversi --position "$REVERSI_DRAW"
    expect_last 0 perft 3 --position 'W4/5/5/B4/5 w'
    expect_last 0 perft 2 --variant crossings --position 'W7/8/8/8/8/B7/8/8 b'
    # Options in any order and in --name=value form.
    expect_last 1787292 perft --threads=2 --variant=epaminondas 3
    # The same count for any number of threads (the split into tasks starts at depth 4).
    if [ "$QUICK" = 1 ]; then
        expect_last 1787292 perft 3 --threads 2
        expect_last 269278 perft 3 --variant crossings --threads 2
    else
        expect_last 245799684 perft 4 --threads 2
        expect_last 20039500 perft 4 --variant crossings --threads 2
        expect_last 20039444 perft 4 --size 8x8 --threads 3
    fi
    expect_last 8200 perft 6 --variant reversi --threads 2
    expect_last 1396 perft 5 --variant reversi --threads 7

    divide_check 3
    divide_check 3 --size 8x8
    divide_check 3 --variant crossings
    divide_check 5 --variant reversi
    divide_check 3 --position "$OBSTACLES"
    divide_check 3 --variant crossings --position "$TOWERS"
    divide_check 3 --variant igfip --size 8x8
    divide_check 3 --variant igfip --position "$TOWERS"
    divide_check 2 --position '3/B2/W2/W2/3 w'
    divide_check 2 --position 'W4/5/5/B4/5 w'
}

# --- status --------------------------------------------------------------------------------------

section_status() {
    expect_out ongoing status
    expect_out ongoing status --variant crossings
    expect_out ongoing status --variant reversi
    # Epaminondas: White reaches Black's home rank; Black either answers (ongoing) or fails, and
    # White wins at the start of its turn.
    get apply --position '5/W4/5/4B/5 w' a4-a5
    P=$got
    check "apply a4-a5" 'W4/5/5/4B/5 b' "$P"
    expect_out ongoing status --position "$P"
    get apply --position "$P" e2-d2
    P=$got
    check "apply e2-d2" 'W4/5/5/3B1/5 w' "$P"
    expect_out white-wins status --position "$P"
    get apply --position 'W4/5/5/4B/5 b' e2-e1 && expect_out ongoing status --position "$got"
    expect_out black-wins status --position '5/W4/5/5/B4 b'
    expect_out black-wins status --position '5/5/5/5/5 w'
    # Crossings: an unanswerable crossing loses; a side whose only stone is a tower has no move.
    expect_out white-wins status --variant crossings --position 'W7/8/8/8/8/B7/8/8 b'
    expect_out ongoing status --variant crossings --position 'W7/8/8/8/8/8/B7/8 b'
    expect_out black-wins status --variant crossings --position 'W7/8/8/8/8/8/8/7B w'
    # Igfip: the same race; a draw once no stone can move (all across) and no answer is owed.
    expect_out ongoing status --variant igfip
    expect_out white-wins status --variant igfip --position 'W7/8/8/8/8/B7/8/8 b'
    expect_out ongoing status --variant igfip --position 'W7/8/8/8/8/8/B7/8 b'
    get apply --variant igfip --position 'W2/1W1/3/3/B1B w' b4-b5 &&
        check "igfip: the last free stone crosses" 'WW1/3/3/3/B1B b' "$got"
    expect_out draw status --variant igfip --position 'WW1/3/3/3/B1B b'
    expect_out draw status --variant igfip --position 'WWW/3/3/3/B1B w'
    expect_out white-wins status --variant igfip --position 'WWW/3/3/3/B1B b'
    expect_out white-wins status --variant igfip --position 'WW1/3/1W1/3/B1B b'
    # Reversi: full boards, and a board where neither side can place.
    expect_out draw status --variant reversi --position "$REVERSI_DRAW"
    expect_out white-wins status --variant reversi --position "$REVERSI_WHITE"
    expect_out white-wins status --variant reversi --position '8/8/8/8/8/8/8/WWWW4 b'
    expect_out black-wins status --variant reversi --position '8/8/8/8/8/8/8/BB6 w'
    expect_out ongoing status --variant reversi --position "$REVERSI_PASS"
}

# --- apply ---------------------------------------------------------------------------------------

# Chains: play a few plies picking moves from `moves`; apply of all of them equals apply of the
# first followed by apply --position of the result with the rest, and the step-by-step result.
chain_check() {     # chain_check NAME ARGS... (the game options)
    name=$1; shift
    get apply "$@" || return 0
    pos=$got
    moves=""
    i=0
    while [ "$i" -lt 5 ]; do
        i=$((i + 1))
        run_ok moves "$@" --position "$pos" || return 0
        n=$(awk 'END { print NR }' "$out")
        [ "$n" -gt 0 ] || break
        m=$(sed -n "$(((i * 37) % n + 1))p" "$out")
        moves="$moves $m"
        get apply "$@" --position "$pos" "$m" || return 0
        pos=$got
    done
    set -f
    # shellcheck disable=SC2086
    get apply "$@" $moves
    whole=$got
    first=${moves# }
    first=${first%% *}
    rest=${moves# }
    rest=${rest#* }
    get apply "$@" "$first"
    after_first=$got
    # shellcheck disable=SC2086
    get apply "$@" --position "$after_first" $rest
    chained=$got
    set +f
    check "$name: apply$moves, one call vs step by step" "$pos" "$whole"
    check "$name: apply$moves, first then the rest" "$whole" "$chained"
}

section_apply() {
    expect_out "$START_14x12" apply
    expect_out "$START_8x8" apply --size 8x8
    expect_out "$START_8x8" apply --variant crossings
    expect_out "$START_REVERSI" apply --variant reversi
    expect_out "$OBSTACLES" apply --position "$OBSTACLES"
    expect_out "$TOWERS" apply --variant crossings --position "$TOWERS"
    expect_out 'BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/W13/1WWWWWWWWWWWWW/WWWWWWWWWWWWWW b' apply a2-a3
    expect_out '8/8/3B4/3BB3/3BW3/8/8/8 w' apply --variant reversi d3
    expect_out '8/8/8/8/8/8/8/WB6 w' apply --variant reversi --position "$REVERSI_PASS" pass
    expect_out '8/8/8/8/8/8/8/WWW5 b' apply --variant reversi --position "$REVERSI_PASS" pass c8
    expect_out 'BBBBB/BBBBB/5/1x1x1/1W3/1WWWW/WWWWW b' apply --position "$OBSTACLES" a2-b3
    expect_out '3/W2/W2/3/3 b' apply --position '3/B2/W2/W2/3 w' a2xa3
    expect_out 'W7/8/8/8/8/8/8/B7 w' apply --variant crossings --position 'W7/8/8/8/8/8/B7/8 b' a2-a1

    chain_check "epaminondas 14x12"
    chain_check "epaminondas 8x8" --size 8x8
    chain_check "crossings" --variant crossings
    chain_check "igfip 14x12" --variant igfip
    chain_check "igfip 8x8" --variant igfip --size 8x8
    chain_check "reversi" --variant reversi
    # The second move of a list is read on the position after the first.
    expect_error "move 2" apply a2-a3 a2-a3
}

# --- show ----------------------------------------------------------------------------------------

section_show() {
    expect_contains " a b c d e f g h i j k l m n| 12 |  1 |to move: white|status: ongoing|legal moves: 114" show
    expect_contains " a b c d e f g h|  8 |to move: black|status: ongoing|legal moves: 4" show --variant reversi
    expect_contains " a b c d e f g h|  8  T |. t  1|to move: white" show --variant crossings --position "$TOWERS"
    expect_contains " a b c d e|  7 | x |5x7" show --position "$OBSTACLES"
    expect_contains "status: white-wins|to move: white" show --position 'W4/5/5/3B1/5 w'
    expect_contains "to move: black|status: ongoing" show --position 'W4/5/5/4B/5 b'
    expect_contains "status: draw" show --variant reversi --position "$REVERSI_DRAW"
    expect_contains " a b c d e f g h|  8  T |. t  1|to move: white" show --variant igfip --position "$TOWERS"
    expect_contains "status: draw|legal moves: 0" show --variant igfip --position 'WW1/3/3/3/B1B b'
}

# --- --size --------------------------------------------------------------------------------------

section_size() {
    expect_out "$START_8x8" apply --variant epaminondas --size 8x8
    expect_out 'BBB/BBB/3/WWW/WWW w' apply --size 3x5
    expect_out "$START_14x12" apply --variant crossings --size 14x12
    expect_out ongoing status --size 16x16
    expect_last 132 perft 1 --size 16x16 --variant crossings
    expect_lines 29 moves --size 5x7 --position "$OBSTACLES"
    expect_error "8x8" moves --variant reversi --size 10x10
    expect_error "8x8" perft 1 --variant reversi --size 6x6
    expect_error "does not match" moves --size 8x8 --position "$OBSTACLES"
}

# --- help ----------------------------------------------------------------------------------------

section_help() {
    # The five commands scripts rely on must be listed; every listed command must have a help.
    commands=""
    if run_ok --help; then
        commands=$(sed -n '/^commands:/,/^$/p' "$out" | awk 'NR > 1 && NF { print $1 }')
        missing=""
        for c in moves perft status apply show; do
            printf '%s\n' "$commands" | grep -qx "$c" || missing="$missing $c"
        done
        check "leuctra --help lists every subcommand" "" "$missing"
    fi
    for c in $commands; do
        for h in --help -h; do
            if run_ok "$c" "$h"; then
                if grep -q "example" "$out" && grep -q "usage" "$out"; then pass; else
                    fail "leuctra $c $h" "a usage with an example" "$(file_oneline "$out")"
                fi
            fi
        done
    done
    # The examples in the helps of the script-facing commands run as written.
    for c in moves perft status apply show; do
        run "$c" --help
        ex=$(sed -n 's/^example: leuctra //p' "$out" | head -n 1 | sed 's/  *(.*$//')
        eval "set -- $ex"
        run "$@"
        if [ "$rc" -eq 0 ] && [ -s "$out" ]; then pass; else
            fail "the example of leuctra $c --help: leuctra $ex" "exit 0 and output" "exit $rc, stderr: $(file_oneline "$err")"
        fi
        case "$c" in perft) check "perft help example result" 245799684 "$(tail -n 1 "$out")" ;; esac
    done
    run_ok --version && check "leuctra --version" "leuctra " "$(cut -c1-8 "$out")"
}

# --- bad input: exit 2, one line on stderr, nothing on stdout -----------------------------------

section_errors() {
    # variant and size
    expect_error "variant" moves --variant chess
    expect_error "variant" perft 1 --variant ''
    expect_error "variant" status --variant Reversi
    expect_error "igfip" moves --variant igfp
    expect_error "variant" perft 1 --variant Igfip
    expect_error "out of range" moves --variant igfip --size 17x8
    expect_error "size" show --variant igfip --size 8
    expect_error "field 5" status --variant igfip --position '5/5/5/5/4 w'
    expect_error "character 'y'" moves --variant igfip --position "BBB/3/3/y2/WWW w"
    expect_error "out of range" moves --size 2x8
    expect_error "out of range" moves --size 8x4
    expect_error "out of range" apply --size 17x8
    expect_error "size" moves --size 8x
    expect_error "size" show --size abc
    expect_error "size" moves --size 8x8x8
    # position strings, phalanx games
    expect_error "character 'f'" moves --position foo
    expect_error "empty" moves --position ''
    expect_error "side to move" moves --position '5/5/5/5/5 x'
    expect_error "side to move" moves --position '5/5/5/5/5'
    expect_error "side to move" moves --position '5/5/5/5/5 w '
    expect_error "field 5" status --position '5/5/5/5/4 w'
    expect_error "field 5" status --position '5/5/5/5/6 w'
    expect_error "leading zero" moves --position '05/5/5/5/5 w'
    expect_error "more than 16" moves --position '17/17/17/17/17 w'
    expect_error "more than 16 ranks" moves --position '3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3/3 w'
    expect_error "5x4" moves --position '5/5/5/5 w'
    expect_error "2x5" perft 1 --position 'WW/WW/WW/WW/WW w'
    expect_error "field 3 is empty" apply --position '5/5//5/5/5 w'
    expect_error "0x01" moves --position "$(printf 'B\001B/3/3/3/3 w')"
    expect_error "character 'y'" moves --variant crossings --position "BBB/3/3/y2/WWW w"
    expect_error "longer than" moves --position "$(printf '%05000d' 0) w"
    # position strings, Reversi
    expect_error "7 ranks" moves --variant reversi --position '8/8/8/3WB3/3BW3/8/8 b'
    expect_error "more than 8 ranks" moves --variant reversi --position '8/8/8/3WB3/3BW3/8/8/8/8 b'
    expect_error "rank 8" moves --variant reversi --position '8/8/8/3WB3/3BW3/8/8/7 b'
    expect_error "obstacle" status --variant reversi --position '8/8/8/3Wx3/3BW3/8/8/8 b'
    expect_error "after the side to move" apply --variant reversi --position '8/8/8/3WB3/3BW3/8/8/8 b extra'
    expect_error "side to move" show --variant reversi --position '8/8/8/3WB3/3BW3/8/8/8 x'
    expect_error "5 squares" moves --variant reversi --position '5/5/5/5/5 w'
    # illegal moves, phalanx games
    expect_error "nothing to capture" apply a1xa3
    expect_error "captures" apply --position '3/B2/W2/W2/3 w' a2-a3
    expect_error "too far" apply a2-a4
    expect_error "no white stone" apply a3-a4
    expect_error "black stone" apply h12-h11
    expect_error "not on one line" apply a2-b4
    expect_error "same square" apply a2-a2
    expect_error "not on the 14x12 board" apply z2-z3
    expect_error "expected" apply a2a3
    expect_error "expected" apply ''
    expect_error "expected" apply a2-a3333
    expect_error "leave the board" apply b2-a2
    expect_error "blocked by a black stone" apply --position 'B2/3/B2/W2/W2 w' a1-a3
    expect_error "obstacle" apply --position "$OBSTACLES" b1-b3
    expect_error "cannot capture" apply --position '3/B2/B2/W2/W2 w' a1xa2
    expect_error "symmetry" apply --position '3/W2/3/3/B2 w' a4-a5
    expect_error "game is over" apply --position 'W4/5/5/B4/5 w' e1-e2
    expect_error "cannot be captured" apply --variant crossings --position 'W7/B7/B7/8/8/8/8/7B b' a6xa7
    expect_error "never moves" apply --variant crossings --position "$TOWERS" a8-b8
    expect_error "answered" apply --variant crossings --position 'W7/8/8/8/8/8/B7/8 b' a2-a3
    expect_error "crossed stone on a8 never moves" apply --variant igfip --position "$TOWERS" a8-b8
    expect_error "answered" apply --variant igfip --position 'W7/8/8/8/8/8/B7/8 b' a2-a3
    expect_error "game is over (draw)" apply --variant igfip --position 'WW1/3/3/3/B1B b' a1-a2
    expect_error "nothing to capture" apply --variant igfip a1xa3
    expect_error "too far" apply --variant igfip --size 8x8 a2-a4
    expect_error "not on the 8x8 board" apply --variant igfip --size 8x8 i2-i3
    # illegal moves, Reversi
    expect_error "flips nothing" apply --variant reversi a1
    expect_error "occupied" apply --variant reversi d4
    expect_error "placement is available" apply --variant reversi pass
    expect_error "not a square" apply --variant reversi d9
    expect_error "not a square" apply --variant reversi D3
    expect_error "not a square" apply --variant reversi passs
    expect_error "game is over" apply --variant reversi --position "$REVERSI_DRAW" pass
    expect_error "only move is pass" apply --variant reversi --position "$REVERSI_PASS" c8
    # DEPTH and --threads
    expect_error "DEPTH" perft
    expect_error "DEPTH" perft x
    expect_error "DEPTH" perft 65
    expect_error "DEPTH" perft 1.5
    expect_error "DEPTH" perft ''
    expect_error "DEPTH" perft 99999999999999999999
    expect_error "-1" perft -1
    expect_error "'2'" perft 1 2
    expect_error "--threads" perft 1 --threads 0
    expect_error "--threads" perft 1 --threads x
    expect_error "--threads must be an integer from 1 to 1024, got 100000" perft 1 --threads 100000
    # A count inside the cap but more than 4 per processor runs, with one warning line (core/threads.h).
    procs=$(env -u OMP_NUM_THREADS -u OMP_THREAD_LIMIT nproc 2>/dev/null || echo 1)
    if [ $((procs * 4 + 1)) -le 1024 ]; then
        run perft 1 --threads $((procs * 4 + 1))
        check "perft --threads $((procs * 4 + 1)) on $procs processors: the count and one warning" "0|114|1|1" \
            "$rc|$(cat "$out")|$(awk 'END { print NR }' "$err")|$(grep -c "warning: $((procs * 4 + 1)) threads on $procs processor" "$err")"
        run perft 1 --threads $((procs * 4))
        check "perft --threads $((procs * 4)) on $procs processors: no warning" "0|" "$rc|$(cat "$err")"
    fi
    # options
    for c in moves status apply show; do
        expect_error "unknown option '--bogus'" "$c" --bogus
    done
    expect_error "unknown option '--bogus'" perft 1 --bogus
    expect_error "extra" moves extra
    expect_error "extra" status --variant reversi extra
    expect_error "--variant needs a value" moves --variant
    expect_error "--position needs a value" status --position
    expect_error "--size needs a value" show --size
    expect_error "--threads needs a value" perft 1 --threads
    expect_error "--variant needs a value" apply --variant
    # subcommands
    expect_error "unknown command 'bogus'" bogus
    expect_error "unknown command" ''
    expect_error "one benchmark at a time" bench rules search
    run
    if [ "$rc" -eq 2 ] && [ ! -s "$out" ] && [ -s "$err" ]; then pass; else
        fail "leuctra (no subcommand)" "exit 2, usage on stderr only" "exit $rc, stdout: $(file_oneline "$out")"
    fi
    # A newline inside an argument must not split the message into two lines.
    expect_error "move" apply "a2${NL}-a3"
    expect_error "variant" moves --variant "chess${NL}x"
    expect_error "size" moves --size "8x8${NL}"
    expect_error "unknown option" moves "--bogus${NL}x"
    expect_error "unknown command" "bogus${NL}x"
    expect_error "DEPTH" perft "1${NL}x"
    # Bytes that are not UTF-8 are shown as '?', not echoed raw to a terminal or a log.
    expect_error "unknown variant 'ch?ess?'" moves --variant "ch$(printf '\377')ess$(printf '\376')"
    check "an error echoes no byte 0xff" 0 "$(LC_ALL=C grep -c "$(printf '\377')" "$err")"
    expect_error "unknown variant '$(printf 'caf\303\251')'" moves --variant "$(printf 'caf\303\251')"
}

# --- solve: the Reversi endgame solver --------------------------------------------------------

section_solve() {
    # An endgame of 10 empties whose score the plain reference solver found (tests/reference/reversi_endgames.h).
    P='WWWWWWWW/WWWWBBBB/WBWBWBB1/1BBWWBBW/1BBBBBWW/1WWBWWWW/2WWBWWW/2WWWWWW b'
    expect_contains "empties   8|score     -44 for black (white wins)|line      " solve --position "$P"
    expect_contains "result    loss for black" solve --position "$P" --wld
    if get solve --position "$P" --moves --json; then
        printf '%s' "$got" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["mode"] == "exact" and d["score"] == -44 and d["empties"] == 8, d
assert d["moves"] and d["moves"][0]["score"] == -44 and all(m["score"] <= -44 for m in d["moves"]), d["moves"]
assert d["line"][0] == d["best"], d
' && pass || fail "solve --moves --json" "a JSON report whose best move has the score" "$got"
    fi
    # A finished game: no move, the final count.
    expect_contains "score     -64 for white|best      none" solve --position \
        'BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBB3 w'
    expect_error "no exact solver" solve --variant epaminondas
    expect_error "position" solve --position 'WWWW/8 b'
    expect_error "--hash" solve --hash -1
    # Selective levels: FFO #40 (20 empties, +38) through every level to the exact one; at
    # level 1 a probable score with its move and line; under a time limit FFO #47 (25 empties,
    # about 1.5 s exact) the last level finished, probable.
    F40='W2WWWWB/1WWWWWWB/WWBBWWWB/WWBWWWBB/WWWWWWBB/3WWWWB/4W2B/8 b'
    F47='1WWWWW2/2WWWW2/1WWWWB2/BBBBBB2/1WBWWB2/WWWBWB2/2WWBB2/2BBBB2 w'
    expect_contains "level 0 |level 3 |level 4 |(exact)|score     +38 for black (black wins)|best      a2" \
        solve --position "$F40" --selective
    expect_contains "level 1 |score     |probable: selective level 1 of 4|line      " solve --position "$F40" --level 1
    if get solve --position "$F40" --level 1 --json; then
        printf '%s' "$got" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["level"] == 1 and d["probable"] is True and [l["level"] for l in d["levels"]] == [0, 1], d
assert d["best"] == d["levels"][1]["best"] == d["line"][0] and d["score"] == d["levels"][1]["score"], d
assert d["levels"][0]["nodes"] < d["levels"][1]["nodes"] <= d["nodes"], d
' && pass || fail "solve --level 1 --json" "a probable score at level 1 with both levels" "$got"
    fi
    if get solve --position "$F47" --selective --time-limit 0.8 --json; then
        printf '%s' "$got" | python3 -c '
import json, sys
d = json.load(sys.stdin)
assert d["probable"] is True and d["level"] == len(d["levels"]) - 1 < 4 and d["best"], d
' && pass || fail "solve --selective --time-limit 0.8" "the last level finished in time, probable" "$got"
    fi
    # FFO #59's 34 empties: at a selective level no time limit is needed.
    expect_contains "result    win for black (black wins, probable: selective level 0 of 4)" \
        solve --position '8/8/7W/2WWWWW1/2WWWWWB/WWWWBBBB/2BBWWBB/2BB1W1B b' --level 0 --wld
    expect_error "--moves" solve --position "$F40" --selective --moves
    expect_error "--level" solve --position "$F40" --level 5
    expect_error "--time-limit" solve --selective
    # The start's 60 empties would never end: refused unless a time limit is given.
    expect_error "--time-limit" solve
    expect_error "--time-limit" solve --position start --wld
    run solve --time-limit 0.05 --position '1WWWWW2/2WWWWB1/1WWWWWW1/BBBBBWW1/1BBWWB2/WWBWBB2/2WBBW2/1WWW2W1 b'
    if [ "$rc" -eq 1 ] && grep -q "time-limit" "$err" && [ ! -s "$out" ]; then pass; else
        fail "solve --time-limit on a 22-empty position" "exit 1 naming --time-limit" "exit $rc: $(file_oneline "$err")"
    fi
}

# --- output files: symlinks, FIFOs, devices and '-' -------------------------------------------

# run_to TARGET ARGS...: run with every argument @OUT@ replaced by TARGET.
run_to() {
    target=$1
    shift
    for a in "$@"; do
        shift
        if [ "$a" = @OUT@ ]; then set -- "$@" "$target"; else set -- "$@" "$a"; fi
    done
    run "$@"
}

# output_checks NAME STDOUT ARGS...: the command (its output path given as @OUT@) writes the same
# bytes to a plain file, through a symlink (the link stays, the file it names is replaced or
# created), into a FIFO and a character device (which stay what they are), and to stdout for
# '-' when STDOUT is "stdout" ("refused": '-' gets exit 2 and one line, since stdout carries the
# report); and no temporary file is left beside any of them.
output_checks() {
    name=$1 to_stdout=$2
    shift 2
    d=$outputs/$name
    mkdir -p "$d/sub"
    run_to "$d/plain" "$@"
    if [ "$rc" -ne 0 ] || [ ! -s "$d/plain" ]; then
        fail "$name -o a plain file" "exit 0 and the file" "exit $rc, stderr: $(file_oneline "$err")"
        return 0
    fi
    pass
    : >"$d/real"
    ln -s real "$d/link"
    run_to "$d/link" "$@"
    if [ "$rc" -eq 0 ] && [ -L "$d/link" ] && cmp -s "$d/plain" "$d/real"; then pass; else
        fail "$name -o a symlink" "exit 0, the link kept and the file it names written" \
            "exit $rc, $(ls -l "$d" | tr '\n' '|'), stderr: $(file_oneline "$err")"
    fi
    ln -s sub/new "$d/dangling"
    run_to "$d/dangling" "$@"
    if [ "$rc" -eq 0 ] && [ -L "$d/dangling" ] && cmp -s "$d/plain" "$d/sub/new"; then pass; else
        fail "$name -o a dangling symlink" "exit 0, the link kept and the file it names created" \
            "exit $rc, stderr: $(file_oneline "$err")"
    fi
    mkfifo "$d/fifo"
    timeout 60 cat "$d/fifo" >"$d/from-fifo" &
    reader=$!
    run_to "$d/fifo" "$@"
    # A command that never opened the FIFO leaves the reader waiting for a writer.
    if [ "$rc" -ne 0 ] || [ ! -p "$d/fifo" ]; then kill "$reader" 2>/dev/null; fi
    wait "$reader" 2>/dev/null
    if [ "$rc" -eq 0 ] && [ -p "$d/fifo" ] && cmp -s "$d/plain" "$d/from-fifo"; then pass; else
        fail "$name -o a FIFO" "exit 0, the bytes through the FIFO, which stays one" \
            "exit $rc, $(ls -l "$d" | tr '\n' '|'), stderr: $(file_oneline "$err")"
    fi
    if [ -n "$device" ]; then
        run_to "$device" "$@"
        if [ "$rc" -eq 0 ] && [ -c "$device" ]; then pass; else
            fail "$name -o a character device ($device)" "exit 0, still a character device" \
                "exit $rc, $(ls -l "$device"), stderr: $(file_oneline "$err")"
        fi
    fi
    run_to "$d" "$@"
    if [ "$rc" -eq 2 ] && [ "$(awk 'END { print NR }' "$err")" -eq 1 ] && grep -q folder "$err"; then pass; else
        fail "$name -o a folder" "exit 2 and one line naming the folder" "exit $rc, stderr: $(file_oneline "$err")"
    fi
    leftovers=$(ls -a "$d" "$d/sub" | grep -F .tmp)
    check "$name: no temporary files left" "" "$leftovers"
    (
        cd "$d" || exit 1
        run_to - "$@"
        if [ "$to_stdout" = stdout ]; then
            if [ "$rc" -eq 0 ] && [ ! -e ./- ] && cmp -s "$d/plain" "$out"; then pass; else
                fail "$name -o -" "exit 0, the bytes on stdout, no file '-'" "exit $rc, stderr: $(file_oneline "$err")"
            fi
        elif [ "$rc" -eq 2 ] && [ ! -e ./- ] && grep -q stdout "$err"; then pass; else
            fail "$name -o -" "exit 2 saying stdout is taken" "exit $rc, stderr: $(file_oneline "$err")"
        fi
        echo "$passed $failed" >"$d.count"
    )
    read -r passed failed <"$d.count"
}

section_outputs() {
    case $L in /*) ;; *) L=$(pwd)/$L ;; esac
    outputs=$tmp/outputs
    mkdir -p "$outputs"
    # A character device to write to without risk: a null device of our own where mknod works
    # (root), else /dev/null when a rename over it would be refused anyway (not root).
    device=""
    if mknod "$outputs/null" c 1 3 2>/dev/null; then
        device=$outputs/null
    elif [ "$(id -u)" -ne 0 ]; then
        device=/dev/null
    fi
    rec=$outputs/games.lrec
    run_ok selfplay --games 2 --visits 8 --size 5x6 --seed 3 --out "$rec" || return 0
    printf 'a b 1-0\nb a 1/2-1/2\nc a 0-1\n' >"$outputs/results.txt"
    loop=$outputs/loop
    mkdir -p "$loop/gen1"
    echo '{"log_loss":{"train":{"before":0.69,"after":0.6},"validation":{"before":0.7,"after":0.65}}}' \
        >"$loop/gen1/tune.json"
    echo promoted >"$loop/gen1/verdict"
    printf 'gen1 gen0 1-0\ngen0 gen1 1/2-1/2\n' >"$loop/gen1/match.txt"

    output_checks render stdout render --variant crossings --arrows 3 -o @OUT@
    output_checks view stdout view "$rec" -o @OUT@
    output_checks export stdout records export "$rec" -o @OUT@
    output_checks info refused records info "$rec" --svg @OUT@
    output_checks ratings refused ratings "$outputs/results.txt" --svg @OUT@
    output_checks chart stdout chart training "$loop" -o @OUT@
    output_checks merge stdout records merge @OUT@ "$rec"
    output_checks results refused match random greedy --games 2 --size 5x6 --results @OUT@
    output_checks openings stdout match --make-openings 2 --visits 8 --size 5x6 --out @OUT@

    # canonicalize rewrites the file a symlink names, and keeps the link
    cp "$rec" "$outputs/real.lrec"
    ln -s real.lrec "$outputs/link.lrec"
    run records canonicalize "$outputs/link.lrec"
    if [ "$rc" -eq 0 ] && [ -L "$outputs/link.lrec" ] && [ -f "$outputs/real.lrec" ]; then pass; else
        fail "records canonicalize a symlink" "exit 0, the link kept" "exit $rc, stderr: $(file_oneline "$err")"
    fi
    # A records file is a regular file: created through a dangling symlink, refused on a device
    # or a FIFO (to resume one would wait for ever).
    ln -s made.lrec "$outputs/to-made.lrec"
    run selfplay --games 1 --visits 8 --size 5x6 --out "$outputs/to-made.lrec"
    if [ "$rc" -eq 0 ] && [ -L "$outputs/to-made.lrec" ] && [ -f "$outputs/made.lrec" ]; then pass; else
        fail "selfplay --out a dangling symlink" "exit 0, the file it names created" "exit $rc, stderr: $(file_oneline "$err")"
    fi
    mkfifo "$outputs/games.fifo"
    if [ -n "$device" ]; then
        expect_error "not a regular file" selfplay --games 1 --visits 8 --size 5x6 --out "$device"
    fi
    expect_error "not a regular file" selfplay --games 1 --visits 8 --size 5x6 --out "$outputs/games.fifo"
    "$L" selfplay --games 1 --visits 8 --size 5x6 --out "$outputs/games.fifo" --resume </dev/null >"$out" 2>"$err" &
    player=$!
    ( sleep 20; kill "$player" 2>/dev/null ) &
    watchdog=$!
    wait "$player"
    rc=$?
    kill "$watchdog" 2>/dev/null
    if [ "$rc" -eq 2 ] && grep -q "not a regular file" "$err"; then pass; else
        fail "selfplay --resume --out a FIFO" "exit 2: not a regular file" "exit $rc, stderr: $(file_oneline "$err")"
    fi
}

# --- no output is an input or another output ------------------------------------------------------

# expect_kept KEYWORD FILE ARGS...: refused (expect_error) and FILE's bytes as they were.
expect_kept() {
    key=$1 kept=$2
    shift 2
    cp "$kept" "$kept.before"
    expect_error "$key" "$@"
    cmdline "$@"
    cmp -s "$kept" "$kept.before" && pass || fail "$what" "$kept unchanged" "changed"
}

section_same() {
    d=$tmp/same
    mkdir -p "$d"
    rec=$d/games.lrec
    run_ok selfplay --games 2 --visits 8 --size 5x6 --seed 3 --out "$rec" || return 0
    ln -s games.lrec "$d/link.lrec"
    ln "$rec" "$d/hard.lrec"
    expect_kept "same file" "$rec" records export "$rec" -o "$rec"
    expect_kept "same file" "$rec" records export "$rec" -o "$d/link.lrec"
    expect_kept "same file" "$rec" records export "$rec" -o "$d/hard.lrec"
    expect_kept "same file" "$rec" view "$rec" -o "$rec"
    expect_kept "same file" "$rec" view "$d/link.lrec" -o "$d/hard.lrec"
    expect_kept "same file" "$rec" render --records "$rec" --game 0 -o "$rec"
    expect_kept "same file" "$rec" records info "$rec" --svg "$rec"
    printf 'a b 1-0\nb a 1/2-1/2\n' >"$d/results.txt"
    expect_kept "same file" "$d/results.txt" ratings "$d/results.txt" --svg "$d/results.txt"
    mkdir -p "$d/loop/gen1"
    echo '{"log_loss":{"train":{"before":0.69,"after":0.6},"validation":{"before":0.7,"after":0.65}}}' \
        >"$d/loop/gen1/tune.json"
    echo promoted >"$d/loop/gen1/verdict"
    printf 'gen1 gen0 1-0\ngen0 gen1 1/2-1/2\n' >"$d/loop/gen1/match.txt"
    expect_kept "same file" "$d/loop/gen1/match.txt" chart training "$d/loop" -o "$d/loop/gen1/match.txt"
    # '-' is the file stdout is: appended to an input, the input would be rewritten as it is read
    cp "$rec" "$rec.before"
    "$L" records export "$rec" -o - >>"$rec" 2>"$err"
    rc=$?
    cmp -s "$rec" "$rec.before" && [ "$rc" -eq 2 ] && grep -q "same file" "$err" && pass ||
        fail "records export FILE -o - >>FILE" "exit 2, FILE kept" "exit $rc, stderr: $(file_oneline "$err")"
    "$L" records merge - "$rec" >>"$rec" 2>"$err"
    rc=$?
    cmp -s "$rec" "$rec.before" && [ "$rc" -eq 2 ] && pass ||
        fail "records merge - FILE >>FILE" "exit 2, FILE kept" "exit $rc, stderr: $(file_oneline "$err")"
    # what stays allowed: merging into one of the inputs (it is read whole first), two reads of one file
    run_ok records merge "$d/merged.lrec" "$rec" && run_ok records merge "$d/merged.lrec" "$d/merged.lrec" "$rec" && pass
    run records export "$rec" "$d/link.lrec" -o "$d/twice.csv"
    check "records export FILE LINK-TO-FILE -o OUT (one input twice)" 0 "$rc"
}

# --- inputs that never end: refused after the first bytes that show what they are ----------------

# expect_bounded KEYWORD ARGS...: with 64 MiB of zeros on stdin (ARGS name /dev/stdin or '-'),
# exit 2, one line mentioning KEYWORD, and at most 4 MiB taken from the stream: a weights file,
# results or an opening suite is refused by its size or its first line, not read to its end.
expect_bounded() {
    key=$1; shift
    (trap '' PIPE; dd if=/dev/zero bs=64k count=1024 2>"$tmp/dd.log") | "$L" "$@" >"$out" 2>"$err"
    rc=$?
    taken=$(awk '/bytes/ { print $1 }' "$tmp/dd.log")
    cmdline "$@"
    if [ "$rc" -eq 2 ] && [ "$(awk 'END { print NR }' "$err")" -eq 1 ] && grep -qF -e "$key" "$err" &&
        [ "${taken:-0}" -le 4194304 ]; then pass; else
        fail "$what <endless zeros" "exit 2, one line with '$key', at most 4 MiB read" \
            "exit $rc, ${taken:-?} bytes read, stderr: $(file_oneline "$err")"
    fi
}

section_endless() {
    expect_bounded "longer than 1048576 bytes" analyze --weights /dev/stdin --visits 10
    expect_bounded "line longer than" ratings -
    expect_bounded "line longer than" match random random --variant crossings --openings /dev/stdin --games 2
    # a text weights file is refused by its size before it is read
    truncate -s 900M "$tmp/huge.txt" 2>/dev/null || return 0
    expect_error "longer than 1048576 bytes (943718400)" analyze --weights "$tmp/huge.txt" --visits 10
    rm -f "$tmp/huge.txt"
}

# --- stdout that cannot take the output ----------------------------------------------------------

# expect_lost ARGS...: with stdout on /dev/full, exit 1 and one line on stderr about stdout (a
# dump, report or help text that never arrived is no success).
expect_lost() {
    "$L" "$@" >/dev/full 2>"$err"
    rc=$?
    cmdline "$@"
    if [ "$rc" -eq 1 ] && [ "$(awk 'END { print NR }' "$err")" -eq 1 ] && grep -q stdout "$err"; then pass; else
        fail "$what >/dev/full" "exit 1, one line about stdout" "exit $rc, stderr: $(file_oneline "$err")"
    fi
}

section_full() {
    [ -c /dev/full ] || return 0
    rec=$tmp/full.lrec
    run_ok selfplay --games 2 --visits 8 --size 5x6 --seed 3 --out "$rec" || return 0
    expect_lost records dump "$rec"
    expect_lost records info --json "$rec"
    expect_lost records export "$rec" -o -
    expect_lost moves
    expect_lost perft 2
    expect_lost analyze --json --visits 20
    expect_lost match random greedy --games 2 --size 5x6
    expect_lost match random greedy --games 2 --size 5x6 --json
    expect_lost --help
    expect_lost records dump --help
    expect_lost render --variant crossings
    # stdout closed and nothing written to it is no failure
    "$L" records verify "$rec" >&- 2>"$err"
    check "records verify with stdout closed (exit 1: it writes a verdict)" 1 "$?"
    "$L" records export "$rec" -o "$tmp/full.csv" >&- 2>"$err"
    check "records export -o FILE with stdout closed" 0 "$?"
}

# --- numbers: strict decimals everywhere ----------------------------------------------------------

# Every number read from an argument, a spec or a file is a plain decimal (core/number.h): no
# blanks around it, no hex, no inf or nan, no lone sign, nothing too large for a double.
section_numbers() {
    expect_error "DEPTH" perft ' 3'
    expect_error "DEPTH" perft '3 '
    expect_error "DEPTH" perft 0x3
    expect_error "--visits" analyze --visits ' 50'
    expect_error "--visits" analyze --visits 1e3
    expect_error "--time" analyze --time -1
    expect_error "--time" analyze --time nan
    expect_error "--time" analyze --time ' 1.5'
    expect_error "--threads" perft 1 --threads '+'
    expect_error "--games" view x.lrec --games ' 1-2' -o x.html
    expect_error "--anchor-elo" ratings --anchor-elo 0x10 /dev/null
    expect_error "--anchor-elo" ratings --anchor-elo inf /dev/null
    expect_error "--anchor-elo" ratings --anchor-elo -nan /dev/null
    expect_error "--confidence" ratings --confidence 0x1.8p-1 /dev/null
    expect_error "--confidence" ratings --confidence ' 0.9' /dev/null
    expect_error "--sprt elo0" match random greedy --sprt elo0=0x1
    expect_error "--sprt alpha" match random greedy --sprt alpha=-
    expect_error "visits" match mcts:visits=0x10 random --games 2
    expect_error "time" match mcts:time=inf random --games 2
    expect_error "cpuct" match mcts:cpuct=1e999 random --games 2
    # chart training: a tune.json's log-losses are finite numbers from 0 to 745 (no double
    # probability loses more), or null; the message names the file and the line
    loop=$tmp/numbers-loop
    mkdir -p "$loop/gen1"
    echo promoted >"$loop/gen1/verdict"
    printf 'gen1 gen0 1-0\ngen0 gen1 1/2-1/2\n' >"$loop/gen1/match.txt"
    for bad in '-inf' 'nan' 'NaN' '1e308' '-' '-0.5' '0x1p-1' 'Infinity' '+' '1e999'; do
        printf '{"log_loss": {"train": {"before": 0.69, "after": 0.6},\n "validation": {"before": %s, "after": 0.65}}}\n' \
            "$bad" >"$loop/gen1/tune.json"
        expect_error "gen1/tune.json:2:" chart training "$loop"
    done
    printf '{"log_loss": {"train": {"before": 0.69, "after": null},\n "validation": {"before": 0.7, "after": 0.65}}}\n' \
        >"$loop/gen1/tune.json"
    run_ok chart training "$loop" && pass
}

# --- text: byte order marks and UTF-8 ------------------------------------------------------------

# xml_ok FILE / json_ok FILE: the file parses as XML / JSON, read as UTF-8 (no invalid bytes).
xml_ok() { python3 -c 'import sys, xml.dom.minidom; xml.dom.minidom.parse(sys.argv[1])' "$1" 2>/dev/null; }
json_ok() { python3 -c 'import sys, json; json.load(open(sys.argv[1], encoding="utf-8"))' "$1" 2>/dev/null; }

section_text() {
    d=$tmp/text
    mkdir -p "$d"
    # A byte order mark is no part of the first player's name: a and b, two players, not three.
    printf '\357\273\277a b 1-0\nb a 0-1\na b 1/2-1/2\n' >"$d/bom.txt"
    if run_ok ratings "$d/bom.txt" --json; then
        check "ratings: a BOM is not part of a name" '"name":"a" "name":"b"' \
            "$(grep -o '"name":"[^"]*"' "$out" | sort | tr '\n' ' ' | sed 's/ $//')"
    fi
    run_ok ratings "$d/bom.txt" --anchor a >/dev/null && pass
    # A name that is not UTF-8 is refused with the file and the line; good UTF-8 is kept, and the
    # chart of it is XML.
    printf 'a b 1-0\ncaf\351 b 1-0\n' >"$d/latin1.txt"
    expect_error "latin1.txt:2: invalid UTF-8" ratings "$d/latin1.txt"
    printf '\300\257 b 1-0\n' >"$d/overlong.txt"
    expect_error "overlong.txt:1: invalid UTF-8" ratings "$d/overlong.txt"
    printf 'a \355\240\200 1-0\n' >"$d/surrogate.txt"
    expect_error "surrogate.txt:1: invalid UTF-8" ratings "$d/surrogate.txt"
    printf 'a \364\220\200\200 1-0\n' >"$d/too-high.txt"
    expect_error "too-high.txt:1: invalid UTF-8" ratings "$d/too-high.txt"
    printf 'a b\357\273\277 1-0\n' >"$d/inner-bom.txt"
    expect_error "inner-bom.txt:1:" ratings "$d/inner-bom.txt"
    printf 'caf\303\251 b 1-0\n\346\227\245 caf\303\251 1/2-1/2\n' >"$d/utf8.txt"
    if run_ok ratings "$d/utf8.txt" --svg "$d/utf8.svg" --json; then
        if grep -q 'caf' "$out" && xml_ok "$d/utf8.svg" && json_ok "$out"; then pass; else
            fail "ratings of UTF-8 names" "valid JSON and XML with the names" "$(file_oneline "$out")"
        fi
    fi
    # Names from the command line (match) are checked as those from files are.
    expect_error "--name1" match random greedy --games 2 --name1 "$(printf 'caf\351')"
    run match random greedy --games 2 --size 5x6 --json --name1 'say"hi\' --name2 "$(printf '\346\227\245')"
    if [ "$rc" -eq 0 ] && json_ok "$out"; then pass; else
        fail "match --json with a quote and a backslash in a name" "valid JSON" "exit $rc: $(file_oneline "$out")"
    fi
    # Paths are bytes: whatever they hold, the SVG and JSON that show them stay valid.
    bad=$d/$(printf 'run\377\376')
    mkdir -p "$bad/gen1"
    echo '{"log_loss":{"train":{"before":0.69,"after":0.6},"validation":{"before":0.7,"after":0.65}}}' \
        >"$bad/gen1/tune.json"
    echo promoted >"$bad/gen1/verdict"
    printf 'gen1 gen0 1-0\ngen0 gen1 1/2-1/2\n' >"$bad/gen1/match.txt"
    run_ok chart training "$bad" -o "$d/chart.svg" && { if xml_ok "$d/chart.svg"; then pass; else
        fail "chart training of a folder whose name is not UTF-8" "valid XML" "$(head -c 300 "$d/chart.svg")"; fi; }
    run_ok selfplay --games 1 --visits 8 --size 5x6 --out "$bad/games.lrec" || return 0
    run_ok records info "$bad/games.lrec" --svg "$d/info.svg" && { if xml_ok "$d/info.svg"; then pass; else
        fail "records info --svg of a file whose name is not UTF-8" "valid XML" "$(head -c 300 "$d/info.svg")"; fi; }
    run_ok records info "$bad/games.lrec" --json && { if json_ok "$out"; then pass; else
        fail "records info --json of a file whose name is not UTF-8" "valid JSON" "$(file_oneline "$out")"; fi; }
}

# --- '--' ends the options ------------------------------------------------------------------------

section_dashes() {
    case $L in /*) ;; *) L=$(pwd)/$L ;; esac
    d=$tmp/dashes
    mkdir -p "$d"
    cd "$d" || return 0
    expect_out ongoing status --
    expect_last 60 perft --variant crossings -- 1
    expect_error "DEPTH" perft -- -1
    expect_error "unexpected argument '--variant'" moves -- --variant reversi
    expect_error "unexpected argument" show -- x
    expect_out 'BBBBBBBBBBBBBB/BBBBBBBBBBBBBB/14/14/14/14/14/14/14/W13/1WWWWWWWWWWWWW/WWWWWWWWWWWWWW b' apply -- a2-a3
    # paths that start with '-'
    run_ok selfplay --games 2 --visits 8 --size 5x6 --out ./-games.lrec || return 0
    expect_contains "(indices 0-1)" records info -- -games.lrec
    expect_contains "ok" records verify -- -games.lrec
    expect_lines 2 records dump -- -games.lrec
    run records export -o -rows.csv -- -games.lrec
    check "records export -- -games.lrec" "0 yes" "$rc $([ -s ./-rows.csv ] && echo yes)"
    run_ok view -o -page.html -- -games.lrec && check "view -- -games.lrec" yes "$([ -s ./-page.html ] && echo yes)"
    run_ok records merge -- -merged.lrec -games.lrec && check "records merge -- -merged.lrec" yes "$([ -s ./-merged.lrec ] && echo yes)"
    run_ok records canonicalize -- -merged.lrec && pass
    printf 'a b 1-0\nb a 1/2-1/2\n' >./-results.txt
    expect_contains "anchor" ratings -- -results.txt
    expect_contains "anchor" ratings - <./-results.txt
    mkdir -p ./-loop/gen1
    echo '{"log_loss":{"train":{"before":0.69,"after":0.6},"validation":{"before":0.7,"after":0.65}}}' >./-loop/gen1/tune.json
    echo promoted >./-loop/gen1/verdict
    printf 'gen1 gen0 1-0\ngen0 gen1 1/2-1/2\n' >./-loop/gen1/match.txt
    expect_contains "<svg" chart training -- -loop
    # a board size is WxH exactly: no blanks, signs or doubled separators
    for bad in ' 5x5' '5x5 ' '5x 5' '5 x5' '+5x5' '5xx5' '5x+5' 'x5' '5x' '0005x5'; do
        expect_error "size" moves --size "$bad"
    done
    expect_lines 26 moves --size 5X5
}

# --- tests/run.sh's own accounting ---------------------------------------------------------------

# A runner that counts no failure but exits with a failure status (a crash after its summary, a
# check outside the counts) fails the whole run: run.sh read tee's status, not the runner's.
section_runner() {
    r=$tmp/runner
    mkdir -p "$r"
    printf '#!/bin/sh\necho "3 passed, 0 failed"\nexit 3\n' >"$r/exits-3.sh"
    chmod +x "$r/exits-3.sh"
    LEUCTRA_TEST_ONLY="$r/exits-3.sh" UNIT=unused LEUCTRA="$L" sh "$tests_dir/../run.sh" >"$out" 2>"$err"
    check "run.sh with a runner that exits 3" "1 total: 3 passed, 1 failed" "$? $(tail -n 1 "$out")"
}

# --- network: the AVX2 and the plain path give the same searches --------------------------------

# The shipped Crossings weights carry a network, whose priors every Crossings search of `bench`
# reads; LEUCTRA_SIMD=0 makes the same binary take the plain path (core/network_simd.c).
section_network() {
    run_ok bench --visits 3000 || return 0
    fast=$(grep '^signature' "$out")
    LEUCTRA_SIMD=0 "$L" bench --visits 3000 >"$out" 2>"$err"
    check "LEUCTRA_SIMD=0: bench exits 0" 0 "$?"
    case $fast in signature*nodes*) ;; *) fail "bench prints a signature" "signature ..." "$fast" ;; esac
    check "the plain network path gives the AVX2 path's bench signature" "$fast" "$(grep '^signature' "$out")"
}

# --- running the sections ----------------------------------------------------------------------

# Each section runs in its own subshell with its own files and counters; two workers share them
# out so that the sanitizer build stays quick on two cores.  The logs print in section order.
run_section() {
    (
        out=$tmp/$1.out
        err=$tmp/$1.err
        passed=0
        failed=0
        "section_$1"
        echo "$passed $failed" >"$tmp/$1.count"
    ) >"$tmp/$1.log" 2>&1
}

{ run_section perft; run_section apply; run_section outputs; } &
worker=$!
run_section errors
run_section help
run_section status
run_section moves
run_section show
run_section size
run_section solve
run_section numbers
run_section text
run_section dashes
run_section full
run_section same
run_section endless
run_section network
run_section runner
wait "$worker"

passed=0
failed=0
for s in moves perft status apply show size help errors outputs numbers text dashes solve full same endless network runner; do
    cat "$tmp/$s.log" 2>/dev/null
    if [ -f "$tmp/$s.count" ]; then
        read -r p f <"$tmp/$s.count"
        passed=$((passed + p))
        failed=$((failed + f))
    else
        echo "FAIL section $s stopped before its end"
        failed=$((failed + 1))
    fi
done

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
