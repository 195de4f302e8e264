#!/usr/bin/env python3
"""python_test.py - the Python package (python/leuctra, ctypes over build/libleuctra.so) and the
tensor export (`leuctra records export --format npz`, docs/TENSORS.md).

Without numpy: the package's rules, notation, actions and errors against the command line, then
"skip" lines for the array tests.  With numpy besides: the .npz files (the writer's own samples
that the unit tests leave in FIXTURE_DIR, with and without ZIP64; exports of fresh self-play
records) read by numpy and zipfile, every exported position replayed independently (the
standard-library records reader scripts/leuctra_records.py gives the moves, the package the
rules) so that its planes, legal actions and visit targets are checked one by one, and every
visit lands on a legal move; symmetric copies, shards, the dense layout, the reader of .lrec
files into arrays, failures that leave no file; a set of shards replaced whole or not at all
(failures, SIGINT, SIGKILL at random and in the swap), temporary files of killed exports removed
by the next (a running one's kept); a visit move with the wrong capture mark refused by verify,
both exports and read_records; `pip install ./python` into a folder.

    LEUCTRA=build/leuctra LEUCTRA_LIB=build/libleuctra.so python3 tests/python/python_test.py [FIXTURE_DIR]

Ends with "N passed, N failed" (tests/run.sh adds it up)."""
import fcntl
import json
import os
import random
import shutil
import signal
import subprocess
import sys
import tempfile
import time
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # tests/checks.py
sys.path.insert(0, os.path.join(ROOT, "scripts"))
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):  # tests/python/venv_test.sh: the installed package
    sys.path.insert(0, os.path.join(ROOT, "python"))
from checks import check, summary  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA", os.path.join(ROOT, "build", "leuctra"))
FIXTURES = sys.argv[1] if len(sys.argv) > 1 else ""

try:
    import leuctra
except ImportError as e:
    if "libleuctra.so not found" in str(e):
        print("skip: %s" % e)
        sys.exit(summary())
    raise
import python_agreement as agree  # noqa: E402
import leuctra_records  # noqa: E402

try:
    import numpy as np
except ImportError:
    np = None


def run(*args):
    p = subprocess.run([LEUCTRA] + [str(a) for a in args], capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


# --------------------------------------------------------------------------- rules and notation

def test_agreement():
    refs = agree.reference_positions()
    sample = refs[::max(1, len(refs) // 400)]
    bad = agree.compare(LEUCTRA, sample)
    check("reference positions agree with leuctra moves/status (%d)" % len(sample), not bad, bad[:2])
    for i, v in enumerate(agree.VARIANTS):
        cases = agree.random_positions(v, 60, 100 + i)
        bad = agree.compare(LEUCTRA, cases)
        check("random %s positions agree with leuctra moves/status" % v, not bad, bad[:2])
    starts = [("start", v, leuctra.Game(v).position()) for v in agree.VARIANTS]
    bad = agree.perft_cases(LEUCTRA, starts, 3) + agree.perft_cases(LEUCTRA, sample[::20], 2)
    check("perft through Python equals leuctra perft", not bad, bad[:2])
    check("Epaminondas perft(4) is RULES.md's", leuctra.Game().perft(4, threads=2) == 245799684)


def test_game_api():
    g = leuctra.Game("crossings")
    check("Crossings default board", (g.width, g.height, g.num_actions, g.num_planes) == (8, 8, 2048, 9))
    moves = g.legal_moves()
    actions = [g.action_of(m) for m in moves]
    check("actions are distinct and name their moves back", len(set(actions)) == len(moves) and
          all(g.move_of(a) == m for a, m in zip(actions, moves)))
    check("legal_actions is the sorted actions", g.legal_actions() == sorted(actions))
    before = g.position()
    g.play("a2-a3")
    check("play changes side", g.side_to_move() == "b")
    g.play(g.legal_actions()[0])
    g.undo()
    g.undo()
    check("undo takes moves back", g.position() == before)
    c = g.copy()
    c.play("a2-a3")
    check("a copy has its own position", g.position() == before and c.position() != before)
    r = leuctra.Game("reversi", position="8/8/8/8/8/8/8/WB6 b")
    check("Reversi pass is action 64", r.legal_moves() == ["pass"] and r.legal_actions() == [64])
    e = leuctra.Game("epaminondas", size=(5, 6))
    check("size as a tuple", (e.width, e.height) == (5, 6) and e.status() == "ongoing")
    won = leuctra.Game("epaminondas", position="W4/5/5/5/5 w")
    check("a won position has no moves", won.legal_moves() == [] and won.status() == "white-wins")
    planes = leuctra.Game().planes()
    if np is not None:
        check("planes are uint8 [9, 12, 14] from the mover's view",
              planes.shape == (9, 12, 14) and planes.dtype == np.uint8 and planes[0, 10:].all() and planes[1, :2].all())
        check("legal_mask has the legal actions", int(leuctra.Game().legal_mask().sum()) == 114)
    else:
        check("planes as nested lists", len(planes) == 9 and len(planes[0]) == 12 and planes[0][11] == [1] * 14)
    res = leuctra.Game("crossings").analyze(visits=300, seed=3)
    res2 = leuctra.Game("crossings").analyze(visits=300, seed=3)
    check("analyze returns a legal best move and its visits", res["best"] in moves and
          sum(res["visit_counts"].values()) <= res["visits"] and 0 <= res["value"] <= 1, res)
    check("analyze is reproducible from its seed", res["best"] == res2["best"] and res["visit_counts"] == res2["visit_counts"])


def raises(kind, f, *args, **kw):
    try:
        f(*args, **kw)
    except kind as e:
        return str(e) or True
    except Exception as e:      # the wrong exception
        return False if not isinstance(e, kind) else True
    return False


def test_errors():
    g = leuctra.Game()
    cases = [
        ("a bad variant", lambda: leuctra.Game("chess"), "unknown variant"),
        ("a bad size", lambda: leuctra.Game(size="2x2"), "out of range"),
        ("a bad position", lambda: leuctra.Game(position="BBB/3/3 w"), "position"),
        ("a size unlike the position's", lambda: leuctra.Game(size="5x5", position="BBB/3/3/3/WWW w"), "board"),
        ("a bad move", lambda: g.play("a1-a5"), "move"),
        ("a move of no square", lambda: g.play("zz"), "move"),
        ("an action out of range", lambda: g.move_of(10 ** 6), "from 0 to 9407, got 1000000"),
        ("an action that is no legal move", lambda: g.move_of(0), "no legal move"),
        ("a negative action", lambda: g.play(-1), "action must be an integer from 0 to 9407, got -1"),
        ("a missing weights file", lambda: g.analyze(visits=10, weights="/nonexistent.lwt"), "nonexistent"),
        ("a weights file of another game", lambda: g.analyze(visits=10, weights=os.path.join(ROOT, "data/weights/reversi.txt")), ""),
        ("undo with no move", lambda: leuctra.Game().undo(), "no move"),
        ("a NUL in a move", lambda: g.play("a1\0"), "NUL"),
        ("a bad perft depth", lambda: g.perft(-1), "depth"),
    ]
    for what, f, text in cases:
        got = raises(leuctra.InputError, f)
        check("%s raises InputError" % what, got and (text in got if isinstance(got, str) else True), got)
    check("a move of the wrong type raises TypeError", raises(TypeError, g.play, 3.5) is not False)
    check("the interpreter is still here, the game unharmed", g.status() == "ongoing" and len(g.legal_moves()) == 114)


def raised(f, *args, **kw):
    """(exception type name, message) of what f raises, or (None, repr of its result)."""
    try:
        got = f(*args, **kw)
    except Exception as e:
        return type(e).__name__, str(e)
    return None, repr(got)[:200]


def survives(code, timeout=120):
    """Runs python code in a child interpreter (this package, this library): (exit status, output).
    What would kill an interpreter kills only the child."""
    env = dict(os.environ, PYTHONPATH=os.path.join(ROOT, "python"))
    try:
        p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=timeout, env=env,
                           cwd=ROOT)
    except subprocess.TimeoutExpired:
        return -1, "timed out"
    return p.returncode, (p.stdout + p.stderr)[-600:]


def test_integer_arguments():
    """Python integers past the C types are refused, not cut (issue 47 item 4)."""
    g = leuctra.Game("crossings")
    a = g.legal_actions()[0]
    for bad in (2 ** 32 + a, -2 ** 32 + a, 2 ** 64 + a, 10 ** 5000):
        kind, msg = raised(g.play, bad)
        check("play(%s) raises InputError naming the action's range" % ("10**5000" if bad > 2 ** 100 else bad),
              kind == "InputError" and "action must be an integer from 0 to 2047" in msg, (kind, msg))
        kind, msg = raised(g.move_of, bad)
        check("move_of(%s) raises InputError" % ("10**5000" if bad > 2 ** 100 else bad), kind == "InputError", (kind, msg))
    check("the refused actions played nothing", g.position() == leuctra.Game("crossings").position())
    cases = [
        ("perft(2**32 + 2)", lambda: g.perft(2 ** 32 + 2), "InputError", "depth must be an integer from 0 to 30"),
        ("perft(-1)", lambda: g.perft(-1), "InputError", "depth"),
        ("perft(31)", lambda: g.perft(31), "InputError", "depth"),
        ("perft(2, threads=2**32 + 2)", lambda: g.perft(2, threads=2 ** 32 + 2), "InputError",
         "threads must be an integer from 0 to 1024"),
        ("perft(2, threads=-1)", lambda: g.perft(2, threads=-1), "InputError", "threads"),
        ("analyze(visits=2**64 + 5)", lambda: g.analyze(visits=2 ** 64 + 5), "InputError",
         "visits must be an integer from 0 to 1000000000000"),
        ("analyze(visits=-1)", lambda: g.analyze(visits=-1), "InputError", "visits"),
        ("analyze(seed=2**64)", lambda: g.analyze(visits=1, seed=2 ** 64), "InputError", "seed"),
        ("analyze(seed=-1)", lambda: g.analyze(visits=1, seed=-1), "InputError", "seed"),
        ("analyze(threads=2**32 + 1)", lambda: g.analyze(visits=1, threads=2 ** 32 + 1), "InputError", "threads"),
        ("analyze(seconds=nan)", lambda: g.analyze(seconds=float("nan")), "InputError", "seconds"),
        ("analyze(seconds=inf)", lambda: g.analyze(seconds=float("inf")), "InputError", "seconds"),
        ("analyze(seconds=-1)", lambda: g.analyze(seconds=-1), "InputError", "seconds"),
        ("analyze(seconds=10**400)", lambda: g.analyze(seconds=10 ** 400), "InputError", "seconds"),
        ("perft(2.0)", lambda: g.perft(2.0), "TypeError", "depth"),
        ("perft(True)", lambda: g.perft(True), "TypeError", "bool"),
        ("perft('2')", lambda: g.perft("2"), "TypeError", "depth"),
        ("perft(2, threads=1.5)", lambda: g.perft(2, threads=1.5), "TypeError", "threads"),
        ("analyze(visits=10.0)", lambda: g.analyze(visits=10.0), "TypeError", "visits"),
        ("analyze(seconds='1')", lambda: g.analyze(seconds="1"), "TypeError", "seconds"),
        ("play(True)", lambda: g.play(True), "TypeError", "move"),
        ("play(1.0)", lambda: g.play(1.0), "TypeError", "move"),
        ("play(b'a2-a3')", lambda: g.play(b"a2-a3"), "TypeError", "move"),
        ("move_of(1.0)", lambda: g.move_of(1.0), "TypeError", "action"),
        ("Game(size=(8, 2**32 + 8))", lambda: leuctra.Game("crossings", size=(8, 2 ** 32 + 8)), "InputError", "size"),
        ("Game(size=(8.5, 8))", lambda: leuctra.Game("crossings", size=(8.5, 8)), "TypeError", "size"),
        ("Game(size=(8, 8, 8))", lambda: leuctra.Game("crossings", size=(8, 8, 8)), "InputError", "size"),
    ]
    for what, f, kind, text in cases:
        got_kind, msg = raised(f)
        check("%s raises %s mentioning '%s'" % (what, kind, text), got_kind == kind and text in msg, (got_kind, msg))
    check("perft(2) after all that is still 12996-like", g.perft(2) == leuctra.Game("crossings").perft(2))
    if np is not None:
        h, c = leuctra.Game("crossings"), leuctra.Game("crossings")
        h.play(np.int64(a))
        c.play(int(a))
        fresh = leuctra.Game("crossings")
        check("numpy integers are accepted: play, move_of, perft, analyze", h.position() == c.position() and
              fresh.move_of(np.int32(a)) == fresh.move_of(a) and
              fresh.perft(np.int64(2), threads=np.int32(1)) == g.perft(2) and
              fresh.analyze(visits=np.int64(5), seed=np.uint64(7), seconds=np.float32(0))["visits"] >= 1)
        check("a numpy bool is no integer", raised(g.perft, np.bool_(True))[0] == "TypeError")
        kind, msg = raised(g.play, np.int64(-1))
        check("a negative numpy action raises InputError", kind == "InputError", (kind, msg))


def test_threads_cap():
    """perft with 100000 threads killed the interpreter inside libgomp (issue 47 item 2)."""
    rc, out = survives("import leuctra\n"
                       "try:\n    leuctra.Game('reversi').perft(3, threads=100000)\n"
                       "except leuctra.InputError as e:\n    print('refused:', e)\n")
    check("perft(3, threads=100000) raises InputError, the interpreter lives", rc == 0 and
          "refused: threads must be an integer from 0 to 1024, got 100000" in out, (rc, out))
    rc, out = survives("import leuctra\n"
                       "try:\n    leuctra.Game('reversi').analyze(visits=1, threads=1025)\n"
                       "except leuctra.InputError as e:\n    print('refused:', e)\n")
    check("analyze(threads=1025) raises the same InputError", rc == 0 and
          "refused: threads must be an integer from 0 to 1024, got 1025" in out, (rc, out))
    check("leuctra.THREADS_MAX is the library's cap", leuctra.THREADS_MAX == 1024)
    import warnings
    procs = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    if procs * 4 + 1 <= 1024:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            n = leuctra.Game("reversi").perft(3, threads=procs * 4 + 1)
            leuctra.Game("reversi").perft(3, threads=procs * 4)
        texts = [str(w.message) for w in caught if w.category is RuntimeWarning]
        check("perft with more than 4 threads per processor warns once (RuntimeWarning) and counts", n == 56 and
              len(texts) == 1 and "%d threads on %d processor" % (procs * 4 + 1, procs) in texts[0],
              (n, [str(w.message) for w in caught]))


def test_threads_share_a_game():
    """Two threads on one Game: a call waits for the other's to end (issue 47 item 1)."""
    import threading
    import time
    g = leuctra.Game("crossings")
    start = g.legal_moves()
    started, result = threading.Event(), {}

    def search():
        started.set()
        result["r"] = g.analyze(visits=0, seconds=0.6, seed=1)
    t = threading.Thread(target=search)
    t.start()
    started.wait()
    time.sleep(0.2)                 # the search is inside the library by now
    t0 = time.monotonic()
    g.play(start[0])
    waited = time.monotonic() - t0
    t.join()
    check("a play from another thread waits for the search on the same Game to end",
          waited > 0.2 and result["r"]["best"] in start, (waited, result.get("r", {}).get("best")))
    weights = [os.path.join(ROOT, "data", "weights", "crossings" + ext) for ext in (".lwt", ".txt")]
    rc, out = survives(
        "import threading, leuctra\n"
        "g = leuctra.Game('crossings')\n"
        "errors = []\n"
        "def loop(w):\n"
        "    for i in range(150):\n"
        "        try:\n"
        "            g.analyze(visits=1, weights=w)\n"
        "        except Exception as e:\n"
        "            errors.append(repr(e))\n"
        "ts = [threading.Thread(target=loop, args=(w,)) for w in %r]\n"
        "[t.start() for t in ts]\n[t.join() for t in ts]\n"
        "print('errors', errors[:2])\n" % (weights,))
    check("two threads searching one Game with different weights files: no crash, no error",
          rc == 0 and "errors []" in out, (rc, out))
    rc, out = survives(
        "import threading, leuctra\n"
        "g = leuctra.Game('crossings')\n"
        "seen = []\n"
        "def loop():\n"
        "    for i in range(100000):\n"
        "        try:\n"
        "            g.legal_moves(); g.planes(); g.copy()\n"
        "        except leuctra.LeuctraError as e:\n"
        "            seen.append(str(e)); return\n"
        "t = threading.Thread(target=loop); t.start()\n"
        "g.close(); t.join()\n"
        "print('seen', seen)\n")
    check("a Game closed while another thread uses it: that thread gets LeuctraError, no crash",
          rc == 0 and "seen ['this leuctra.Game is closed']" in out, (rc, out))


def engine_json(position_moves, visits):
    """The engine protocol's json line for `go visits N` after `position start moves ...`."""
    lines = "setoption name json value true\nposition start moves %s\ngo visits %d\nwait\nquit\n" % (
        " ".join(position_moves), visits)
    p = subprocess.run([LEUCTRA, "engine", "--variant", "crossings"], input=lines, capture_output=True, text=True,
                       timeout=120)
    found = [l[5:] for l in p.stdout.splitlines() if l.startswith("json ")]
    return json.loads(found[0]) if found else None


def test_search_sees_the_game():
    """analyze searches the game, not a bare position: a move that repeats an earlier position is
    scored as the engine scores it (a draw, worth a loss to the root at the default contempt), and
    the whole result equals the engine protocol's json line (one schema, one thread, one seed);
    the same position set without its past scores the move as any other."""
    cycle = ["a2-a3", "h7-h6", "a3-a2", "h6-h7", "a2-a3", "h7-h6", "a3-a2"]
    g = leuctra.Game("crossings")
    for m in cycle:
        g.play(m)
    # 1000 visits: the shipped network's priors leave the repeating move unvisited at 300
    ours = g.analyze(visits=1000, seed=1)
    theirs = engine_json(cycle, 1000)
    check("analyze equals the engine's json line after a repetition cycle",
          theirs is not None and {k: ours[k] for k in theirs if k not in ("seconds", "setup_seconds")} ==
          {k: v for k, v in theirs.items() if k not in ("seconds", "setup_seconds")}, (ours.get("moves", [])[:2], theirs))
    back = {m["move"]: m for m in ours["moves"]}.get("h6-h7")
    bare = leuctra.Game("crossings", position=g.position())
    fresh = {m["move"]: m for m in bare.analyze(visits=1000, seed=1)["moves"]}.get("h6-h7")
    check("the repeating move is scored as a draw at contempt 0.5 (value 0), not so without the game's past",
          back is not None and back["value"] == 0 and fresh is not None and fresh["value"] != 0, (back, fresh))
    options = leuctra.search_options()
    names = {o["name"] for o in options}
    check("search_options lists the table's options", {"visits", "cpuct", "nodes", "weights"} <= names, names)
    tuned = g.analyze(visits=50, cpuct=3.0, nodes=4096, playouts=False)
    check("analyze takes any search option", tuned["visits"] == 50, tuned["visits"])
    cpuct_max = {o["name"]: o for o in options}["cpuct"]["max"]
    err = raised(g.analyze, visits=10, cpuct=cpuct_max * 2)
    check("a search option past the table's range is refused with its words",
          err[0] == "InputError" and "cpuct must be a number from 0 to %g" % cpuct_max in err[1], err)
    check("an unknown search option is refused", raised(g.analyze, frobnicate=1)[0] == "InputError")


def test_close_and_with():
    with leuctra.Game("reversi") as g:
        g.play("d3")
        inside = g.position()
    check("with: the Game works inside and is closed after", not inside.startswith("<") and g.closed)
    for what, f in (("legal_moves", g.legal_moves), ("position", g.position), ("play", lambda: g.play("c4")),
                    ("perft", lambda: g.perft(1)), ("analyze", lambda: g.analyze(visits=1)), ("copy", g.copy),
                    ("planes", g.planes), ("undo", g.undo), ("with", lambda: g.__enter__())):
        kind, msg = raised(f)
        check("a closed Game's %s raises LeuctraError" % what, kind == "LeuctraError" and "closed" in msg, (kind, msg))
    g.close()
    check("closing twice is harmless; repr says closed", "closed" in repr(g))
    rc, out = survives("import copy, gc, leuctra\n"
                       "g = leuctra.Game('crossings')\n"
                       "c = copy.copy(g); d = copy.deepcopy(g)\n"
                       "c.play(c.legal_moves()[0])\n"
                       "print(g.position() != c.position(), d.position() == g.position())\n"
                       "del g, c, d; gc.collect(); print('freed')\n")
    check("copy.copy and copy.deepcopy give independent Games (no shared handle freed twice)",
          rc == 0 and "True True" in out and "freed" in out, (rc, out))
    import pickle
    check("pickling a Game is a TypeError", raised(pickle.dumps, leuctra.Game())[0] == "TypeError")
    g = leuctra.Game()
    kind, _ = raised(setattr, g, "num_planes", 1000)
    check("the Game's shape is read-only", kind == "AttributeError" and g.num_planes == 9)


def test_texts():
    for what, f in (("a variant that is not UTF-8", lambda: leuctra.Game("cross\udcffings")),
                    ("a move that is not UTF-8", lambda: leuctra.Game().play("a\ud800")),
                    ("a position with a NUL", lambda: leuctra.Game(position="start\0x")),
                    ("a weights path with a NUL", lambda: leuctra.Game().analyze(visits=1, weights="a.lwt\0b")),
                    ("a missing weights file", lambda: leuctra.Game().analyze(visits=1, weights=b"/nonexistent/\xff.lwt"))):
        kind, msg = raised(f)
        check("%s raises InputError" % what, kind == "InputError", (kind, msg))
    for what, f in (("weights=5", lambda: leuctra.Game().analyze(visits=1, weights=5)),
                    ("variant=None", lambda: leuctra.Game(None)),
                    ("variant=b'reversi'", lambda: leuctra.Game(b"reversi"))):
        kind, msg = raised(f)
        check("%s raises TypeError" % what, kind == "TypeError", (kind, msg))


def test_package():
    import pydoc
    public = [getattr(leuctra, n) for n in leuctra.__all__ if n not in ("library_path", "__version__", "PLANE_NAMES",
                                                                        "STATUS_NAMES", "THREADS_MAX")]
    members = [(c.__name__ + "." + n, m) for c in (leuctra.Game, leuctra.Dataset) for n, m in vars(c).items()
               if not n.startswith("_") and (callable(m) or isinstance(m, property))]
    bare = [getattr(x, "__name__", repr(x)) for x in public if not (x.__doc__ or "").strip()]
    bare += [n for n, m in members if not (m.__doc__ or "").strip()]
    check("every public name has a docstring", not bare, bare)
    text = pydoc.render_doc(leuctra.Game, renderer=pydoc.plaintext)
    check("help(leuctra.Game) describes the methods and the thread story",
          all(w in text for w in ("legal_moves", "undo", "close", "analyze", "threads")), text[:300])
    rc, out, err = run("--version")
    check("leuctra.__version__ is the library's", out.split() == ["leuctra", leuctra.__version__], (out, leuctra.__version__))
    check("the package is typed (py.typed)", os.path.exists(os.path.join(ROOT, "python", "leuctra", "py.typed")))
    hints = leuctra.Game.analyze.__annotations__
    check("methods carry type hints", "visits" in hints and "return" in hints, hints)


# --------------------------------------------------------------------------- tensors (numpy)

def fresh_records(tmp, variant, games, visits, name):
    path = os.path.join(tmp, name)
    rc, _, err = run("selfplay", "--variant", variant, "--games", games, "--visits", visits, "--threads", 2,
                     "--quiet", "--out", path)
    check("selfplay for %s" % name, rc == 0, err)
    return path


def mirror_position(text, s, variant):
    """The position string under symmetry s (core/tensors.h: bit 0 files, bit 1 rows, bit 2
    transpose first), on the board as drawn."""
    board, side = text.split()
    rows = [agree.expand(r) for r in board.split("/")]
    h, w = len(rows), len(rows[0])
    out = [[None] * w for _ in range(h)]
    for y in range(h):
        for x in range(w):
            ty, tx = (x, y) if s & 4 else (y, x)
            if s & 1:
                tx = w - 1 - tx
            if s & 2:
                ty = h - 1 - ty
            out[ty][tx] = rows[y][x]
    return "/".join(agree.compress(r) for r in out) + " " + side


def replay_check(path, data, variant, copies):
    """Every row against the package and the standard-library records reader."""
    meta = data["meta"]
    start = np.concatenate([[0], np.cumsum(data["legal_count"].astype(np.int64))])
    row, problems, visited, off_legal = 0, [], 0, 0
    with leuctra_records.RecordsFile(path) as f:
        for rec in f.games():
            g = leuctra.Game(variant, position=rec.start)
            for ply, move in enumerate(rec.moves):
                for k in range(copies):
                    s = int(data["symmetry"][row])
                    view = g if s == 0 else leuctra.Game(variant, position=mirror_position(g.position(), s, variant))
                    legal = data["legal"][start[row]:start[row + 1]].tolist()
                    visits = data["visits"][start[row]:start[row + 1]].tolist()
                    if legal != view.legal_actions():
                        problems.append("game %d ply %d sym %d: legal actions differ" % (rec.index, ply, s))
                    if not np.array_equal(data["planes"][row], view.planes()):
                        problems.append("game %d ply %d sym %d: planes differ" % (rec.index, ply, s))
                    want = {}
                    for m, c in (rec.visits[ply].moves if rec.visits[ply] else []):
                        a = g.action_of(m)
                        if s:
                            a = view.action_of(mirror_move(m, s, g, view))
                        want[a] = c
                    got = {a: v for a, v in zip(legal, visits) if v}
                    visited += len(got)
                    off_legal += sum(1 for a in want if a not in legal)
                    if got != want:
                        problems.append("game %d ply %d sym %d: visits differ" % (rec.index, ply, s))
                    played = g.action_of(move) if s == 0 else view.action_of(mirror_move(move, s, g, view))
                    if int(data["played"][row]) != played or int(data["ply"][row]) != ply or \
                            int(data["game"][row]) != rec.index:
                        problems.append("game %d ply %d sym %d: played/ply/game differ" % (rec.index, ply, s))
                    result = 0.5 if rec.result == "draw" else float((rec.result == "white-wins") == (g.side_to_move() == "w"))
                    value = rec.values[ply]
                    if data["result"][row] != result or not (np.isnan(data["value"][row]) if value is None
                                                             else abs(data["value"][row] - value) < 1e-4):
                        problems.append("game %d ply %d: result/value differ" % (rec.index, ply))
                    row += 1
                g.play(move)
    problems += [] if row == len(data["played"]) else ["rows %d, positions %d" % (len(data["played"]), row)]
    return problems, visited, off_legal, meta


def mirror_move(move, s, g, view):
    """A move's notation under symmetry s: map its squares through the drawn board."""
    if move == "pass":
        return move
    h, w = g.height, g.width
    reversi = g.variant == "reversi"

    def square(name):
        f, n = ord(name[0]) - 97, int(name[1:])
        y = n - 1 if reversi else h - n
        ty, tx = (f, y) if s & 4 else (y, f)
        if s & 1:
            tx = w - 1 - tx
        if s & 2:
            ty = h - 1 - ty
        return "%s%d" % (chr(97 + tx), ty + 1 if reversi else h - ty)
    if reversi:
        return square(move)
    sep = "x" if "x" in move else "-"
    a, b = move.split(sep)
    return square(a) + sep + square(b)


def test_export(tmp):
    for variant, games, visits, copies in (("crossings", 6, 60, 2), ("reversi", 4, 40, 8), ("epaminondas", 3, 40, 2)):
        lrec = fresh_records(tmp, variant, games, visits, variant + ".lrec")
        out = os.path.join(tmp, variant + ".npz")
        rc, _, err = run("records", "export", lrec, "--format", "npz", "-o", out, "--quiet")
        check("%s: export --format npz" % variant, rc == 0 and os.path.exists(out), err)
        with zipfile.ZipFile(out) as z:
            check("%s: the zip tests whole" % variant, z.testzip() is None)
        d = leuctra.load_npz(out)
        check("%s: planes uint8 [N, 9, H, W], visits int16" % variant, d["planes"].dtype == np.uint8 and
              d["visits"].dtype == np.int16 and
              d["planes"].shape[1:] == (9, d["meta"]["height"], d["meta"]["width"]))
        check("%s: the description" % variant, d["meta"]["variant"] == variant and d["meta"]["planes_version"] == 1 and
              d["meta"]["num_actions"] == leuctra.Game(variant).num_actions)
        problems, visited, off_legal, _ = replay_check(lrec, d, variant, 1)
        check("%s: every row replays (planes, legal actions, visits, played, result, value)" % variant,
              not problems, problems[:3])
        check("%s: every visit lands on a legal move (%d visited entries)" % (variant, visited),
              visited > 0 and off_legal == 0)
        r = leuctra.read_records(lrec)
        same = all(np.array_equal(r[k], d[k], equal_nan=(k == "value")) for k in r if k != "meta")
        check("%s: read_records gives the export's arrays" % variant, same)
        aug = os.path.join(tmp, variant + "-aug.npz")
        rc, _, err = run("records", "export", lrec, "-o", aug, "--augment", "--quiet")
        a = leuctra.load_npz(aug)
        check("%s: --augment gives %d copies" % (variant, copies), rc == 0 and len(a["played"]) == copies * len(d["played"])
              and sorted(set(a["symmetry"].tolist())) == sorted({0, 1} if copies == 2 else set(range(8))), err)
        problems, visited, off_legal, _ = replay_check(lrec, a, variant, copies)
        check("%s: every symmetric copy is the mapped position's" % variant, not problems and off_legal == 0, problems[:3])
        ds = leuctra.Dataset(a)
        b = ds.batch(np.arange(min(50, len(ds))))
        sums = b["policy"].sum(axis=1)
        check("%s: dense batches: policy rows sum to 1, only on legal actions" % variant,
              np.allclose(sums[sums > 0], 1, atol=1e-5) and not (b["policy"] > 0)[~b["legal_mask"]].any())
    return lrec, d


def test_dense_and_shards(tmp, lrec, sparse):
    out = os.path.join(tmp, "dense.npz")
    rc, _, err = run("records", "export", lrec, "-o", out, "--dense", "--quiet")
    d = leuctra.load_npz(out)
    ds = leuctra.Dataset(sparse).batch(np.arange(len(sparse["played"])))
    check("--dense: policy and legal_mask equal the sparse lists'", rc == 0 and
          np.array_equal(d["legal_mask"].astype(bool), ds["legal_mask"]) and np.allclose(d["policy"], ds["policy"]), err)
    stem = os.path.join(tmp, "shard.npz")
    per = max(1, len(sparse["played"]) // 3)
    rc, _, err = run("records", "export", lrec, "-o", stem, "--shard-positions", per, "--quiet")
    shards = sorted(p for p in os.listdir(tmp) if p.startswith("shard-") and p.endswith(".npz"))
    check("--shard-positions: the manifest shard-shards.json names the shards, whole",
          whole_set(tmp, "shard") and sorted(whole_set(tmp, "shard")) == shards + ["shard-shards.json"], shards)
    parts = [leuctra.load_npz(os.path.join(tmp, p)) for p in shards]
    games = [set(p["game"].tolist()) for p in parts]
    split = any(games[i] & games[j] for i in range(len(games)) for j in range(i + 1, len(games)))
    check("--shard-positions: files of at most N positions, games whole", rc == 0 and len(parts) >= 2 and not split and
          all(len(p["played"]) <= per or len(games[i]) == 1 for i, p in enumerate(parts)), (err, shards))
    joined = {k: np.concatenate([p[k] for p in parts]) for k in ("planes", "legal", "visits", "played", "game")}
    check("shards joined are the whole export", all(np.array_equal(joined[k], sparse[k]) for k in joined))
    packed = os.path.join(tmp, "packed.npz")
    rc, _, err = run("records", "export", lrec, "-o", packed, "--packed", "--quiet")
    with np.load(packed) as f:
        raw = f["planes_packed"]
    p = leuctra.load_npz(packed)
    b = leuctra.Dataset(packed).batch(np.arange(len(sparse["played"])))
    check("--packed: planes as bits that unpack to the planes", rc == 0 and raw.dtype == np.uint8 and
          raw.shape[1] * 8 >= sparse["planes"][0].size and np.array_equal(p["planes"], sparse["planes"]) and
          np.array_equal(b["planes"], sparse["planes"]) and p["meta"]["planes_packed"] is True, err)


def test_wide_visits(tmp):
    lrec = os.path.join(tmp, "wide.lrec")
    rc, _, err = run("selfplay", "--variant", "crossings", "--size", "5x5", "--games", 1, "--visits", 40000,
                     "--max-plies", 3, "--threads", 1, "--quiet", "--out", lrec)
    folder = os.path.join(tmp, "wide")
    os.mkdir(folder)
    out = os.path.join(folder, "w.npz")
    rc2, _, err2 = run("records", "export", lrec, "-o", out, "--shard-positions", 1, "--quiet")
    files = sorted(f for f in os.listdir(folder) if f.endswith(".npz"))
    parts = [leuctra.load_npz(os.path.join(folder, f)) for f in files]
    ok = rc == 0 and rc2 == 0 and files == ["w-00000.npz"] and whole_set(folder, "w")   # one game: never split
    check("visit counts past int16: the export starts again with int32 visits, shards and all",
          ok and all(p["visits"].dtype == np.int32 and p["meta"]["visits"] == "int32" for p in parts) and
          max(int(p["visits"].max()) for p in parts) > 32767, (err, err2, files))
    whole = {k: np.concatenate([p[k] for p in parts]) for k in ("planes", "legal_count", "legal", "visits", "played",
                                                                "result", "value", "game", "ply", "side", "symmetry")}
    whole["meta"] = parts[0]["meta"] if parts else {}
    problems, _, off, _ = replay_check(lrec, whole, "crossings", 1) if parts else (["no parts"], 0, 0, None)
    check("the wide export replays", not problems and off == 0, problems[:2])


def test_export_failures(tmp, lrec):
    out = os.path.join(tmp, "fail.npz")
    rc, _, err = run("records", "export", os.path.join(tmp, "missing.lrec"), "-o", out)
    check("a missing input: exit 2, no output", rc == 2 and not os.path.exists(out), err)
    rc, _, err = run("records", "export", lrec, "-o", os.path.join(tmp, "x.csv"), "--augment")
    check("--augment with CSV: exit 2", rc == 2 and "npz" in err, err)
    data = bytearray(open(lrec, "rb").read())
    data[len(data) // 2] ^= 0xFF
    bad = os.path.join(tmp, "bad.lrec")
    open(bad, "wb").write(bytes(data))
    rc, _, err = run("records", "export", bad, "-o", out, "--shard-positions", 20)
    left = [p for p in os.listdir(tmp) if p.startswith("fail") or ".leuctra-npz" in p or ".tmp." in p]
    check("a damaged input: exit 1, no output, no shard, no spool", rc == 1 and not left, (rc, err, left))
    rc, _, err = run("records", "export", lrec, os.path.join(tmp, "reversi.lrec"), "-o", out)
    check("files of different games: exit 2", rc == 2 and "one game and board" in err and not os.path.exists(out), err)
    before = open(lrec, "rb").read()
    rc, _, err = run("records", "export", lrec, "-o", lrec, "--format", "npz")
    check("-o naming the input: exit 2, the input untouched", rc == 2 and open(lrec, "rb").read() == before, err)
    victim = os.path.join(tmp, "cut-00001.npz")
    shutil.copy(lrec, victim)
    rc, _, err = run("records", "export", lrec, victim, "-o", os.path.join(tmp, "cut.npz"), "--shard-positions", 1)
    check("a shard that would be an input: exit 2, no shard left, the input untouched",
          rc == 2 and not os.path.exists(os.path.join(tmp, "cut-00000.npz")) and open(victim, "rb").read() == before, err)
    check("read_records of a missing file raises InputError",
          raises(leuctra.InputError, leuctra.read_records, "/nonexistent.lrec") is not False)


def test_data_paths(tmp, lrec):
    """read_records, load_npz and Dataset check their paths as Game checks its texts, and a
    crafted file raises InputError (issue 47 item 9)."""
    import pathlib
    want = leuctra.read_records(lrec)
    kind, msg = raised(leuctra.read_records, lrec + "\0junk")
    check("read_records(path + NUL + junk) raises InputError, not a read of path", kind == "InputError" and "NUL" in msg,
          (kind, msg))
    for bad in (None, 5, 2.5, ["x"]):
        kind, msg = raised(leuctra.read_records, bad)
        check("read_records(%r) raises TypeError" % (bad,), kind == "TypeError", (kind, msg))
    odd = os.path.join(os.fsencode(tmp), b"caf\xe9-\xff.lrec")      # not UTF-8: a Latin-1 name
    shutil.copy(lrec, odd)
    same = lambda d: all(np.array_equal(d[k], want[k], equal_nan=(k == "value")) for k in want if k != "meta")
    for what, p in (("pathlib.Path", pathlib.Path(lrec)), ("bytes", os.fsencode(lrec)),
                    ("a bytes name that is not UTF-8", odd), ("the same name as str (surrogateescape)", os.fsdecode(odd))):
        kind, msg = raised(leuctra.read_records, p)
        check("read_records(%s) reads the file" % what, kind is None and same(leuctra.read_records(p)), (kind, msg))
    check("read_records(bytes)'s meta source is the name as str", leuctra.read_records(odd)["meta"]["source"] == os.fsdecode(odd))
    with open(lrec, "rb") as f:
        head = f.read(16)
        body = int.from_bytes(head[12:16], "little")
        f.seek(0)
        header = f.read(20 + body)
    empty = os.path.join(tmp, "no-games.lrec")
    with open(empty, "wb") as f:
        f.write(header)
    kind, msg = raised(leuctra.read_records, empty)
    e = leuctra.read_records(empty) if kind is None else {}
    wrong = [k for k in want if k != "meta" and (k not in e or e[k].dtype != want[k].dtype or len(e[k]) != 0 or
                                                  e[k].shape[1:] != want[k].shape[1:])]
    check("a records file of no games gives empty arrays of the documented dtypes", kind is None and not wrong,
          (kind, msg, wrong))
    weights = os.path.join(ROOT, "data", "weights", "crossings.lwt")
    odd_weights = os.path.join(os.fsencode(tmp), b"w\xff.lwt")
    shutil.copy(weights, odd_weights)
    g = leuctra.Game("crossings")
    r1 = g.analyze(visits=50, weights=pathlib.Path(weights))
    r2 = g.analyze(visits=50, weights=odd_weights)
    r3 = g.analyze(visits=50, weights=os.fsdecode(odd_weights))
    check("analyze reads weights from a pathlib.Path and from names that are not UTF-8",
          r1["visit_counts"] == r2["visit_counts"] == r3["visit_counts"])
    # load_npz on crafted files
    npz = os.path.join(tmp, "ok.npz")
    rc, _, err = run("records", "export", lrec, "-o", npz, "--quiet")
    crafted = {"meta is a number": {"meta": np.array(5)}, "meta is not JSON": {"meta": np.array(b"{not json")},
               "meta is a JSON list": {"meta": np.array(b"[1, 2]")}, "meta is not UTF-8": {"meta": np.array(b"\xff\xfe")},
               "meta is deeply nested": {"meta": np.array(b"[" * 100000)},
               "meta is an array": {"meta": np.array([b"{}", b"{}"])},
               "packed planes that do not fit the board": {"meta": np.array(b'{"height": 3, "width": 3}'),
                                                            "planes_packed": np.zeros((2, 1), np.uint8)},
               "packed planes with a bad board": {"meta": np.array(b'{"height": "x", "width": 3}'),
                                                  "planes_packed": np.zeros((2, 11), np.uint8)}}
    for what, arrays in crafted.items():
        path = os.path.join(tmp, "crafted.npz")
        np.savez(path, **arrays)
        kind, msg = raised(leuctra.load_npz, path)
        check("load_npz of an .npz whose %s raises InputError" % what, kind == "InputError", (kind, msg))
    data = open(npz, "rb").read()
    for what, content in (("not a zip", b"hello"), ("cut in half", data[:len(data) // 2]), ("empty", b""),
                          ("damaged inside", data[:200] + bytes(b ^ 0x55 for b in data[200:400]) + data[400:])):
        path = os.path.join(tmp, "bad.npz")
        with open(path, "wb") as f:
            f.write(content)
        kind, msg = raised(leuctra.load_npz, path)
        check("load_npz of a file %s raises InputError" % what, kind == "InputError", (kind, msg))
    np.save(os.path.join(tmp, "one.npy"), np.zeros(3))
    for what, p, want_kind in (("a .npy file", os.path.join(tmp, "one.npy"), "InputError"),
                               ("a missing file", os.path.join(tmp, "missing.npz"), "InputError"),
                               ("a folder", tmp, "InputError"), ("a NUL in the path", npz + "\0x", "InputError"),
                               ("None", None, "TypeError")):
        kind, msg = raised(leuctra.load_npz, p)
        check("load_npz of %s raises %s" % (what, want_kind), kind == want_kind, (kind, msg))
    ds = leuctra.Dataset(pathlib.Path(npz))
    check("Dataset(pathlib.Path) reads the export", rc == 0 and len(ds) == len(want["played"]), err)
    check("Dataset(bytes path of a records file) reads it", len(leuctra.Dataset(odd)) == len(want["played"]))
    for what, f, want_kind in (("rows past the end", lambda: ds.batch([len(ds)]), "InputError"),
                               ("negative rows", lambda: ds.batch([-1]), "InputError"),
                               ("rows of floats", lambda: ds.batch([0.5]), "TypeError"),
                               ("batches(0)", lambda: ds.batches(0), "InputError"),
                               ("a dict without played", lambda: leuctra.Dataset({"meta": {"num_actions": 5}}), "InputError"),
                               ("legal past num_actions", lambda: leuctra.Dataset(dict(want, legal=want["legal"] + 5000)),
                                "InputError"),
                               ("Dataset(5)", lambda: leuctra.Dataset(5), "TypeError")):
        kind, msg = raised(f)
        check("Dataset: %s raises %s" % (what, want_kind), kind == want_kind, (kind, msg))


def test_wrong_capture_visit(tmp):
    """Issue 47: a visit list naming a2-b2 where the rules write a2xb2 (the unit tests' crafted
    wrong-capture-visit.lrec, game 7 ply 1) is damage for verify, both exports and read_records:
    one line naming the file, game and ply; no output."""
    path = os.path.join(FIXTURES, "wrong-capture-visit.lrec")
    if not os.path.exists(path):
        check("the unit tests left wrong-capture-visit.lrec", False, path)
        return
    where = "%s: game 7 ply 1: " % path
    rc, out, err = run("records", "verify", path)
    lines = out.splitlines()
    check("records verify: a visit move with the wrong capture mark is damage, named by game and ply",
          rc == 1 and len(lines) == 2 and lines[0].startswith(where) and "a2-b2" in lines[0] and
          "1 game the rules refuse" in lines[1], (rc, out, err))
    for fmt in ("csv", "npz"):
        out_path = os.path.join(tmp, "wrong-capture." + fmt)
        rc, _, err = run("records", "export", path, "-o", out_path, *(["--quiet"] if fmt == "npz" else []))
        check("records export --format %s refuses it: exit 1, one line, no output" % fmt,
              rc == 1 and len(err.splitlines()) == 1 and where in err and "a2-b2" in err and
              not os.path.exists(out_path), (rc, err))
    if np is not None:
        got = raises(leuctra.LeuctraError, leuctra.read_records, path)
        check("read_records refuses it, naming game 7 ply 1", got is not False and "game 7 ply 1" in str(got), got)


def temps_of(folder, name):
    return sorted(p for p in os.listdir(folder) if p.startswith(name + ".tmp."))


def test_stale_temps(tmp, lrec):
    """Issue 47: an export killed while writing OUT leaves OUT.tmp.XXXXXX (a file, or a folder of
    shards); the next export to OUT removes them, but never a running export's (its lock)."""
    folder = os.path.join(tmp, "stale")
    os.mkdir(folder)
    for name in ("out.npz", "out.csv"):
        out = os.path.join(folder, name)
        open(out + ".tmp.AbC123", "w").close()
        os.mkdir(out + ".tmp.Fo1der")
        open(os.path.join(out + ".tmp.Fo1der", "out-00000.npz"), "w").close()
        live = open(out + ".tmp.LiVe12", "w")
        fcntl.flock(live, fcntl.LOCK_EX)
        rc, _, err = run("records", "export", lrec, "-o", out)
        left = temps_of(folder, name)
        check("export -o %s removes the temporary file and folder a killed export left, not a live one's" % name,
              rc == 0 and left == [name + ".tmp.LiVe12"] and "removed 2 temporary files" in err, (rc, err, left))
        live.close()
    out = os.path.join(folder, "both.npz")
    first = subprocess.Popen([LEUCTRA, "records", "export"] + [lrec] * 300 + ["-o", out, "--quiet"])
    waited = 0
    while not temps_of(folder, "both.npz") and first.poll() is None and waited < 2000:
        time.sleep(0.005)
        waited += 1
    seen = temps_of(folder, "both.npz")
    rc, _, err = run("records", "export", lrec, "-o", out, "--quiet")
    check("two exports to one -o at once: the second leaves the first's temporary file, both succeed",
          seen and rc == 0 and first.wait() == 0 and not temps_of(folder, "both.npz"), (seen, rc, err))
    out = os.path.join(folder, "killed.npz")
    for shards in ([], ["--shard-positions", 50]):
        p = subprocess.Popen([LEUCTRA, "records", "export"] + [lrec] * 300 + ["-o", out, "--quiet"] +
                             [str(a) for a in shards])
        waited = 0
        while not temps_of(folder, "killed.npz") and p.poll() is None and waited < 2000:
            time.sleep(0.005)
            waited += 1
        p.kill()
        p.wait()
        left = temps_of(folder, "killed.npz")
        rc, _, err = run("records", "export", lrec, "-o", out, "--quiet", *shards)
        check("an export killed %s left %s; the next export to its -o removed it" %
              ("with shards" if shards else "whole", left), rc == 0 and left and not temps_of(folder, "killed.npz"),
              (rc, err, left, temps_of(folder, "killed.npz")))


def shard_meta(path):
    with np.load(path) as f:
        return json.loads(f["meta"].item())


def whole_set(folder, stem):
    """docs/TENSORS.md's rule for a reader of shards: the set is STEM-shards.json's, and whole when
    every file it names is there and says, in its own meta, the manifest's set, its index and
    whether it is the last.  The files' names and bytes, or None when not whole."""
    manifest = os.path.join(folder, stem + "-shards.json")
    if not os.path.exists(manifest):
        return None
    with open(manifest) as f:
        m = json.load(f)
    files = m["files"]
    if m["format"] != "leuctra-tensor-shards" or len(files) != m["shards"]:
        return None
    for i, name in enumerate(files):
        path = os.path.join(folder, name)
        meta = shard_meta(path) if os.path.exists(path) else {}
        if (meta.get("set"), meta.get("shard"), meta.get("last")) != (m["set"], i, i == len(files) - 1):
            return None
    return {name: open(os.path.join(folder, name), "rb").read() for name in files + [stem + "-shards.json"]}


def set_files(folder, stem):
    """Every file of a set there: its shards of any index, its manifest, its temporary folders."""
    return sorted(p for p in os.listdir(folder) if p.startswith(stem + "-") or p.startswith(stem + ".npz.tmp."))


def shards_there(folder, stem):
    """The shards STEM-DDDDD.npz in the folder, as a reader that globs them sees them: name: bytes."""
    return {p: open(os.path.join(folder, p), "rb").read() for p in os.listdir(folder)
            if p.startswith(stem + "-") and p.endswith(".npz") and len(p) == len(stem) + 10}


def mix_flagged(folder, names):
    """Whether the shards' own metas tell that they are not one set: two set ids, or a shard that
    says it is the last with another after it, or a highest one that says it is not.  A field a
    shard does not have tells nothing."""
    metas = [shard_meta(os.path.join(folder, n)) for n in sorted(names)]
    sets = {m.get("set") for m in metas} - {None}
    lasts = [m.get("last") for m in metas]
    return len(sets) > 1 or True in lasts[:-1] or (bool(lasts) and lasts[-1] is False)


def export_set(inputs, folder, per, *extra):
    rc, _, err = run("records", "export", *inputs, "-o", os.path.join(folder, "x.npz"), "--shard-positions", per,
                     "--quiet", *extra)
    return rc, err


def test_shard_sets(tmp):
    """Issue 47: a set of shards is replaced as a whole, or not at all.  Old set A (about 7 shards
    of Crossings), new set B (Epaminondas; 2 or 3 shards, or many for the kill rounds).  A set is
    compared as a reader that globs STEM-*.npz sees it (shards_there) and as the manifest says
    (whole_set); whatever a failure or a kill leaves must be the old set or the whole new one, or
    tell by itself that it is neither."""
    a_in, b_in = [os.path.join(tmp, "crossings.lrec")], [os.path.join(tmp, "epaminondas.lrec")]
    a_rows = len(leuctra.load_npz(os.path.join(tmp, "crossings.npz"))["played"])
    b_rows = len(leuctra.load_npz(os.path.join(tmp, "epaminondas.npz"))["played"])
    a_per, b_per = (a_rows + 6) // 7, (b_rows + 1) // 2
    ref = {}
    for name, inputs, per in (("A", a_in, a_per), ("B", b_in, b_per), ("Bmany", b_in * 15, 20)):
        folder = os.path.join(tmp, "ref" + name)
        os.mkdir(folder)
        start = time.time()
        rc, err = export_set(inputs, folder, per)
        ref[name] = (shards_there(folder, "x"), whole_set(folder, "x"), time.time() - start, folder)
        check("set %s exports whole, its manifest naming its shards" % name,
              rc == 0 and ref[name][1] and len(ref[name][1]) == len(ref[name][0]) + 1, err)
    a, b, many = ref["A"][0], ref["B"][0], ref["Bmany"][0]
    check("the old set has more shards than the new one", len(a) > len(b) > 1, (len(a), len(b)))
    folder = os.path.join(tmp, "sets")

    def fresh_a():     # hard links: an export replaces names, never a file's bytes (and copies cost syncs)
        shutil.rmtree(folder, ignore_errors=True)
        os.mkdir(folder)
        for name in os.listdir(ref["A"][3]):
            os.link(os.path.join(ref["A"][3], name), os.path.join(folder, name))

    def is_set(name):
        return shards_there(folder, "x") == ref[name][0] and whole_set(folder, "x") == ref[name][1] and \
            set_files(folder, "x") == sorted(ref[name][1] or ref[name][0])

    fresh_a()
    rc, err = export_set(b_in, folder, b_per)
    check("a set of another file over a larger one: only the new set is left, whole", rc == 0 and is_set("B"),
          (err, set_files(folder, "x")))
    fresh_a()
    data = bytearray(open(a_in[0], "rb").read())
    data[len(data) // 2] ^= 0xFF
    bad = os.path.join(tmp, "damaged-second.lrec")
    open(bad, "wb").write(bytes(data))
    rc, err = export_set(a_in + [bad], folder, a_per)
    check("a re-export that fails on a damaged second input leaves the old set as it was, nothing else",
          rc == 1 and is_set("A"), (rc, err, set_files(folder, "x")))
    # the signal must land while the export runs: on a loaded machine its pace varies, so an export
    # that finished first (the whole new set: also a right outcome) is tried again, sooner
    delay, rc, finished_first = ref["Bmany"][2] / 2, None, []
    for _ in range(6):
        fresh_a()
        # SIGINT as a terminal's Ctrl-C gives it: a job started in the background by a shell
        # inherits SIGINT ignored, and the export (rightly) keeps it ignored then
        p = subprocess.Popen([LEUCTRA, "records", "export"] + b_in * 15 + ["-o", os.path.join(folder, "x.npz"),
                                                                            "--shard-positions", "20", "--quiet"],
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        time.sleep(delay)
        p.send_signal(signal.SIGINT)
        rc = p.wait()
        if rc != 0:
            break
        finished_first.append(is_set("Bmany"))
        delay /= 3
    check("SIGINT during a sharded export: it ends by the signal and leaves the old set as it was, nothing else",
          rc == -signal.SIGINT and is_set("A") and all(finished_first), (rc, finished_first, set_files(folder, "x")))
    rng = random.Random(47)
    outcomes, bad_rounds = {}, []
    for round_ in range(8):
        fresh_a()
        # SIGINT as a terminal's Ctrl-C gives it: a job started in the background by a shell
        # inherits SIGINT ignored, and the export (rightly) keeps it ignored then
        p = subprocess.Popen([LEUCTRA, "records", "export"] + b_in * 15 + ["-o", os.path.join(folder, "x.npz"),
                                                                            "--shard-positions", "20", "--quiet"],
                             preexec_fn=lambda: signal.signal(signal.SIGINT, signal.SIG_DFL))
        if round_ < 4:      # anywhere
            time.sleep(rng.uniform(0, 1.5) * ref["Bmany"][2])
        else:               # in the swap: the old manifest goes first
            while os.path.exists(os.path.join(folder, "x-shards.json")) and p.poll() is None:
                pass
        p.kill()
        p.wait()
        shards, manifest = shards_there(folder, "x"), whole_set(folder, "x")
        outcome = "old" if shards == a else "new" if shards == many else "flagged" if mix_flagged(folder, shards) \
            else "MIX"
        outcomes[outcome] = outcomes.get(outcome, 0) + 1
        if outcome == "MIX" or manifest not in (None, ref["A"][1], ref["Bmany"][1]):
            bad_rounds.append((round_, outcome, sorted(shards)))
        rc, err = export_set(b_in * 15, folder, 20)
        if rc != 0 or not is_set("Bmany"):
            bad_rounds.append((round_, "the next export", rc, err))
    check("SIGKILL in 8 re-exports, at random and in the swap: the old set or the whole new one, never a mix "
          "that looks whole (%s); the next export leaves the new set alone" % outcomes, not bad_rounds, bad_rounds)


def test_fixtures():
    for name in ("sample.npz", "sample-zip64.npz"):
        path = os.path.join(FIXTURES, name)
        if not os.path.exists(path):
            check("the unit tests left %s" % name, False, path)
            continue
        with zipfile.ZipFile(path) as z:
            ok = z.testzip() is None
        with np.load(path) as f:
            planes, value, game = f["planes"], f["value"], f["game"]
            good = (planes.shape == (5000, 3, 4, 5) and value[4] == 1.0 and game[-1] == 4999 * 1000000007 and
                    f["meta"].item() == b'{"a": 1}' and f["index"][7].tolist() == [7, -7, 1, 2])
        check("numpy and zipfile read the writer's %s" % name, ok and good)


def test_train_example(tmp):
    lrec = fresh_records(tmp, "crossings", 40, 60, "train.lrec")
    out = os.path.join(tmp, "train.npz")
    rc, _, err = run("records", "export", lrec, "-o", out, "--augment", "--quiet")
    script = os.path.join(ROOT, "scripts", "train_example.py")
    network = os.path.join(tmp, "train-net.lwt")
    try:
        import torch  # noqa: F401
        backends = [[], ["--torch", "--network", network]]
    except ImportError:
        backends = [[]]
        print("skip: PyTorch not installed (apt-get install python3-torch), so only the numpy example runs")
    for extra in backends:
        p = subprocess.run([sys.executable, script, out, "--epochs", "6"] + extra, capture_output=True, text=True)
        line = [l for l in p.stdout.splitlines() if l.startswith("held out:")]
        words = line[0].replace("(", " ").replace(")", " ").split() if line else []
        top1 = float(words[words.index("top-1") + 1]) if "top-1" in words else 0
        uniform = float(words[words.index("moves") + 1]) if "moves" in words else 1
        check("scripts/train_example.py %s: held-out top-1 beats the uniform choice" % (extra[0] if extra else "numpy"),
              rc == 0 and p.returncode == 0 and top1 > 2 * uniform, (p.stdout[-300:], p.stderr[-300:]))
        if "--network" in extra:
            test_example_network(p, network)


def test_example_network(p, network):
    """The example's --network file: written through the library, and played by `leuctra match`."""
    told = [l.strip() for l in p.stdout.splitlines() if l.strip().startswith("leuctra match")]
    check("scripts/train_example.py --network writes the file and prints the match that plays it",
          p.returncode == 0 and os.path.exists(network) and told and network in told[0], (p.stdout[-400:], p.stderr[-300:]))
    rc, out, err = run("match", "mcts:visits=30,weights=%s" % network, "mcts:visits=30", "--games", 4,
                       "--variant", "crossings")
    check("leuctra match plays the PyTorch-trained network", rc == 0 and ": 4 games," in out, (out[-300:], err[-300:]))


def test_pip_install(tmp):
    target = os.path.join(tmp, "site")
    p = subprocess.run([sys.executable, "-m", "pip", "install", "--no-index", "--no-deps", "--quiet", "--target", target,
                        os.path.join(ROOT, "python")], capture_output=True, text=True)
    if p.returncode != 0 and "No module named pip" in p.stderr:
        print("skip: no pip for %s, so no install test" % sys.executable)
        return
    env = dict(os.environ)
    env.pop("LEUCTRA_LIB", None)
    env["PYTHONPATH"] = target
    q = subprocess.run([sys.executable, "-c", "import leuctra; print(leuctra.library_path); print(leuctra.Game().perft(2))"],
                       capture_output=True, text=True, env=env, cwd=tmp)
    check("pip install ./python (no network): the package and its library", p.returncode == 0 and
          q.stdout.split()[-1:] == ["12996"] and q.stdout.startswith(target), (p.stderr[-300:], q.stdout, q.stderr[-300:]))
    check("the installed package is typed and its version is the library's (the Makefile's VERSION)",
          os.path.exists(os.path.join(target, "leuctra", "py.typed")) and
          os.path.isdir(os.path.join(target, "leuctra-%s.dist-info" % leuctra.__version__)),
          sorted(os.listdir(target)))


def main():
    test_agreement()
    test_game_api()
    test_errors()
    test_integer_arguments()
    test_threads_cap()
    test_threads_share_a_game()
    test_search_sees_the_game()
    test_close_and_with()
    test_texts()
    test_package()
    tmp = tempfile.mkdtemp(prefix="leuctra-python-")
    try:
        if not os.environ.get("LEUCTRA_TEST_INSTALLED"):   # tests/python/venv_test.sh installed it already
            test_pip_install(tmp)
        if FIXTURES:
            test_wrong_capture_visit(tmp)
        if np is None:
            print("skip: numpy not installed for %s (apt-get install python3-numpy), so no tensor tests" % sys.executable)
            return summary()
        if FIXTURES:
            test_fixtures()
        lrec, sparse = test_export(tmp)
        test_dense_and_shards(tmp, lrec, sparse)
        test_export_failures(tmp, lrec)
        test_data_paths(tmp, lrec)
        test_stale_temps(tmp, lrec)
        test_shard_sets(tmp)
        test_wide_visits(tmp)
        if not os.environ.get("LEUCTRA_TEST_INSTALLED"):   # a script of the source tree: tests/run.sh runs it
            test_train_example(tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
