#!/bin/sh
# mpi_test.sh - self-play and tuning under mpirun (docs/CLUSTER.md), against the plain build:
# two processes write the very records file one process writes; a job whose ranks are killed
# mid-run, and a shard cut short inside a chunk, are completed by --resume to that same file;
# shards of another process count are refused; the tuner's weights and report under two and
# three processes are the one-process ones, bit for bit, the network's (--model net) included.
#
#   LEUCTRA=build/leuctra sh tests/cli/mpi_test.sh      (builds build-mpi/leuctra with make MPI=1)
#
# Without mpicc or mpirun it says "skipped: no mpirun" (or mpicc) and counts nothing.  Prints one
# line per failed check, ends with "N passed, N failed", exits non-zero on failure.
set -u
: "${LEUCTRA:?set LEUCTRA to the leuctra binary}"
L=$(cd "$(dirname "$LEUCTRA")" && pwd)/$(basename "$LEUCTRA")     # absolute: some checks run in folders
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
M=$root/build-mpi/leuctra
passed=0
failed=0
pass() { passed=$((passed + 1)); }
fail() { failed=$((failed + 1)); printf 'FAIL %s\n' "$1"; }
check() { if [ "$2" -eq 0 ]; then pass; else fail "$1"; fi; }
wait_for_shards() {     # until both of 2 ranks' shards of $1 exceed $2 bytes: at most $3 looks, $4 s apart
    for _ in $(seq 1 "$3"); do
        a=$(cat "$1.rank0-of-2" 2>/dev/null | wc -c)
        b=$(cat "$1.rank1-of-2" 2>/dev/null | wc -c)
        [ "$a" -gt "$2" ] && [ "$b" -gt "$2" ] && return
        sleep "$4"
    done
}
same_tune_report() {    # two tune --json reports alike but for every time and *seconds field
    python3 -c '
import json, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "time" and not k.endswith("seconds")}
    return [strip(x) for x in v] if isinstance(v, list) else v
a, b = (strip(json.load(open(p))) for p in sys.argv[1:3])
assert a == b, "reports differ"
' "$1" "$2"
}

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
wait_for_shards "$tmp/k.lrec" 20000 100 0.1
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
# The whole fit: a plain tune from the shipped table file refits the tables and the learned priors;
# under mpirun the priors too spread over the processes, and the file is the one-process file
# byte for byte (SOURCE_DATE_EPOCH fixes the provenance's date; the same command in two folders).
# Self-play of 60 visits: searches the priors' fit takes (--priors-min-visits 50).
mkdir "$tmp/p1" "$tmp/p2" "$tmp/p3"
$L selfplay --variant crossings --visits 60 --games 40 --seed 3 --threads 2 --out "$tmp/v.lrec" --quiet
export SOURCE_DATE_EPOCH=1700000000
(cd "$tmp/p1" && $L tune --data ../v.lrec --out w.lwt --threads 2 --json >j 2>err)
check "plain tune from the shipped table file" $?
grep -q '"priors":{"positions_train"' "$tmp/p1/j" && ! grep -q 'priors are kept' "$tmp/p1/err"
check "a plain tune refits the priors" $?
for np in 2 3; do
    (cd "$tmp/p$np" && $MPIRUN -np $np "$M" tune --data ../v.lrec --out w.lwt --threads 2 --json >j 2>err)
    check "mpirun -np $np tune of the whole model exits 0" $?
    ! grep -q 'priors are kept' "$tmp/p$np/err"
    check "$np processes refit the priors too" $?
    cmp -s "$tmp/p1/w.lwt" "$tmp/p$np/w.lwt"
    check "$np processes write the one-process table file (tables and priors), byte for byte" $?
    same_tune_report "$tmp/p1/j" "$tmp/p$np/j"
    check "$np processes: the same report, the priors' scores and epochs included" $?
done
unset SOURCE_DATE_EPOCH
$MPIRUN -np 2 "$M" tune --data "$tmp/t.lrec" --init "$root/data/weights/crossings.txt" --priors --out "$tmp/p.lwt" \
    >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c 'no positions with visit lists' "$tmp/err")" -eq 1 ]
check "mpirun tune --priors on 8-visit games: one line from one process, exit 2" $?
# The network (--model net): each process reads the positions of its share of the games, every
# process gets all of them and fits them alike; the one-process file and report.  Over 20,000
# training positions, so that the positions kept whole for the quantization (every 2nd) cross the
# processes' shares; the 40-visit games give policy targets with --priors-min-visits 40.
mkdir "$tmp/n1" "$tmp/n2" "$tmp/n3"
export SOURCE_DATE_EPOCH=1700000000
NET="--model net --new-network --data ../t.lrec ../one.lrec ../ref.lrec --hidden 16 --epochs 2 --priors-min-visits 40 --threads 1 --json"
(cd "$tmp/n1" && $L tune $NET --out w.lwt >j 2>err)
check "plain tune --model net" $?
python3 -c '
import json, sys
d = json.load(open(sys.argv[1]))
assert d["positions"]["train"] > 20000 and d["network"]["positions_policy"]["train"] > 0, d["positions"]
' "$tmp/n1/j"
check "tune --model net: over 20,000 training positions, some with policy targets" $?
for np in 2 3; do
    (cd "$tmp/n$np" && $MPIRUN -np $np "$M" tune $NET --out w.lwt >j 2>err)
    check "mpirun -np $np tune --model net exits 0" $?
    cmp -s "$tmp/n1/w.lwt" "$tmp/n$np/w.lwt"
    check "$np processes write the one-process network file, byte for byte" $?
    same_tune_report "$tmp/n1/j" "$tmp/n$np/j"
    check "$np processes: the same network report (positions, epochs, losses, quantization)" $?
done
unset SOURCE_DATE_EPOCH
$L selfplay --variant crossings --size 5x6 --visits 5 --games 2 --out "$tmp/small.lrec" --quiet
$MPIRUN -np 2 "$M" tune --data "$tmp/t.lrec" "$tmp/small.lrec" --model net --out "$tmp/n.lwt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c 'all data must be of one game and board' "$tmp/err")" -eq 1 ] && [ ! -e "$tmp/n.lwt" ]
check "mpirun tune --model net on two boards' records: one line from one process, exit 2, no file" $?
$MPIRUN -np 2 "$M" tune --data "$tmp/t.lrec" --out "$tmp/w.txt" --lambda 7 >"$tmp/out" 2>"$tmp/err"
[ $? -ne 0 ] && [ "$(grep -c 'lambda must be' "$tmp/err")" -ge 1 ]
check "mpirun tune with a bad option fails with the option's message" $?

# --- match: the game pairs spread over the processes, the one-process files -----------------------

same_report() {     # two --json reports alike but for the timings (and the processes' shares)
    python3 -c '
import json, sys
a, b = (json.load(open(p)) for p in sys.argv[1:3])
for d in (a, b):
    d.pop("time"); d.pop("seconds")
assert a == b, (a, b)
' "$1" "$2"
}
$L match --make-openings 30 --variant crossings --size 5x6 --out "$tmp/o1.txt" >/dev/null
$MPIRUN -np 2 "$M" match --make-openings 30 --variant crossings --size 5x6 --out "$tmp/o2.txt" >"$tmp/out" 2>&1
[ $? -eq 0 ] && cmp -s "$tmp/o1.txt" "$tmp/o2.txt" && [ "$(grep -c 'openings written' "$tmp/out")" -eq 1 ]
check "mpirun match --make-openings: the one-process suite, said once" $?
PAIR="mcts:visits=30 mcts:visits=15 --variant crossings --size 5x6 --openings $tmp/o1.txt --seed 5"
$L match $PAIR --games 40 --out "$tmp/m1.lrec" --results "$tmp/m1.txt" --json >"$tmp/mj1" 2>/dev/null
check "plain match" $?
for np in 2 3; do
    $MPIRUN -np $np "$M" match $PAIR --games 40 --out "$tmp/m$np.lrec" --results "$tmp/m$np.txt" --concurrency 2 \
        --json >"$tmp/mj$np" 2>"$tmp/err"
    check "mpirun -np $np match exits 0" $?
    cmp -s "$tmp/m1.lrec" "$tmp/m$np.lrec" && cmp -s "$tmp/m1.txt" "$tmp/m$np.txt"
    check "$np processes: the one-process records and results, byte for byte" $?
    same_report "$tmp/mj1" "$tmp/mj$np"
    check "$np processes: the one-process report" $?
    [ -z "$(ls "$tmp"/m$np.lrec.rank* 2>/dev/null)" ]
    check "$np processes: no shard left after the merge" $?
done
$MPIRUN -np 2 "$M" match $PAIR --games 40 >"$tmp/out" 2>&1
grep -q "processes: 2 (mpirun), games played by each: 20+20" "$tmp/out" && [ "$(grep -c '^mean length' "$tmp/out")" -eq 1 ]
check "mpirun match: one report, saying how the processes shared the games" $?
# A sequential test: the decision, the stopping pair and the files of one process at any concurrency.
SPRT="mcts:visits=60 mcts:visits=5 --variant crossings --size 5x6 --openings $tmp/o1.txt --seed 5 --games 400 --sprt elo0=0 elo1=100"
$L match $SPRT --out "$tmp/s1.lrec" --results "$tmp/s1.txt" --json >"$tmp/sj1" 2>/dev/null
check "plain match --sprt" $?
grep -q '"decision":"H1"' "$tmp/sj1"
check "the SPRT decides before the game cap" $?
for np in 2 3; do
    $MPIRUN -np $np "$M" match $SPRT --out "$tmp/s$np.lrec" --results "$tmp/s$np.txt" --concurrency 2 --json \
        >"$tmp/sj$np" 2>"$tmp/err"
    check "mpirun -np $np match --sprt exits 0" $?
    cmp -s "$tmp/s1.lrec" "$tmp/s$np.lrec" && cmp -s "$tmp/s1.txt" "$tmp/s$np.txt" && same_report "$tmp/sj1" "$tmp/sj$np"
    check "$np processes, SPRT: the one-process decision, pairs, records, results and report" $?
done
# A tournament, and matches killed mid-run then resumed.
$L match random mcts:visits=10 mcts:visits=20 --tournament round-robin --games 12 --variant crossings --size 5x6 \
    --seed 2 --results "$tmp/t1.txt" >/dev/null
$MPIRUN -np 2 "$M" match random mcts:visits=10 mcts:visits=20 --tournament round-robin --games 12 \
    --variant crossings --size 5x6 --seed 2 --results "$tmp/t2.txt" >/dev/null 2>&1
cmp -s "$tmp/t1.txt" "$tmp/t2.txt"
check "mpirun round robin: the one-process results" $?
LONG="mcts:visits=40 mcts:visits=20 --variant crossings --size 5x6 --openings $tmp/o1.txt --seed 7 --games 120 --sprt elo0=0 elo1=20"
$L match $LONG --out "$tmp/k1.lrec" --results "$tmp/k1.txt" --json >"$tmp/kj1" 2>/dev/null
# The match lasts a few seconds, so on a loaded machine the kill can land after it has merged its
# shards (CI once saw that): then it is begun again from nothing, at most three times.
for attempt in 1 2 3; do
    rm -f "$tmp/k2.lrec" "$tmp/k2.txt" "$tmp"/k2.lrec.rank* "$tmp"/k2.txt.rank*
    $MPIRUN -np 2 "$M" match $LONG --out "$tmp/k2.lrec" --results "$tmp/k2.txt" >/dev/null 2>&1 &
    job=$!
    wait_for_shards "$tmp/k2.lrec" 3000 200 0.05
    victim=$(ps -o pid= --ppid "$job" | tail -1)      # one rank; mpirun then stops the other
    [ -n "$victim" ] && kill -9 $victim 2>/dev/null
    wait "$job" 2>/dev/null
    [ ! -e "$tmp/k2.lrec" ] && [ -e "$tmp/k2.lrec.rank1-of-2" ] && break
done
[ ! -e "$tmp/k2.lrec" ] && [ -e "$tmp/k2.lrec.rank0-of-2" ] && [ -e "$tmp/k2.lrec.rank1-of-2" ]
check "a killed rank leaves the match's shards and no merged file (attempt $attempt of at most 3)" $?
# and a shard cut inside its last chunk, as a kill during a write leaves it
size=$(wc -c <"$tmp/k2.lrec.rank1-of-2")
truncate -s $((size - 50)) "$tmp/k2.lrec.rank1-of-2"
$L match $LONG --out "$tmp/k2.lrec" --results "$tmp/k2.txt" --resume >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && grep -q "is a shard of a run with another number of processes" "$tmp/err"
check "match --resume in one process among 2 processes' shards: refused, exit 2" $?
$MPIRUN -np 2 "$M" match $LONG --out "$tmp/k2.lrec" --results "$tmp/k2.txt" --resume --json >"$tmp/kj2" 2>"$tmp/err"
check "mpirun match --resume after the kill exits 0" $?
cmp -s "$tmp/k1.lrec" "$tmp/k2.lrec" && cmp -s "$tmp/k1.txt" "$tmp/k2.txt"
check "killed and resumed: the uninterrupted one-process records and results" $?
$MPIRUN -np 2 "$M" match $PAIR --games 4 --debug "$tmp/debug.txt" >"$tmp/out" 2>"$tmp/err"
[ $? -eq 2 ] && [ "$(grep -c 'debug writes one transcript' "$tmp/err")" -eq 1 ]
check "mpirun match --debug: refused by one process, exit 2" $?

# --- train: every step spread, the one-process folder ----------------------------------------------

TRAIN="--variant crossings --size 5x6 --start zero --generations 2 --games 40 --visits 60 --gate-games 40 --gate-visits 30 --ladder-games 10 --ladder-visits 30 --make-openings 20 --sprt elo0=0 elo1=60 --seed 3 --threads 1 --quiet"
same_folders() {    # every file but the timings (train.log, elapsed; tune.json's times)
    python3 -c '
import filecmp, json, os, sys
def strip(v):
    if isinstance(v, dict):
        return {k: strip(x) for k, x in v.items() if k != "time" and not k.endswith("seconds")}
    return [strip(x) for x in v] if isinstance(v, list) else v
a, b = sys.argv[1:3]
files = lambda top: sorted(os.path.relpath(os.path.join(r, f), top) for r, _, fs in os.walk(top) for f in fs)
assert files(a) == files(b), (set(files(a)) ^ set(files(b)))
for rel in files(a):
    if os.path.basename(rel) in ("train.log", "elapsed"):
        continue
    if rel.endswith("tune.json"):
        assert strip(json.load(open(os.path.join(a, rel)))) == strip(json.load(open(os.path.join(b, rel)))), rel
    else:
        assert filecmp.cmp(os.path.join(a, rel), os.path.join(b, rel), shallow=False), rel
' "$1" "$2"
}
mkdir "$tmp/r1" "$tmp/r2" "$tmp/r3"
(cd "$tmp/r1" && $L train run $TRAIN)
check "plain train" $?
(cd "$tmp/r2" && $MPIRUN -np 2 "$M" train run $TRAIN >../out 2>../err)
check "mpirun -np 2 train exits 0" $?
same_folders "$tmp/r1/run" "$tmp/r2/run"
check "2 processes: the one-process training folder, every file but the timings" $?
for step in "self-play done" "fit done" "gen 1: [a-z]*.*against gen0" "ladder: gen.* done"; do
    grep "$step" "$tmp/r2/run/train.log" | grep -q "(2 processes: "
    check "the log says how the processes shared '$step'" $?
done
# One rank killed inside generation 2's gate, the run resumed: the same folder.  The gate lasts
# well under a second, so on a loaded machine the kill can land after it: then the run is begun
# again in a fresh folder, at most three times.
for attempt in 1 2 3; do
    rm -rf "$tmp/r3" && mkdir "$tmp/r3"
    (cd "$tmp/r3" && exec $MPIRUN -np 2 "$M" train run $TRAIN >/dev/null 2>&1) &
    job=$!
    for _ in $(seq 1 600); do
        [ -e "$tmp/r3/run/gen2/match.lrec.rank1-of-2" ] && break
        sleep 0.02
    done
    victim=$(ps -o pid= --ppid "$job" | tail -1)
    [ -n "$victim" ] && kill -9 $victim 2>/dev/null
    wait "$job" 2>/dev/null
    [ ! -e "$tmp/r3/run/gen2/verdict" ] && break
done
[ ! -e "$tmp/r3/run/gen2/verdict" ]
check "train killed inside a gate: no verdict yet (attempt $attempt of at most 3)" $?
(cd "$tmp/r3" && $MPIRUN -np 2 "$M" train run $TRAIN --resume >/dev/null 2>"$tmp/err")
check "mpirun train --resume after the kill exits 0" $?
same_folders "$tmp/r1/run" "$tmp/r3/run"
check "killed and resumed under mpirun: the one-process training folder" $?

# train --model net: the generations' network fits under mpirun, the one-process folder.
NETTRAIN="--variant crossings --size 5x6 --model net --generations 2 --games 30 --visits 60 --gate-games 20 --gate-visits 30 --ladder-games 0 --make-openings 10 --seed 3 --threads 1 --quiet"
mkdir "$tmp/nr1" "$tmp/nr2"
(cd "$tmp/nr1" && $L train run $NETTRAIN)
check "plain train --model net" $?
(cd "$tmp/nr2" && $MPIRUN -np 2 "$M" train run $NETTRAIN >../out 2>../err)
check "mpirun -np 2 train --model net exits 0" $?
same_folders "$tmp/nr1/run" "$tmp/nr2/run" && grep -aq "^# network: " "$tmp/nr2/run/gen2/weights.lwt"
check "2 processes, --model net: the one-process training folder, networks included" $?
grep "gen 2: fit done" "$tmp/nr2/run/train.log" | grep -q "(2 processes: 30+30 games read)"
check "the log says how the processes shared the network fit's games" $?

# The Slurm recipe, as far as a machine without Slurm allows: srun is mpirun -np 2 here.
mkdir "$tmp/slurm" "$tmp/bin"
printf '#!/bin/sh\nexec %s -np 2 "$@"\n' "$MPIRUN" >"$tmp/bin/srun"
chmod +x "$tmp/bin/srun"
SMALLTRAIN="--variant crossings --size 5x6 --start zero --games 20 --visits 30 --gate-games 10 --gate-visits 20 --ladder-games 0 --make-openings 10 --quiet"
(cd "$tmp/slurm" && PATH="$tmp/bin:$PATH" SLURM_CPUS_PER_TASK=1 LEUCTRA="$M" bash "$root/scripts/slurm-train.sh" run \
    --generations 1 $SMALLTRAIN >out 2>&1 &&
 PATH="$tmp/bin:$PATH" SLURM_CPUS_PER_TASK=1 LEUCTRA="$M" bash "$root/scripts/slurm-train.sh" run \
    --generations 2 $SMALLTRAIN >>out 2>&1)
[ $? -eq 0 ] && [ -e "$tmp/slurm/run/gen2/verdict" ] && grep -q "resumed: 1 generation" "$tmp/slurm/run/train.log"
check "scripts/slurm-train.sh with a stand-in srun: begins the run, then continues it" $?

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
