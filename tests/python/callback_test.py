#!/usr/bin/env python3
"""callback_test.py - searches and self-play guided by a Python evaluator (python/leuctra/guided.py
over lt_search_batched and lt_selfplay), the engine wrapper scripts/net_engine.py, and the worked
AlphaZero example scripts/alphazero_example.py on a tiny budget.

With leuctra's own evaluation passed through the callback, a search gives Game.analyze's visit
counts (fixed seed, one thread) and self-play writes `leuctra selfplay`'s games; a flat and a
masked policy give the same search; every failure inside the callback (the user's exception,
KeyboardInterrupt, a wrong shape, a value or score out of range) comes back as an exception
after one call; options that such a search cannot take are refused; self-play resumes, refuses
another evaluator's file, and its records export; the engine wrapper plays a `leuctra match` to
the end; the example learns (its network, searching, beats `random` in more than 60% of 20
seeded games, and the untrained network in more than 55%).

    LEUCTRA=build/leuctra LEUCTRA_LIB=$PWD/build/libleuctra.so /usr/bin/python3 tests/python/callback_test.py

LEUCTRA_TEST_INSTALLED=1 (tests/python/venv_test.sh) tests the installed package instead of python/.
Needs numpy (says "skip" without it).  Ends with "N passed, N failed"."""
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # tests/checks.py
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):
    sys.path.insert(0, os.path.join(ROOT, "python"))
from checks import check, summary  # noqa: E402

try:
    import numpy as np
    import leuctra
except ImportError as e:
    print("skip: %s" % e)
    sys.exit(summary())

LEUCTRA = os.path.abspath(os.environ.get("LEUCTRA", os.path.join(ROOT, "build", "leuctra")))
SCRIPTS = os.path.join(ROOT, "scripts")


def raised(f, *args, **kw):
    try:
        f(*args, **kw)
    except BaseException as e:      # KeyboardInterrupt too
        return e
    return None


def uniform(planes, legal_start, legal):
    return np.full(len(planes), 0.5), np.ones(len(legal), np.float32)


def games_of(variant, lines, size=None):
    out = []
    for line in lines:
        g = leuctra.Game(variant, size=size)
        for m in line.split():
            g.play(m)
        out.append(g)
    return out


def test_own_evaluation_is_the_search():
    """The acceptance test: leuctra's own evaluation through the callback, fixed seed, one thread."""
    for variant, lines in (("crossings", ["", "a2-a3 h7-h6", "b2-b3 b7-b6 b3-b2 b6-b7"]),
                           ("reversi", ["", "d3 c3 c4"]), ("epaminondas", ["a2-a3"])):
        games = games_of(variant, lines)
        for batch in (1, len(games)):
            r = leuctra.search(games, leuctra.own_evaluation, visits=300, seed=7, batch=batch)
            for i, g in enumerate(games):
                want = g.analyze(visits=300, seed=7)
                counts = {g.move_of(int(a)): int(v) for a, v in zip(r.legal[r.legal_start[i]:r.legal_start[i] +
                                                                             r.legal_count[i]],
                                                                    r.visits[r.legal_start[i]:r.legal_start[i] +
                                                                             r.legal_count[i]])}
                wanted = {m: v for m, v in want["visit_counts"].items() if v}
                got = {m: v for m, v in counts.items() if v}
                check("%s game %d, batch %d: the visit counts through the callback are Game.analyze's"
                      % (variant, i, batch), got == wanted and r.best[i] == want["best"] and
                      abs(r.value[i] - want["value"]) < 1e-6, (r.best[i], want["best"], r.value[i], want["value"],
                                                               sorted(set(got.items()) ^ set(wanted.items()))))
        for g in games:
            g.close()


def test_result_layout():
    games = games_of("crossings", ["", "a2-a3"])
    r = leuctra.search(games, uniform, visits=50, batch=8, details=True)
    check("the result: legal actions ascending, the export's layout",
          [list(r.legal[s:s + c]) for s, c in zip(r.legal_start, r.legal_count)] == [g.legal_actions() for g in games]
          and r.legal.dtype == np.int32 and r.legal_start.dtype == np.int64 and r.visits.dtype == np.int32,
          (r.legal_count, r.legal_start))
    sums = np.add.reduceat(r.visits, r.legal_start)
    policy = r.policy()
    check("visits sum to the search's, policy() sums to one per game",
          list(sums) == [50, 50] and np.allclose(np.add.reduceat(policy, r.legal_start), 1), (sums,))
    check("details: each game's search as Game.analyze's object",
          [d["visits"] for d in r.details] == [50, 50] and [d["best"] for d in r.details] == r.best and
          all(g.move_of(int(a)) == b for g, a, b in zip(games, r.best_action, r.best)), r.details[0].keys())
    one = leuctra.search(games[0], uniform, visits=20)
    check("a single Game is searched as a list of one", len(one.best) == 1 and one.visits.sum() == 20)
    over = leuctra.Game("crossings", position="8/8/8/8/8/8/8/8 w")
    r = leuctra.search([over], uniform, visits=10)
    check("a finished game: no legal action, best -1 and None", r.best_action[0] == -1 and r.best == [None] and
          len(r.legal) == 0, (r.best_action, r.best))
    for g in games + [over]:
        g.close()


def test_masked_policy():
    """A policy over the whole action index (the network's raw output) gives the flat one's search."""
    g = leuctra.Game("crossings")
    seen = {}

    def flat(planes, legal_start, legal):
        values, policy = leuctra.own_evaluation(planes, legal_start, legal)
        return values, policy

    def masked(planes, legal_start, legal):
        values, policy = leuctra.own_evaluation(planes, legal_start, legal)
        dense = np.full((len(planes), g.num_actions), 123.0, np.float32)      # off the legal actions: ignored
        rows = np.repeat(np.arange(len(planes)), np.diff(legal_start))
        dense[rows, legal] = policy
        seen["shape"] = dense.shape
        return list(values), dense

    a = leuctra.search(g, flat, visits=200, batch=4)
    b = leuctra.search(g, masked, visits=200, batch=4)
    check("a masked policy [n, num_actions] searches as the flat one", np.array_equal(a.visits, b.visits) and
          seen["shape"][1] == g.num_actions, (a.visits[:8], b.visits[:8]))
    g.close()


class Boom(Exception):
    pass


def test_errors_inside_the_callback():
    g = leuctra.Game("crossings")
    calls = {"n": 0}

    def boom(planes, legal_start, legal):
        calls["n"] += 1
        raise Boom("from inside evaluate")

    e = raised(leuctra.search, g, boom, visits=500, batch=4)
    check("the user's exception reaches the caller, after one call", isinstance(e, Boom) and calls["n"] == 1,
          (type(e), e, calls))

    def interrupted(planes, legal_start, legal):
        raise KeyboardInterrupt

    check("KeyboardInterrupt inside evaluate stops the search", isinstance(raised(leuctra.search, g, interrupted,
                                                                                  visits=50), KeyboardInterrupt))
    bad = {
        "values of the wrong shape": lambda p, s, l: (np.zeros(len(p) + 1), np.ones(len(l))),
        "a policy of the wrong shape": lambda p, s, l: (np.zeros(len(p)), np.ones(len(l) + 1)),
        "no pair": lambda p, s, l: np.zeros(len(p)),
        "None": lambda p, s, l: None,
        "text": lambda p, s, l: ("x", "y"),
        "a NaN value": lambda p, s, l: (np.full(len(p), np.nan), np.ones(len(l))),
        "a value past 1": lambda p, s, l: (np.full(len(p), 1.5), np.ones(len(l))),
        "a value in [-1, 1]": lambda p, s, l: (np.full(len(p), -0.5), np.ones(len(l))),
        "a negative score": lambda p, s, l: (np.full(len(p), 0.5), -np.ones(len(l))),
        "a NaN score": lambda p, s, l: (np.full(len(p), 0.5), np.full(len(l), np.nan)),
        "an infinite score": lambda p, s, l: (np.full(len(p), 0.5), np.full(len(l), np.inf)),
    }
    for what, f in bad.items():
        e = raised(leuctra.search, g, f, visits=30)
        check("evaluate answering %s: InputError, one line" % what, isinstance(e, leuctra.InputError) and
              "\n" not in str(e), (type(e), e))
    check("evaluate not callable: TypeError", isinstance(raised(leuctra.search, g, 42, visits=10), TypeError))
    check("after all that the Game still searches", leuctra.search(g, uniform, visits=20).visits.sum() == 20)
    g.close()


def test_refused():
    g = leuctra.Game("crossings")
    for kw in ({"threads": 2}, {"time": 1.0}, {"playouts": True}, {"batch": 0}, {"batch": 1025}, {"visits": 0},
               {"nosuch": 1}, {"cpuct": -1.0}, {"weights": "/no/such/file.lwt"}):
        e = raised(leuctra.search, g, uniform, **kw)
        check("search refuses %r: InputError" % kw, isinstance(e, leuctra.InputError), (type(e), e))
    for kw in ({"batch": 1.5}, {"visits": "10"}, {"details": "yes"}):
        check("search refuses %r: TypeError" % kw, isinstance(raised(leuctra.search, g, uniform, **kw), TypeError))
    other = leuctra.Game("reversi")
    check("games of two variants: InputError", isinstance(raised(leuctra.search, [g, other], uniform, visits=5),
                                                          leuctra.InputError))
    check("more than 1,024 games: InputError", isinstance(raised(leuctra.search, [g] * 1025, uniform, visits=1),
                                                          leuctra.InputError))
    check("not a Game: TypeError", isinstance(raised(leuctra.search, [g, "x"], uniform), TypeError) and
          isinstance(raised(leuctra.search, 5, uniform), TypeError))
    other.close()
    check("a closed Game: LeuctraError", isinstance(raised(leuctra.search, other, uniform), leuctra.LeuctraError))
    check("own_evaluation outside a search: LeuctraError",
          isinstance(raised(leuctra.own_evaluation, np.zeros((1, 9, 8, 8)), np.zeros(2), np.zeros(1)),
                     leuctra.LeuctraError) and isinstance(raised(leuctra.leaf_positions), leuctra.LeuctraError))
    g.close()


def test_inside_the_callback():
    g = leuctra.Game("crossings")
    before = g.position()
    seen = []

    def positions(planes, legal_start, legal):
        seen.extend(leuctra.leaf_positions())
        return uniform(planes, legal_start, legal)

    leuctra.search(g, positions, visits=30, batch=4)
    ok = all(len(leuctra.Game("crossings", position=p).legal_actions()) > 0 for p in seen)
    check("leaf_positions: the leaves' positions, as Game reads them", len(seen) >= 25 and ok, len(seen))

    def meddles(planes, legal_start, legal):
        g.play("a2-a3")
        return uniform(planes, legal_start, legal)

    e = raised(leuctra.search, g, meddles, visits=10)
    check("a Game being searched refuses calls from its evaluate", isinstance(e, leuctra.LeuctraError) and
          g.position() == before and leuctra.search(g, uniform, visits=5).visits.sum() == 5, (type(e), e))

    def wrong_batch(planes, legal_start, legal):
        return leuctra.own_evaluation(planes[:1], legal_start[:2], legal[:legal_start[1]])

    check("own_evaluation of anything but the batch: InputError",
          isinstance(raised(leuctra.search, g, wrong_batch, visits=20, batch=8), leuctra.InputError))
    g.close()


def test_threads():
    """Two threads searching their own games at once, each through its own callback."""
    games = games_of("crossings", ["", "a2-a3"])
    want = [leuctra.search(g, leuctra.own_evaluation, visits=200, seed=3) for g in games]
    got = [None, None]

    def run(i):
        got[i] = leuctra.search(games[i], leuctra.own_evaluation, visits=200, seed=3)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    check("searches on two threads at once give the searches alone",
          all(g is not None and np.array_equal(g.visits, w.visits) for g, w in zip(got, want)))
    for g in games:
        g.close()


def same_records(a, b):
    return all(np.array_equal(a[k], b[k], equal_nan=a[k].dtype.kind == "f") for k in a if k != "meta")


def test_selfplay(tmp):
    cli = os.path.join(tmp, "cli.lrec")
    p = subprocess.run([LEUCTRA, "selfplay", "--variant", "crossings", "--size", "5x6", "--games", "8", "--visits",
                        "24", "--random-opening", "2", "--seed", "5", "--out", cli, "-q"], capture_output=True,
                       text=True)
    check("leuctra selfplay ran", p.returncode == 0, p.stderr)
    mine = os.path.join(tmp, "mine.lrec")
    counts = leuctra.selfplay("crossings", 8, leuctra.own_evaluation, mine, size="5x6", visits=24, seed=5,
                              random_opening=2, batch=1, evaluator="own")
    check("selfplay's summary", counts["played"] == 8 and counts["total"] == 8 and
          counts["white_wins"] + counts["black_wins"] + counts["draws"] == 8, counts)
    check("self-play through the callback (own evaluation, batch 1) plays leuctra selfplay's games",
          same_records(leuctra.read_records(cli), leuctra.read_records(mine)))
    wide = os.path.join(tmp, "wide.lrec")
    leuctra.selfplay("crossings", 8, leuctra.own_evaluation, wide, size="5x6", visits=24, seed=5, random_opening=2,
                     games_at_once=4, evaluator="own")
    with open(mine, "rb") as f, open(wide, "rb") as h:
        check("one leaf of each of 4 games per call: the same file", f.read() == h.read())
    info = subprocess.run([LEUCTRA, "records", "info", mine], capture_output=True, text=True)
    check("the settings say the evaluator is external, and name it", "evaluator=external own" in info.stdout or
          "evaluator=external own" in open(mine, "rb").read().decode("latin-1"), info.stdout[-400:])
    npz = os.path.join(tmp, "mine.npz")
    p = subprocess.run([LEUCTRA, "records", "export", mine, "-o", npz, "--quiet"], capture_output=True, text=True)
    check("records export reads it", p.returncode == 0 and len(leuctra.load_npz(npz)["played"]) ==
          len(leuctra.read_records(mine)["played"]), p.stderr)
    # resume: 5 games, then on to 8, is the file of 8 at once
    part = os.path.join(tmp, "part.lrec")
    leuctra.selfplay("crossings", 5, leuctra.own_evaluation, part, size="5x6", visits=24, seed=5, random_opening=2,
                     evaluator="own")
    more = leuctra.selfplay("crossings", 8, leuctra.own_evaluation, part, size="5x6", visits=24, seed=5,
                            random_opening=2, evaluator="own", resume=True)
    with open(part, "rb") as f, open(mine, "rb") as h:
        check("resumed from 5 games to 8: the file of 8", more["present"] == 5 and more["played"] == 3 and
              f.read() == h.read(), more)
    e = raised(leuctra.selfplay, "crossings", 9, leuctra.own_evaluation, part, size="5x6", visits=24, seed=5,
               random_opening=2, evaluator="another", resume=True)
    check("resuming with another evaluator's name: InputError naming it", isinstance(e, leuctra.InputError) and
          "evaluator" in str(e), e)
    e = raised(leuctra.selfplay, "crossings", 9, leuctra.own_evaluation, part, size="5x6", visits=24, seed=5,
               random_opening=2, evaluator="own")
    check("an existing file without resume: InputError", isinstance(e, leuctra.InputError), e)
    # an exception part way: the finished games stay, a resume completes the file
    broken = os.path.join(tmp, "broken.lrec")
    calls = {"n": 0}

    def flaky(planes, legal_start, legal):
        calls["n"] += 1
        if calls["n"] == 1500:
            raise Boom("generation lost")
        return leuctra.own_evaluation(planes, legal_start, legal)

    e = raised(leuctra.selfplay, "crossings", 8, flaky, broken, size="5x6", visits=24, seed=5, random_opening=2,
               evaluator="own", games_at_once=2)
    check("an exception inside self-play's evaluate reaches the caller", isinstance(e, Boom) and calls["n"] == 1500, e)
    done = leuctra.selfplay("crossings", 8, leuctra.own_evaluation, broken, size="5x6", visits=24, seed=5,
                            random_opening=2, evaluator="own", games_at_once=2, resume=True)
    with open(broken, "rb") as f, open(mine, "rb") as h:
        check("... and the games finished before it stay: a resume completes the file", 0 < done["present"] < 8 and
              f.read() == h.read(), done)
    for kw, kind in (({"games": 0}, leuctra.InputError), ({"batch": 0}, leuctra.InputError),
                     ({"games_at_once": 2000}, leuctra.InputError), ({"temperature": -1.0}, leuctra.InputError),
                     ({"variant": "chess"}, leuctra.InputError), ({"evaluator": "a\nb"}, leuctra.InputError),
                     ({"visits": 1.5}, TypeError), ({"evaluate": None}, TypeError)):
        args = {"variant": "crossings", "games": 2, "evaluate": uniform, "out": os.path.join(tmp, "x.lrec")}
        args.update(kw)
        e = raised(leuctra.selfplay, **args)
        check("selfplay refuses %r: %s" % (kw, kind.__name__), isinstance(e, kind), (type(e), e))


def test_engine_wrapper(tmp):
    engine = "engine:cmd=%s,args=%s --evaluator own --visits 30 --variant crossings,name=net" % (
        sys.executable, os.path.join(SCRIPTS, "net_engine.py"))
    env = dict(os.environ)
    p = subprocess.run([LEUCTRA, "match", engine, "random", "--variant", "crossings", "--games", "2", "--seed", "3"],
                       capture_output=True, text=True, timeout=300, env=env, cwd=tmp)
    check("leuctra match plays the engine wrapper to the end", p.returncode == 0 and "2 games" in p.stdout and
          "0 incidents" in p.stdout + p.stderr, (p.stdout[-500:], p.stderr[-500:]))
    lines = "leuctra\nisready\nnewgame variant crossings\nposition start moves a2-a3\ngo visits 40\n" \
            "setoption name nosuch value 1\nposition start moves a1-a9\nfrobnicate\n" \
            "position fen 8/8/8/8/8/8/8/8 w\ngo\nquit\n"
    q = subprocess.run([sys.executable, os.path.join(SCRIPTS, "net_engine.py"), "--evaluator", "own"], input=lines,
                       capture_output=True, text=True, timeout=120, env=env)
    out = q.stdout.splitlines()
    check("the wrapper's protocol: handshake, info and bestmove, one error line per bad command, none at the end",
          "leuctraok" in out and "readyok" in out and sum(l.startswith("bestmove ") for l in out) == 2 and
          out[-1] == "bestmove none" and sum(l.startswith("error ") for l in out) == 3 and
          any(l.startswith("info visits 40 ") for l in out), q.stdout[-600:] + q.stderr[-300:])


def test_alphazero_example(tmp):
    env = dict(os.environ, OMP_NUM_THREADS="1", OPENBLAS_NUM_THREADS="1")
    out = os.path.join(tmp, "az")
    p = subprocess.run([sys.executable, os.path.join(SCRIPTS, "alphazero_example.py"), out, "--generations", "2",
                        "--budget-seconds", "600", "--seed", "2"], capture_output=True, text=True, timeout=600, env=env)
    try:
        with open(os.path.join(out, "log.json")) as f:
            log = json.load(f)
    except (OSError, ValueError):
        log = {}
    check("alphazero_example.py: two generations, the network saved", p.returncode == 0 and
          len(log.get("generations", [])) == 2 and os.path.exists(os.path.join(out, "best.npz")),
          (p.stdout[-400:], p.stderr[-600:]))
    won, games = log.get("against", {}).get("random", 0), log.get("args", {}).get("eval_games", 0)
    check("alphazero_example.py: it beats random in more than 60%% of %d games" % games, won > 0.6 and games >= 20,
          p.stdout[-300:])
    check("alphazero_example.py: it beats the untrained network in more than 55%% of %d games"
          % log.get("against_untrained_games", 0), log.get("against_untrained", 0) > 0.55 and
          log["against_untrained_games"] >= 20, p.stdout[-300:])
    net = os.path.join(out, "best.npz")
    q = subprocess.run([sys.executable, os.path.join(SCRIPTS, "net_engine.py"), "--net", net, "--variant", "crossings"],
                       input="position start\ngo visits 20\nquit\n", capture_output=True, text=True, timeout=120)
    check("net_engine.py --net plays the example's network",
          bool(q.stdout) and q.stdout.splitlines()[-1].startswith("bestmove "), q.stderr[-300:])
    try:
        import torch  # noqa: F401
    except ImportError:
        print("skip: PyTorch not installed (apt-get install python3-torch), so the example's --torch is not tried")
        return
    # --torch: the same network in PyTorch, trained a little; saved, it is the numpy network's file
    sys.path.insert(0, SCRIPTS)
    import alphazero_example as az
    data = az.training_data([os.path.join(out, "gen0.lrec")])
    with leuctra.Game("crossings") as g:
        t = az.TorchNet(g.num_planes * g.width * g.height, 16, g.num_actions, 1)
    az.train(t, data, 1, 256, 2e-3, np.random.default_rng(1))
    t.save(os.path.join(tmp, "torch.npz"))
    n = az.NumpyNet.load(os.path.join(tmp, "torch.npz"))
    sample = data.take(np.arange(50))
    planes = sample.x.reshape(50, 9, 8, 8)
    (zt, vt), (zn, vn) = t.scores(planes, sample.start, sample.legal), n.scores(planes, sample.start, sample.legal)
    check("alphazero_example.py --torch: its network, saved, scores as the numpy one", np.allclose(zt, zn, atol=1e-4)
          and np.allclose(vt, vn, atol=1e-5), (zt[:4], zn[:4]))
    r = leuctra.search(leuctra.Game("crossings"), az.evaluator(t), visits=30)
    check("alphazero_example.py --torch: its evaluate guides a search", r.visits.sum() == 30)


def timed(f, *args):
    import time
    t = time.perf_counter()
    f(*args)
    if os.environ.get("LEUCTRA_TEST_TIMES"):
        print("%s: %.1f s" % (f.__name__, time.perf_counter() - t))


def main():
    timed(test_own_evaluation_is_the_search)
    timed(test_result_layout)
    timed(test_masked_policy)
    timed(test_errors_inside_the_callback)
    timed(test_refused)
    timed(test_inside_the_callback)
    timed(test_threads)
    tmp = tempfile.mkdtemp(prefix="leuctra-callback-")
    try:
        timed(test_selfplay, tmp)
        timed(test_engine_wrapper, tmp)
        if os.environ.get("LEUCTRA_TEST_INSTALLED"):
            print("skip: the AlphaZero example is a script of the source tree (tests/run.sh runs it)")
        else:
            timed(test_alphazero_example, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
