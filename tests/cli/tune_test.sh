#!/bin/sh
# tune_test.sh - end-to-end tests of `leuctra tune` on small records files that the unit tests
# leave in DIR (tests/unit/test_tune_data.c, test `fixtures`): a fit writes a weights file the engine
# reads back, with provenance; --json is valid JSON; the weights are the same with 1 and 2
# threads; and every kind of bad input ends with one line on stderr and exit 2 (damaged data:
# exit 1).
#
#   LEUCTRA=build/leuctra sh tests/cli/tune_test.sh DIR
#
# Prints one line per failed check, ends with "N passed, N failed", exits non-zero on failure.
set -u
: "${LEUCTRA:?set LEUCTRA to the leuctra binary}"
L=$LEUCTRA
here=$(cd "$(dirname "$0")" && pwd)
fixtures=${1:?usage: tune_test.sh FIXTURES_DIR}
E=$fixtures/tune-epaminondas.lrec
C=$fixtures/tune-crossings.lrec
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT
out=$tmp/out
err=$tmp/err
passed=0
failed=0

oneline() { tr '\n' '|' <"$1" | cut -c1-300; }
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL %s: %s\n' "$1" "$2"; }

# expect STATUS WHAT ARGS...: leuctra exits STATUS; for a failure (STATUS > 0) nothing on stdout
# and exactly one line on stderr, which contains WHAT (a fixed string); for success nothing on
# stderr and WHAT on stdout.
expect() {
    status=$1 what=$2
    shift 2
    "$L" "$@" >"$out" 2>"$err"
    rc=$?
    problems=""
    [ "$rc" -ne "$status" ] && problems="exit $rc;"
    if [ "$status" -eq 0 ]; then
        [ -s "$err" ] && problems="$problems stderr: $(oneline "$err");"
        grep -qF -e "$what" "$out" || problems="$problems stdout lacks '$what';"
    else
        [ -s "$out" ] && problems="$problems stdout: $(oneline "$out");"
        [ "$(awk 'END { print NR }' "$err")" -ne 1 ] && problems="$problems not one line on stderr;"
        grep -qF -e "$what" "$err" || problems="$problems stderr lacks '$what': $(oneline "$err");"
    fi
    if [ -z "$problems" ]; then pass; else fail "leuctra $*" "$problems"; fi
}

# check WHAT CONDITION-RESULT: counts a shell test's outcome.
check() { if [ "$2" -eq 0 ]; then pass; else fail "$1" "check failed"; fi; }

if [ ! -f "$E" ] || [ ! -f "$C" ]; then
    echo "FAIL fixtures: $E or $C missing (run the unit tests with LEUCTRA_RECORDS_FIXTURES=$fixtures)"
    echo "0 passed, 1 failed"
    exit 1
fi

# --- a fit ---------------------------------------------------------------------------------------

expect 0 "example: leuctra tune" tune --help
expect 0 "wrote $tmp/w1.txt" tune --data "$E" --out "$tmp/w1.txt" --threads 1
grep -q '^# leuctra weights' "$tmp/w1.txt" && grep -q '^# command: leuctra tune --data' "$tmp/w1.txt" &&
    grep -q '^# log-loss validation: ' "$tmp/w1.txt" && grep -q '^game epaminondas$' "$tmp/w1.txt"
check "provenance comments in the weights file" $?
[ "$(grep -cv '^#' "$tmp/w1.txt")" -eq 19 ]
check "a game line and 18 weights" $?
# --note: its lines join the provenance; a line longer than a weights file's 1024 is cut, so the
# file reads back; a control character is refused
long=$(printf '%02000d' 7)
expect 0 "wrote $tmp/note.txt" tune --data "$E" --out "$tmp/note.txt" --threads 1 --note "made for the test
$long"
grep -q '^# made for the test$' "$tmp/note.txt" && [ "$(awk 'length($0) > 1024' "$tmp/note.txt" | wc -l)" -eq 0 ] &&
    grep -v "^#" "$tmp/note.txt" >"$tmp/a" && grep -v "^#" "$tmp/w1.txt" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b"
check "--note: its lines in the comments, none over 1024, the same weights" $?
expect 0 "best" analyze --weights "$tmp/note.txt" --size 8x8 --visits 50
expect 2 "--note: a control character (byte 27) at offset 1" tune --data "$E" --out "$tmp/x.txt" --note "$(printf 'a\033b')"
expect 0 "best" analyze --weights "$tmp/w1.txt" --size 8x8 --visits 50
expect 0 "wrote $tmp/w2.txt" tune --data "$E" --out "$tmp/w2.txt" --threads 2
grep -v '^#' "$tmp/w1.txt" >"$tmp/a" && grep -v '^#' "$tmp/w2.txt" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b"
check "the same weights with 1 and 2 threads" $?
expect 0 '"weights":[' tune --data "$E" --out "$tmp/w3.txt" --json --lambda 0.5 --l2 2 --skip-opening 2 \
    --validation 0.2 --max-iterations 20 --init "$tmp/w1.txt"
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert len(d["weights"]) == 18 and d["positions"]["used"] > 0, d
assert d["options"]["lambda"] == 0.5 and d["options"]["skip_opening"] == 2
assert d["log_loss"]["train"]["after"] <= d["log_loss"]["train"]["before"] + 1e-9
' "$out"
check "--json is one valid JSON object with the report" $?
# A default thread count from the environment is capped as --threads is: libgomp cannot make
# 100,000 threads and crashed when asked to.
OMP_NUM_THREADS=100000 "$L" tune --data "$E" --out "$tmp/w-omp.txt" >"$out" 2>"$err"
rc=$?
grep -v '^#' "$tmp/w-omp.txt" >"$tmp/b" 2>/dev/null
[ "$rc" -eq 0 ] && cmp -s "$tmp/a" "$tmp/b"
check "OMP_NUM_THREADS=100000 tune: capped, the same weights (exit $rc)" $?
# A data file's name is bytes; the JSON that names it is still UTF-8 JSON.
odd=$tmp/$(printf 'caf\351.lrec')
cp "$E" "$odd"
"$L" tune --data "$odd" --out "$tmp/w4.txt" --json >"$out" 2>"$err" &&
    python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' "$out"
check "--json of a data file whose name is not UTF-8 is valid JSON" $?

# --- --out through a symlink, into a FIFO, to stdout --------------------------------------------

# The same weights (the lines that are no comments) wherever --out leads; a symlink stays one and
# its file is replaced, a FIFO stays one, and '-' is stdout, with the report on stderr.
: >"$tmp/real.txt"
ln -s real.txt "$tmp/link.txt"
expect 0 "wrote $tmp/link.txt" tune --data "$E" --out "$tmp/link.txt" --threads 1
grep -v '^#' "$tmp/real.txt" >"$tmp/b" && [ -L "$tmp/link.txt" ] && cmp -s "$tmp/a" "$tmp/b"
check "--out a symlink: the link kept, its file holds the weights" $?
mkfifo "$tmp/weights.fifo"
timeout 120 cat "$tmp/weights.fifo" >"$tmp/from-fifo" &
reader=$!
"$L" tune --data "$E" --out "$tmp/weights.fifo" --threads 1 >"$out" 2>"$err"
rc=$?
[ "$rc" -ne 0 ] || [ ! -p "$tmp/weights.fifo" ] && kill "$reader" 2>/dev/null
wait "$reader" 2>/dev/null
grep -v '^#' "$tmp/from-fifo" >"$tmp/b"
[ "$rc" -eq 0 ] && [ -p "$tmp/weights.fifo" ] && cmp -s "$tmp/a" "$tmp/b"
check "--out a FIFO: the weights through it, and it stays a FIFO" $?
here_l=$L
case $here_l in /*) ;; *) here_l=$(pwd)/$L ;; esac
(cd "$tmp" && "$here_l" tune --data "$E" --out - --threads 1 >"$out" 2>"$err")
rc=$?
grep -v '^#' "$out" >"$tmp/b"
[ "$rc" -eq 0 ] && [ ! -e "$tmp/-" ] && cmp -s "$tmp/a" "$tmp/b" && grep -q "^wrote stdout" "$err"
check "--out -: the weights on stdout, the report on stderr, no file '-'" $?
# After '--' the arguments are data files, whatever they start with.
cp "$E" "$tmp/-dash.lrec"
(cd "$tmp" && "$here_l" tune --out w5.txt --threads 1 -- -dash.lrec >"$out" 2>"$err")
rc=$?
grep -v '^#' "$tmp/w5.txt" >"$tmp/b" 2>/dev/null
[ "$rc" -eq 0 ] && cmp -s "$tmp/a" "$tmp/b"
check "tune --out W -- -dash.lrec reads the data file" $?

# --- Igfip: records of its own self-play, fitted and read back ----------------------------------

I=$tmp/igfip.lrec
"$L" selfplay --variant igfip --size 8x8 --visits 20 --games 60 --seed 5 --out "$I" --quiet >"$out" 2>"$err" &&
    [ -f "$I" ] && [ ! -s "$out" ] && [ ! -s "$err" ]
check "igfip self-play records" $?
expect 0 "wrote $tmp/wi.txt" tune --data "$I" --out "$tmp/wi.txt" --validation 0.2
grep -q '^game igfip$' "$tmp/wi.txt" && [ "$(grep -cv '^#' "$tmp/wi.txt")" -eq 19 ]
check "igfip weights: a game line and 18 weights" $?
expect 0 "best" analyze --variant igfip --weights "$tmp/wi.txt" --size 8x8 --visits 50
expect 2 "igfip 8x8 records, but" tune --data "$E" "$I" --out "$tmp/x.txt"
expect 2 "weights are for epaminondas, this game is igfip" tune --data "$I" --out "$tmp/x.txt" \
    --init "$here/../../data/weights/epaminondas.txt"
expect 2 "weights are for igfip" analyze --weights "$tmp/wi.txt" --visits 10
# --- pattern tables and learned priors (Reversi) ----------------------------------------------

R=$tmp/reversi.lrec
"$L" selfplay --variant reversi --games 60 --visits 60 --seed 3 --threads 2 --quiet --out "$R" >/dev/null 2>&1
expect 0 "tables and weights:" tune --data "$R" --tables --epochs 3 --out "$tmp/t1.lwt" --threads 1
expect 0 "tables and weights:" tune --data "$R" --tables --epochs 3 --out "$tmp/t2.lwt" --threads 2
[ "$(head -c 4 "$tmp/t1.lwt" | od -An -tx1 | tr -d ' ')" = 894c5754 ]
check "--tables writes a table file" $?
# The id line of the text part hashes every weight and table entry.
[ "$(grep -a '^# id ' "$tmp/t1.lwt")" = "$(grep -a '^# id ' "$tmp/t2.lwt")" ] && grep -aq '^# id ' "$tmp/t1.lwt"
check "the same tables with 1 and 2 threads" $?
expect 0 "best" analyze --variant reversi --weights "$tmp/t1.lwt" --visits 50
expect 0 '"epochs":[' tune --data "$R" --tables --epochs 2 --out "$tmp/t3.lwt" --json
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
e = d["fit"]["epochs"]
assert d["fit"]["method"] == "adam" and d["options"]["tables"] and len(e) == 3, d["fit"]
assert all(x["train"] > 0 and x["validation"] > 0 for x in e), e
assert sum(x["epoch"] == d["fit"]["best_epoch"] for x in e) == 1
' "$out"
check "tune --tables --json reports the log-losses of every epoch" $?
expect 0 "top-1, validation" tune --data "$R" --init "$tmp/t1.lwt" --priors --priors-min-visits 20 \
    --max-iterations 0 --out "$tmp/p.lwt"
expect 0 '"priors":{' tune --data "$R" --priors --priors-min-visits 20 --out "$tmp/p2.lwt" --json
python3 -c '
import json, sys
p = json.load(open(sys.argv[1]))["priors"]
assert p["positions_train"] > 0 and 0 <= p["validation"]["after"]["top1"] <= 1, p
assert p["train"]["after"]["cross_entropy"] < p["train"]["before"]["cross_entropy"], p
' "$out"
check "tune --priors --json reports top-1 and log-evidence" $?
expect 0 "best" analyze --variant reversi --weights "$tmp/p.lwt" --visits 50
cp "$tmp/p.lwt" "$tmp/cut.lwt"
truncate -s 1000 "$tmp/cut.lwt"
expect 2 "truncated weights file" analyze --variant reversi --weights "$tmp/cut.lwt" --visits 50
cp "$tmp/p.lwt" "$tmp/flip.lwt"
printf '\377' | dd of="$tmp/flip.lwt" bs=1 seek=2000 conv=notrunc 2>/dev/null
expect 2 "checksum mismatch" analyze --variant reversi --weights "$tmp/flip.lwt" --visits 50
expect 2 "the pattern tables are for reversi 8x8, not epaminondas 14x12" analyze --variant epaminondas \
    --weights "$tmp/p.lwt" --visits 50
expect 2 "the pattern tables are for reversi 8x8, not crossings 8x8" analyze --variant crossings \
    --weights "$here/../../data/weights/reversi.lwt" --visits 50
expect 2 "are for epaminondas 14x12, not epaminondas 8x8" analyze --size 8x8 \
    --weights "$here/../../data/weights/epaminondas.lwt" --visits 50
expect 2 "no positions with visit lists" tune --data "$R" --priors --priors-min-visits 100000 --out "$tmp/x.lwt"
# A table file as the start: its tables and priors are refitted with the linear weights unless told
# otherwise (the linear weights alone against fixed tables had made weaker weights, silently).
expect 0 "tables and weights:" tune --data "$R" --init "$tmp/p.lwt" --priors-min-visits 20 --epochs 2 \
    --out "$tmp/whole.lwt"
grep -q "top-1, validation" "$out"
check "a table file's priors refitted by default" $?
expect 0 "the start's pattern tables held fixed" tune --data "$R" --init "$tmp/p.lwt" --linear-only \
    --out "$tmp/lin.lwt"
grep -q "priors      the start's, kept: --linear-only" "$out"
check "--linear-only keeps the tables and the priors, and says so" $?
# The fixed tables count in the linear fit: its log-loss before the fit is the whole model's.
"$L" tune --data "$R" --init "$tmp/p.lwt" --epochs 0 --no-priors --out "$tmp/w0.lwt" >"$tmp/whole.out" 2>/dev/null
[ "$(grep '^  validation' "$out" | awk '{print $2}')" = "$(grep '^  validation' "$tmp/whole.out" | awk '{print $2}')" ]
check "--linear-only fits against the start's tables (the same log-loss before as the whole fit)" $?
"$L" tune --data "$R" --init "$tmp/p.lwt" --priors-min-visits 100000 --epochs 2 --out "$tmp/kept.lwt" \
    >"$out" 2>"$err"
[ $? -eq 0 ] && grep -q "the start's, kept: no positions with visit lists" "$out" &&
    grep -q "note: the start's learned priors are kept as they are" "$err"
check "priors the data cannot refit: kept, with a note on stderr" $?
expect 2 "--linear-only keeps the tables and priors" tune --data "$R" --linear-only --tables --out "$tmp/x.lwt"
expect 2 "which only a table file holds: name it .lwt" tune --data "$R" --tables --out "$tmp/x.txt"

# --- the phalanx games' 2-D shape families (--shapes) ---------------------------------------------

# From a file of base tables: they start the new set's base part, so the log-loss before the fit
# is that file's, and the file written holds the families.
"$L" tune --data "$C" --init "$here/../../data/weights/crossings.txt" --tables --no-priors --epochs 2 \
    --out "$tmp/cbase.lwt" >/dev/null 2>&1
check "a file of base tables for the shapes' start" $?
expect 0 "shapes base,2x4,3x3" tune --data "$C" --init "$tmp/cbase.lwt" --shapes base,2x4,3x3 --epochs 2 --no-priors \
    --out "$tmp/s1.lwt" --threads 1
grep -aq "with the tables (base,2x4,3x3) by Adam" "$tmp/s1.lwt"
check "the provenance names the shapes" $?
"$L" tune --data "$C" --init "$tmp/cbase.lwt" --epochs 0 --no-priors --out "$tmp/s0.lwt" --threads 1 \
    >"$tmp/base.out" 2>/dev/null
[ "$(grep '^  validation' "$out" | awk '{print $2}')" = "$(grep '^  validation' "$tmp/base.out" | awk '{print $2}')" ]
check "a start's base tables start the families' fit (the same log-loss before)" $?
expect 0 "best" analyze --variant crossings --weights "$tmp/s1.lwt" --visits 50
expect 0 "shapes base,2x4,3x3" tune --data "$C" --init "$tmp/s1.lwt" --epochs 1 --no-priors --out "$tmp/s2.lwt"
expect 2 "unknown family 'hex'" tune --data "$C" --shapes 2x4,hex --out "$tmp/x.lwt"
expect 2 "--linear-only keeps the tables and priors" tune --data "$C" --linear-only --shapes all --out "$tmp/x.lwt"
expect 2 "reversi on 8x8 has no pattern tables of the shapes base,2x4" tune --data "$R" --shapes base,2x4 \
    --out "$tmp/x.lwt"
expect 2 "the pattern tables are for crossings 8x8, not epaminondas 14x12" analyze \
    --weights "$tmp/s1.lwt" --visits 10

# --- a network on top of the start weights (--model net, docs/NETWORK.md) -----------------------

N=$tmp/net.lrec
"$L" selfplay --variant crossings --games 60 --visits 60 --seed 7 --threads 2 --quiet --out "$N" >/dev/null 2>&1
check "crossings self-play records for the network" $?
NET="--model net --data $N --new-network --hidden 16 --epochs 6"
expect 0 "inputs      both" tune $NET --out "$tmp/n1.lwt" --threads 1
expect 0 "wrote $tmp/n2.lwt" tune $NET --out "$tmp/n2.lwt" --threads 2
[ "$(grep -a '^# id ' "$tmp/n1.lwt")" = "$(grep -a '^# id ' "$tmp/n2.lwt")" ] && grep -aq '^# id ' "$tmp/n1.lwt"
check "--model net: the same network with 1 and 2 threads" $?
grep -aq "^# network: inputs " "$tmp/n1.lwt" && grep -aq "^# command: leuctra tune --model net" "$tmp/n1.lwt"
check "--model net: the provenance names the network and the command" $?
expect 0 '"network":{' tune $NET --inputs squares --out "$tmp/n3.lwt" --json --epochs 10
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
n = d["network"]
assert d["options"]["model"] == "net" and n["inputs"] == "squares" and n["hidden"] == 16, d["options"]
loss = n["loss"]["validation"]
assert loss["after"]["total"] < loss["before"]["total"], loss
assert n["positions_policy"]["train"] > 0 and loss["after"]["policy"] < loss["before"]["policy"], n
assert n["fit"]["epochs"][0]["epoch"] == 0 and n["fit"]["best_epoch"] > 0, n["fit"]
q = n["loss"]["quantized"]
assert q["positions"] > 0 and abs(q["quantized"]["value"] - q["float"]["value"]) < 0.01, q
' "$out"
check "tune --model net --json: the validation loss falls, the quantized network near the float one" $?
# --value-head keep and drop decide instead of the fit's judgement, and the file says which.
expect 0 "value head  dropped, the network gives priors only" tune $NET --inputs squares --epochs 1 \
    --value-head drop --out "$tmp/nd.lwt"
grep -aq "; value head dropped (--value-head drop)" "$tmp/nd.lwt"
check "--value-head drop: the provenance says the head was dropped and why" $?
expect 0 '"value_head":"kept"' tune $NET --inputs squares --epochs 1 --value-head keep --out "$tmp/nk.lwt" --json
expect 2 "--value-head must be auto, keep or drop, got 'yes'" tune $NET --value-head yes --out "$tmp/x.lwt"
expect 2 "--value-head is an option of --model net" tune --value-head drop --data "$N" --out "$tmp/x.lwt"
expect 0 "best" analyze --variant crossings --weights "$tmp/n1.lwt" --visits 50
expect 0 "games" match "mcts:visits=50,weights=$tmp/n1.lwt" mcts:visits=50 --variant crossings --games 4
# From a table file the network starts as the file alone: its value loss before the fit is the
# tables fit's before theirs, on the same positions.
"$L" tune --data "$N" --init "$here/../../data/weights/crossings.lwt" --epochs 0 --no-priors --out "$tmp/t0.lwt" \
    --json >"$tmp/tables.json" 2>"$err" &&
    "$L" tune $NET --init "$here/../../data/weights/crossings.lwt" --inputs patterns --out "$tmp/n4.lwt" \
    --json >"$tmp/net.json" 2>"$err" && python3 -c '
import json, sys
t, n = json.load(open(sys.argv[1])), json.load(open(sys.argv[2]))
before = n["network"]["loss"]["validation"]["before"]["value"]
assert abs(before - t["log_loss"]["validation"]["before"]) < 1e-9, (before, t["log_loss"])
' "$tmp/tables.json" "$tmp/net.json"
check "--model net from a table file: the start evaluates as the file" $?
# From a file with a network the fit goes on from it, with its inputs and width.
expect 0 "from the start's network" tune --model net --data "$N" --init "$tmp/n3.lwt" --epochs 1 --out "$tmp/n5.lwt"
expect 2 "--hidden 32: the start's network has H 16" tune --model net --data "$N" --init "$tmp/n3.lwt" --hidden 32 \
    --out "$tmp/x.lwt"
expect 2 "--inputs both: the start's network has the inputs squares" tune --model net --data "$N" \
    --init "$tmp/n3.lwt" --inputs both --out "$tmp/x.lwt"
# --new-network drops the start's network: a network from zero of any width on the rest.
expect 0 "H 32, from zero" tune --model net --data "$N" --init "$tmp/n3.lwt" --new-network --hidden 32 --epochs 1 \
    --out "$tmp/n6.lwt"
grep -aq "its network dropped (--new-network)" "$tmp/n6.lwt"
check "--new-network: the provenance says the start's network was dropped" $?
expect 0 "from the start's network" tune --model net --data "$N" --epochs 1 --out "$tmp/n7.lwt"
"$L" tune --data "$N" --epochs 1 --out "$tmp/k.lwt" >/dev/null 2>"$err" && grep -aq "; its network kept as it is" "$tmp/k.lwt" &&
    python3 -c 'import struct, sys; assert struct.unpack_from("<I", open(sys.argv[1], "rb").read(), 8)[0] == 2' "$tmp/k.lwt"
check "a tables fit from the shipped Crossings file keeps its network (a version 2 file) and says so" $?
expect 2 "--new-network is an option of --model net" tune --new-network --data "$N" --out "$tmp/x.lwt"
expect 2 "--model must be tables or net, got 'nn'" tune --model nn --data "$N" --out "$tmp/x.lwt"
expect 2 "it takes no --tables" tune --model net --tables --data "$N" --out "$tmp/x.lwt"
expect 2 "it takes no --l2" tune --model net --l2=2 --data "$N" --out "$tmp/x.lwt"
expect 2 "--hidden is an option of --model net" tune --hidden 16 --data "$N" --out "$tmp/x.lwt"
expect 2 "--hidden must be a multiple of 16, got 24" tune --model net --hidden 24 --data "$N" --out "$tmp/x.lwt"
expect 2 "--inputs must be patterns, squares or both, got 'cells'" tune --model net --inputs cells --data "$N" \
    --out "$tmp/x.lwt"
expect 2 "only a table file holds: name it .lwt" tune --model net --data "$N" --out "$tmp/x.txt"
[ ! -e "$tmp/x.lwt" ] && [ ! -e "$tmp/x.txt" ]
check "no weights file after a refused --model net run" $?

# --- bad input: exit 2, one line ----------------------------------------------------------------

printf 'game epaminondas\nmateriel 1\n' >"$tmp/unknown.txt"
: >"$tmp/empty.lrec"
expect 2 "no data files" tune --out "$tmp/x.txt"
expect 2 "--out WEIGHTS is required" tune --data "$E"
expect 2 "No such file" tune --data "$tmp/missing.lrec" --out "$tmp/x.txt"
expect 2 "empty.lrec" tune --data "$tmp/empty.lrec" --out "$tmp/x.txt"
expect 2 "crossings 8x8 records, but" tune --data "$E" "$C" --out "$tmp/x.txt"
expect 2 "weights are for reversi" tune --data "$E" --out "$tmp/x.txt" --init "$here/../../data/weights/reversi.txt"
expect 2 "unknown feature 'materiel'" tune --data "$E" --out "$tmp/x.txt" --init "$tmp/unknown.txt"
expect 2 "too few positions" tune --data "$E" --out "$tmp/x.txt" --skip-opening 100000
expect 2 "--lambda must be a number" tune --data "$E" --out "$tmp/x.txt" --lambda 2
expect 2 "--validation must be a number" tune --data "$E" --out "$tmp/x.txt" --validation abc
expect 2 "cannot write" tune --data "$E" --out "$tmp/no/such/dir/x.txt"
expect 2 "same file" tune --data "$E" --out "$E"
# the start weights are an input too: fitted over, they would be lost (a link to them as well)
cp "$tmp/w1.txt" "$tmp/init.txt"
ln -s init.txt "$tmp/init-link.txt"
expect 2 "--out $tmp/init-link.txt and --init $tmp/init.txt are the same file" tune --data "$E" \
    --init "$tmp/init.txt" --out "$tmp/init-link.txt"
cmp -s "$tmp/w1.txt" "$tmp/init.txt"
check "the --init weights kept" $?
expect 2 "unknown option '--frobnicate'" tune --data "$E" --out "$tmp/x.txt" --frobnicate
[ ! -e "$tmp/x.txt" ]
check "no weights file after a refused run" $?

# --- damaged data: exit 1, the file and offset named -------------------------------------------

cp "$E" "$tmp/damaged.lrec"
size=$(wc -c <"$tmp/damaged.lrec")
printf '\377\377\377\377' | dd of="$tmp/damaged.lrec" bs=1 seek=$((size / 2)) conv=notrunc 2>/dev/null
expect 1 "damaged.lrec" tune --data "$tmp/damaged.lrec" --out "$tmp/x.txt"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
