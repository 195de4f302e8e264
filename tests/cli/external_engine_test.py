#!/usr/bin/env python3
"""external_engine_test.py - tests of external engines as match players (`engine:cmd=...`,
selfplay/player_external.c): our own `leuctra engine` plays whole matches against an in-process
player (phalanx board and Reversi, two threads); a deliberately broken engine (tests/cli/fake_engine.py
in its `cycle` mode: crash, hang, illegal move, garbage, one per process) loses every game, each
incident is logged as one stderr line and counted in the summary line, the engine is restarted,
the match ends normally, no engine is left running and none was left a zombie; on a game clock
our engine gets `go wtime ...` and keeps its time, an engine that sleeps far past its clock loses
every game on time and the match goes on, an `error` answer to a search is asked once more, and
--debug logs every line both ways; bad specs and engines that cannot start end the command with
exit status 2 and one line.

    LEUCTRA=build/leuctra python3 tests/cli/external_engine_test.py

Each start of the Python fake costs up to two seconds on a busy machine, so the broken engine
plays one match of 8 games (4 under LEUCTRA_QUICK, the sanitizer run).  Prints one line per failed
check ("FAIL what: ..."), ends with "N passed, N failed" and exits non-zero on any failure.
"""
import json
import os
import re
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/checks.py
from checks import check, summary  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA")
if not LEUCTRA:
    sys.exit("set LEUCTRA to the leuctra binary")
HERE = os.path.dirname(os.path.abspath(__file__))
FAKE = os.path.join(HERE, "fake_engine.py")
KINDS = ["crash", "timeout", "illegal-move", "garbled"]
BROKEN_GAMES = 4 if os.environ.get("LEUCTRA_QUICK") else 8
RUN_TIMEOUT = 120
# The in-process opponent; a small tree budget, since allocating the default 128 MB tree for
# every game takes seconds under the sanitizers.
OPPONENT = "mcts:visits=40,nodes=4096"
SMALL_TREE = "option.nodes=4096"      # the same for the external engines, through setoption



def leuctra(*args):
    p = subprocess.run([LEUCTRA, *args], capture_output=True, text=True, timeout=RUN_TIMEOUT, errors="replace")
    return p.returncode, p.stdout, p.stderr


def match(*args, env=None):
    """Runs leuctra match; returns (exit status, stdout, stderr)."""
    p = subprocess.run([LEUCTRA, "match", *args], capture_output=True, text=True, timeout=RUN_TIMEOUT,
                       env=env, errors="replace")
    return p.returncode, p.stdout, p.stderr


def score(out):
    """(games, wins, draws, losses) of the first player from the match's first line."""
    m = re.search(r"(\d+) games, \+(\d+) =(\d+) -(\d+)", out)
    return tuple(int(x) for x in m.groups()) if m else None


def summaries(err):
    """The 'engine summary' lines: list of (games, incidents, {kind: n}, restarts)."""
    found = []
    for line in err.splitlines():
        m = re.match(r"engine summary: .*: (\d+) games, (\d+) incidents \((.*)\), (\d+) restarts"
                     r"(?:, \d+ searches asked again)?$", line)
        if m:
            kinds = {k: int(n) for k, n in re.findall(r"([a-z-]+) (\d+)", m.group(3))}
            found.append((int(m.group(1)), int(m.group(2)), kinds, int(m.group(4))))
    return found


def incident_lines(err):
    return [line for line in err.splitlines() if line.startswith("engine incident: ")]


def test_own_engine():
    spec = f"engine:cmd={LEUCTRA},args=engine,visits=30,{SMALL_TREE},name=own"
    for what, args in (("phalanx 5x6, 2 threads", ["--size", "5x6", "--games", "4", "--concurrency", "2"]),
                       ("reversi", ["--variant", "reversi", "--games", "2"])):
        rc, out, err = match(spec, OPPONENT, *args)
        games = int(args[args.index("--games") + 1])
        check(f"own engine, {what}: exit 0", rc == 0, f"exit {rc}, stderr {err!r}")
        s = score(out)
        check(f"own engine, {what}: all games played", s is not None and s[0] == games, out)
        check(f"own engine, {what}: no incident", not incident_lines(err), err)
        sums = summaries(err)
        check(f"own engine, {what}: summaries count every game, no incident",
              sum(x[0] for x in sums) == games and all(x[1] == 0 and x[3] == 0 for x in sums), err)


def pids_gone(pids, wait=5.0):
    """Pids still alive after waiting up to `wait` seconds."""
    deadline = time.monotonic() + wait
    while True:
        alive = []
        for pid in pids:
            try:
                os.kill(pid, 0)
                alive.append(pid)
            except ProcessLookupError:
                pass
            except PermissionError:
                alive.append(pid)
        if not alive or time.monotonic() > deadline:
            return alive
        time.sleep(0.1)


def test_broken_engine():
    with tempfile.TemporaryDirectory() as tmp:
        pidfile = os.path.join(tmp, "pids")
        env = dict(os.environ, LEUCTRA=LEUCTRA, FAKE_ENGINE_PIDFILE=pidfile)
        spec = (f"engine:cmd={sys.executable},args=-S,args={FAKE},args=cycle,visits=20,timeout=2,"
                f"{SMALL_TREE},name=broken")
        t0 = time.monotonic()
        # 8x8, not 5x6: the fake misbehaves at its first, second or third `go`, and every game
        # must last that long.  On 8x8 no side can win before its fourth turn; on 5x6 a side
        # can win at its third, and a game that ended first left that game without an incident.
        rc, out, err = match(spec, OPPONENT, "--size", "8x8", "--games", str(BROKEN_GAMES), env=env)
        seconds = time.monotonic() - t0
        check("broken engine: the match ends with exit 0", rc == 0, f"exit {rc}, stderr {err!r}")
        check("broken engine: it loses every game", score(out) == (BROKEN_GAMES, 0, 0, BROKEN_GAMES), out)
        lines = incident_lines(err)
        check("broken engine: one incident line per game", len(lines) == BROKEN_GAMES, err)
        per_kind = BROKEN_GAMES // len(KINDS)
        for kind in KINDS:
            n = sum(1 for line in lines if line.startswith(f"engine incident: broken: {kind} in game "))
            check(f"broken engine: {per_kind} '{kind}' incident lines", n == per_kind, err)
        check("broken engine: the match report totals the incidents",
              f"had {BROKEN_GAMES} (each lost its game" in out and "incidents: " in out, out)
        check("broken engine: incident lines name the loss and the restart",
              all("it loses the game, engine restarted" in line for line in lines), lines)
        sums = summaries(err)
        expected_kinds = {k: per_kind for k in KINDS}
        expected_kinds["error-reply"] = 0
        check("broken engine: the summary counts the games, incidents, kinds and restarts",
              sums == [(BROKEN_GAMES, BROKEN_GAMES, expected_kinds, BROKEN_GAMES - 1)], err)
        with open(pidfile) as f:
            records = f.read().split()
        check("broken engine: no zombie child seen while it played", "zombie" not in records, records)
        pids = [int(x) for x in records if x.isdigit()]
        # One process per game (the first made with the player), plus the match's spec checks.
        check("broken engine: one process per game plus the spec check",
              BROKEN_GAMES <= len(pids) <= BROKEN_GAMES + 2, pids)
        check("broken engine: no engine left running", not pids_gone(pids), pids)
        check("broken engine: hangs cost their timeout, not more", seconds < 60, f"{seconds:.1f} s")


def test_clocked_engines():
    """Our engine on a clock through the protocol: no game lost on time, the clock kept (the
    report's clock left), and the --debug transcript holds the go wtime lines and the answers."""
    with tempfile.TemporaryDirectory() as tmp:
        log = os.path.join(tmp, "io.log")
        spec = f"engine:cmd={LEUCTRA},args=engine,tc=6+0.1,{SMALL_TREE},name=own"
        rc, out, err = match(spec, "mcts:tc=6+0.1,nodes=4096", "--size", "5x6", "--games", "2", "--json",
                             "--debug", log)
        doc = json.loads(out) if rc == 0 else {}
        t = doc.get("time", {})
        first, second = t.get("first", {}), t.get("second", {})
        check("clocked engine: the match plays", rc == 0 and doc.get("games") == 2, (rc, out, err))
        check("clocked engine: no game lost on time, clocks kept",
              first.get("forfeits") == 0 and second.get("forfeits") == 0 and first.get("clock_left") is not None
              and second.get("clock_left") is not None and first.get("moves", 0) > 0, t)
        lines = open(log).read().splitlines() if os.path.exists(log) else []
        sent = [l for l in lines if re.match(r"\d+\.\d{3} >own\(\d+\): ", l)]
        got = [l for l in lines if re.match(r"\d+\.\d{3} <own\(\d+\): ", l)]
        check("--debug: the lines sent, go with the clocks among them",
              any(" go wtime " in l and " btime " in l and " winc 0.100" in l for l in sent), lines[:20])
        check("--debug: the lines read, the bestmoves among them", any(": bestmove " in l for l in got), lines[:20])
        rc, out, err = match(spec, "random", "--size", "5x6", "--games", "2", "--debug", "/nonexistent/dir/io.log")
        check("--debug into a folder that is not there: exit 2, one line",
              rc == 2 and len(err.strip().splitlines()) == 1 and "io.log" in err, (rc, err))


def test_overrun_and_retry():
    """An engine that sleeps 2 s a move on a 0.3 s clock answers, but too late: it loses every game
    on time (the records say end=time), no incident, and the match goes on.  One that answers its
    first search with an error line is asked once more and plays on."""
    with tempfile.TemporaryDirectory() as tmp:
        env = dict(os.environ, LEUCTRA=LEUCTRA, FAKE_ENGINE_PIDFILE=os.path.join(tmp, "pids"))
        rec = os.path.join(tmp, "overrun.lrec")
        spec = f"engine:cmd={sys.executable},args=-S,args={FAKE},args=overrun,tc=0.3,{SMALL_TREE},name=slow"
        rc, out, err = match(spec, OPPONENT, "--size", "5x6", "--games", "2", "--json", "--out", rec, env=env)
        doc = json.loads(out) if rc == 0 else {}
        check("overrun: the match ends with exit 0", rc == 0, (rc, err))
        check("overrun: every game lost on time", doc.get("losses") == 2 and
              doc.get("time", {}).get("first", {}).get("forfeits") == 2, out)
        check("overrun: no incident (the engine answered, late)", not incident_lines(err), err)
        rc, dump, _ = leuctra("records", "dump", rec)
        check("overrun: the records say end=time", rc == 0 and dump.count("end=time") == 2, dump)
        spec = f"engine:cmd={sys.executable},args=-S,args={FAKE},args=error,visits=20,{SMALL_TREE},name=flaky"
        rc, out, err = match(spec, OPPONENT, "--size", "5x6", "--games", "2", env=env)
        check("error once: the match plays without an incident", rc == 0 and not incident_lines(err), (rc, err))
        check("error once: the retry is said on stderr and in the summary",
              "engine retry: flaky: " in err and "searches asked again" in err, err)
        spec = f"engine:cmd={sys.executable},args=-S,args={FAKE},args=old,tc=20+0.1,{SMALL_TREE},name=old"
        rc, out, err = match(spec, OPPONENT, "--size", "5x6", "--games", "2", "--json", env=env)
        doc = json.loads(out) if rc == 0 else {}
        check("protocol 1 engine on a clock: sent go time, no incident, no retry, no loss on time",
              rc == 0 and not incident_lines(err) and "engine retry" not in err and
              doc.get("time", {}).get("first", {}).get("forfeits") == 0, (rc, out, err))


def test_bad_specs():
    cases = [
        ("no cmd", "engine:visits=5", "engine needs cmd=PATH"),
        ("unknown key", f"engine:cmd={LEUCTRA},depth=3", "unknown option 'depth'"),
        ("bad number", f"engine:cmd={LEUCTRA},visits=many", "visits=many is not a valid number"),
        ("bad clock", f"engine:cmd={LEUCTRA},tc=10+", "time control '10+'"),
        ("clock and time", f"engine:cmd={LEUCTRA},tc=10,time=1", "give one of them"),
        ("option refused", f"engine:cmd={LEUCTRA},args=engine,option.nodes=4", "error setoption: nodes"),
        ("missing program", "engine:cmd=/nonexistent/engine", "No such file or directory"),
        # it may be gone before the handshake is written or only before the reply is read
        ("program that exits", "engine:cmd=true", "the engine did not start"),
    ]
    for what, spec, message in cases:
        rc, out, err = match(spec, "random", "--size", "5x6", "--games", "2")
        lines = err.strip().splitlines()
        check(f"bad spec, {what}: exit 2 with one line", rc == 2 and len(lines) == 1 and message in err,
              f"exit {rc}, stderr {err!r}")


def main():
    try:
        test_own_engine()
        test_broken_engine()
        test_clocked_engines()
        test_overrun_and_retry()
        test_bad_specs()
    except Exception as e:  # a crash of the test itself still ends with the summary line
        check("the test ran to its end", False, repr(e))
    sys.exit(summary())


if __name__ == "__main__":
    main()
