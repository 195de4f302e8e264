#!/bin/sh
# mpi_test.sh - self-play and tuning under mpirun (docs/CLUSTER.md), against the plain build:
# two processes write the very records file one process writes; a job whose ranks are killed
# mid-run, and a shard cut short inside a chunk, are completed by --resume to that same file;
# shards of another process count are refused; the tuner's weights and report under two and
# three processes are the one-process ones, bit for bit.
#
#   LEUCTRA=build/leuctra sh tests/mpi_test.sh      (builds build-mpi/leuctra with make MPI=1)
#
# Without mpicc or mpirun it says "skipped: no mpirun" (or mpicc) and counts nothing.  Prints one
# line per failed check, ends with "N passed, N failed", exits non-zero on failure.
set -u
: "${LEUCTRA:?set LEUCTRA to the leuctra binary}"
L=$LEUCTRA
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/.." && pwd)
M=$root/build-mpi/leuctra
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; }
check() { if [ "$2" -eq 0 ]; then pass; else fail "$1"; fi; }

for tool in mpirun mpicc; do
    if ! command -v $tool >/dev/null 2>&1; then
        echo "skipped: no $tool (apt-get install openmpi-bin libopenmpi-dev to run the MPI tests)"
        echo "0 passed, 0 failed"
        exit 0
    fi
done
if ! make -C "$root" -s MPI=1 build-mpi/leuctra >/dev/null; then
    echo "FAIL make MPI=1 build-mpi/leuctra"
    echo "0 passed, 1 failed"
    exit 1
fi
# Open MPI refuses root without these (CI runs as root) and two cores without oversubscription.
if mpirun --version 2>/dev/null | grep -q "Open MPI"; then
    MPIRUN="mpirun --allow-run-as-root --oversubscribe"
else
    MPIRUN=mpirun
fi
tmp=$(mktemp -d) || exit 1
trap 'rm -rf "$tmp"' EXIT

# --- self-play: two processes, one file ----------------------------------------------------------

RUN="--variant crossings --visits 40 --games 60 --seed 11"
$L selfplay $RUN --threads 2 --out "$tmp/one.lrec" --quiet
check "plain self-play" $?
$MPIRUN -np 2 "$M" selfplay $RUN --threads 1 --out "$tmp/two.lrec" >"$tmp/out" 2>"$tmp/err"
check "mpirun -np 2 selfplay exits 0" $?
cmp -s "$tmp/one.lrec" "$tmp/two.lrec"
check "2 processes write the bytes 1 process writes" $?
grep -q "2 processes (mpirun), one shard each, merged into" "$tmp/out" && grep -q "60 games (60 played now" "$tmp/out"
check "rank 0's summary counts the whole run" $?
[ "$(grep -c 'games (60 played' "$tmp/out")" -eq 1 ]
check "one summary, not one per rank" $?
[ -z "$(ls "$tmp"/two.lrec.rank* 2>/dev/null)" ]
check "the shards are gone after the merge" $?

# --- killed ranks, then --resume -----------------------------------------------------------------

LONG="--variant crossings --visits 40 --games 160 --seed 11"
$L selfplay $LONG --threads 2 --out "$tmp/ref.lrec" --quiet
$MPIRUN -np 2 "$M" selfplay $LONG --threads 1 --out "$tmp/k.lrec" --quiet >/dev/null 2>&1 &
job=$!
# Wait until both shards hold a few games, then SIGKILL the ranks (mpirun's children).
for _ in $(seq 1 100); do
    a=$(cat "$tmp/k.lrec.rank0-of-2" 2>/dev/null | wc -c)
    b=$(cat "$tmp/k.lrec.rank1-of-2" 2>/dev/null | wc -c)
    [ "$a" -gt 20000 ] && [ "$b" -gt 20000 ] && break
    sleep 0.1
done
for pid in $(ps -o pid= --ppid "$job"); do kill -9 "$pid" 2>/dev/null; done
wait "$job" 2>/dev/null
[ ! -e "$tmp/k.lrec" ] && [ -e "$tmp/k.lrec.rank0-of-2" ] && [ -e "$tmp/k.lrec.rank1-of-2" ]
check "killed ranks leave their shards and no merged file" $?
# And a shard cut inside its last chunk, as a kill during a write leaves it.
size=$(wc -c <"$tmp/k.lrec.rank0-of-2")
truncate -s $((size - 100)) "$tmp/k.lrec.rank0-of-2"
$MPIRUN -np 2 "$M" selfplay $LONG --threads 1 --out "$tmp/k.lrec" --resume >"$tmp/out" 2>&1
check "mpirun selfplay --resume after the kill exits 0" $?
grep -q "resume removed" "$tmp/out"
check "the summary says resume removed a partial chunk" $?
cmp -s "$tmp/ref.lrec" "$tmp/k.lrec"
check "killed and cut shards, resumed, merge into the uninterrupted file" $?

# Shards of a 2-process run are refused by a resume with another count.
$L selfplay $RUN --threads 1 --out "$tmp/x.lrec" --games 10 --quiet
cp "$tmp/x.lrec" "$tmp/y.lrec.rank1-of-2" && rm "$tmp/x.lrec"
$L selfplay $RUN --threads 1 --out "$tmp/y.lrec" --resume --quiet >"$tmp/out" 2>"$tmp/err"
rc=$?
[ "$rc" -eq 2 ] && grep -q "is a shard of a run with another number of processes" "$tmp/err" &&
    [ "$(awk 'END { print NR }' "$tmp/err")" -eq 1 ]
check "resume with another process count: exit 2, one line" $?

# --- tune: two and three processes, the one-process fit ------------------------------------------

$L selfplay --variant crossings --visits 8 --games 900 --seed 5 --threads 2 --out "$tmp/t.lrec" --quiet
# The linear fit by Newton, from the text weights (the shipped default is a table file).
DATA="--data $tmp/t.lrec $tmp/one.lrec $tmp/ref.lrec --init $root/data/weights/crossings.txt --skip-opening 2 --json"
$L tune $DATA --out "$tmp/w1.txt" --threads 2 >"$tmp/j1" 2>"$tmp/err"
check "plain tune" $?
for np in 2 3; do
    $MPIRUN -np $np "$M" tune $DATA --out "$tmp/w$np.txt" --threads 1 >"$tmp/j$np" 2>"$tmp/err"
    check "mpirun -np $np tune exits 0" $?
    grep -v '^#' "$tmp/w1.txt" >"$tmp/a" && grep -v '^#' "$tmp/w$np.txt" >"$tmp/b" && cmp -s "$tmp/a" "$tmp/b"
    check "$np processes fit the one-process weights, every digit" $?
    python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("time"); d.pop("out")
assert a == b, "reports differ"
' "$tmp/j1" "$tmp/j$np"
    check "$np processes: the same report (positions, losses, standard errors)" $?
done
# Pattern tables: Adam's fixed-point sums make the processes' fit the one-process fit, bit for bit
# (the "# id" line hashes every weight and table entry).  From the text weights, so the test does
# not hang on what the shipped table file holds; the base set, then the 2-D shape families (whose
# set the processes once lost when they shared out the positions).
for shapes in base base,2x4,3x3; do
    TABLES="--data $tmp/t.lrec --init $root/data/weights/crossings.txt --shapes $shapes --no-priors --epochs 2 --batch 2048"
    $L tune $TABLES --out "$tmp/t1.lwt" --threads 2 >"$tmp/out" 2>"$tmp/err"
    check "plain tune --shapes $shapes" $?
    for np in 2 3; do
        $MPIRUN -np $np "$M" tune $TABLES --out "$tmp/t$np.lwt" --threads 1 >"$tmp/out" 2>"$tmp/err"
        [ $? -eq 0 ] && [ "$(grep -a '^# id ' "$tmp/t1.lwt")" = "$(grep -a '^# id ' "$tmp/t$np.lwt")" ]
        check "$np processes fit the one-process tables ($shapes), every bit" $?
    done
done
$MPIRUN -np 2 "$M" tune --data "$tmp/t.lrec" --priors --out "$tmp/p.lwt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q 'priors runs in one process' "$tmp/err"
check "mpirun tune --priors: refused, exit 2" $?
$MPIRUN -np 2 "$M" tune --data "$tmp/t.lrec" --model net --out "$tmp/n.lwt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c 'model net runs in one process' "$tmp/err")" -eq 1 ] && [ ! -e "$tmp/n.lwt" ]
check "mpirun tune --model net: refused with one line, exit 2" $?
$MPIRUN -np 2 "$M" train "$tmp/netrun" --variant crossings --size 5x6 --generations 1 --model net \
    >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c 'model net runs in one process' "$tmp/err")" -eq 1 ] && [ ! -e "$tmp/netrun" ]
check "mpirun train --model net: refused with one line, exit 2, no folder" $?
$MPIRUN -np 2 "$M" tune --data "$tmp/t.lrec" --out "$tmp/w.txt" --lambda 7 >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] && [ "$(grep -c 'lambda must be' "$tmp/err")" -ge 1 ]
check "mpirun tune with a bad option fails with the option's message" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
