#!/usr/bin/env python3
"""python_fuzz.py - random and hostile arguments to every public call of the Python package
(python/leuctra): Game and each of its methods, VecGame and each of its methods, read_records,
load_npz, unpack_planes, Dataset and its batches, the network calls (leuctra.net: describe,
network_data, evaluate, save where PyTorch is installed, and the C API's lt_network_save itself
through ctypes, so that the sanitized run reaches it without PyTorch), search and selfplay
with hostile evaluators; with huge and negative integers, floats, NaN, None, bools, bytes, texts with a
NUL or that are not UTF-8, pathlib paths, missing files, folders, records, weights and .npz files
damaged at random, objects whose __index__ or __fspath__ misbehave, numpy scalars, action arrays
of every dtype and shape; then threads sharing one Game (searches with different weights files,
moves, copies, a close) and threads sharing one VecGame (steps, resets, a close).

Every call must end in a value or in one of the package's documented exceptions (LeuctraError
and its InputError, TypeError, ValueError; ImportError for the arrays without numpy), and the
process must live: a crash kills this runner before its summary line, which tests/run.sh counts
as a failure.  Fixed seed, bounded work (a few seconds).  `make check` runs it under ASan and
UBSan (LD_PRELOAD of the ASan runtime, LEUCTRA_LIB=build-san/libleuctra.so), where a use after
free inside the library (two threads on one Game without its lock) is reported and fails it.

    LEUCTRA=build/leuctra LEUCTRA_LIB=$PWD/build/libleuctra.so python3 tests/python/python_fuzz.py
    [LEUCTRA_FUZZ_SEED=47] [LEUCTRA_FUZZ_CALLS=2500]

Ends with "N passed, N failed" (tests/run.sh adds it up)."""
import copy
import faulthandler
import math
import os
import pathlib
import pickle
import random
import shutil
import subprocess
import sys
import tempfile
import threading
import warnings

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # tests/checks.py
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):  # tests/python/venv_test.sh: the installed package
    sys.path.insert(0, os.path.join(ROOT, "python"))
from checks import check, summary  # noqa: E402

faulthandler.enable()
try:
    import leuctra
except ImportError as e:
    if "libleuctra.so not found" in str(e):
        print("skip: %s" % e)
        sys.exit(summary())
    raise
try:
    import numpy as np
except ImportError:
    np = None

LEUCTRA = os.environ.get("LEUCTRA", os.path.join(ROOT, "build", "leuctra"))
SEED = int(os.environ.get("LEUCTRA_FUZZ_SEED", "47"))
CALLS = int(os.environ.get("LEUCTRA_FUZZ_CALLS", "2500"))
VARIANTS = ("epaminondas", "crossings", "igfip", "reversi")


class EvilError(Exception):
    """What the hostile objects below raise: the package must let it through, not crash."""


class EvilIndex:
    def __index__(self):
        raise EvilError("__index__")


class EvilPath:
    def __fspath__(self):
        raise EvilError("__fspath__")


class IntPath:
    def __fspath__(self):
        return 5


def shown(value):
    if isinstance(value, int) and value.bit_length() > 128:
        return "an int of %d bits" % value.bit_length()
    return repr(value)[:60]


DOCUMENTED = (leuctra.LeuctraError, TypeError, ValueError, EvilError) + (() if np is not None else (ImportError,))
# PyTorch, for leuctra.net.save, but not under the sanitizers' preloaded runtime (the ASan run of
# `make check`), where the C API's lt_network_save is reached through ctypes alone.
try:
    if "asan" in os.environ.get("LD_PRELOAD", ""):
        raise ImportError("not under ASan")
    import torch  # noqa: F401
    TORCH = True
except ImportError:
    TORCH = False


_SQUARES = {}


def raw_network(r):
    """A valid lt_network_save call's arguments (Crossings 8x8, square inputs, H 16) with random
    weights: path, variant, size, weights, inputs, shapes, hidden, arrays, lengths."""
    if not _SQUARES:
        _SQUARES.update(leuctra.net.describe("crossings", None, "squares"))
    h, n, a, b = 16, _SQUARES["num_inputs"], _SQUARES["num_actions"], _SQUARES["buckets"]
    lengths = [n * h, h, h * 32, 32, b * 32, b, a * 32, a]
    rng = np.random.default_rng(r.randrange(2 ** 32))
    arrays = [rng.uniform(-0.1, 0.1, k).astype(np.float32) for k in lengths]
    return None, b"crossings", None, None, 2, None, h, arrays, lengths


def raw_save(path, variant, size, weights, inputs, shapes, hidden, arrays, lengths, positions, note):
    """lt_network_save through ctypes; its status."""
    import ctypes
    lib = leuctra._lib
    pointers = (ctypes.c_void_p * 8)(*(x.ctypes.data if len(x) else None for x in arrays))
    sizes = (ctypes.c_int64 * 8)(*lengths)
    texts = (ctypes.c_char_p * max(1, len(positions)))(*positions)
    err = ctypes.create_string_buffer(512)
    status = lib.lt_network_save(path, variant, size, weights, inputs, shapes, hidden, pointers, sizes, texts,
                                 len(positions), note, err, 512)
    if b"\n" in err.value:
        raise RuntimeError("a message of more than one line: %r" % err.value)
    return status


class Fuzz:
    def __init__(self, tmp, rng):
        self.tmp, self.rng = tmp, rng
        self.calls, self.raised, self.bad = 0, 0, []
        self.tally = {}                 # call: [returned, raised]
        self.files = self.make_files()

    # --- files, good and damaged --------------------------------------------------------------
    def make_files(self):
        files = {"missing": os.path.join(self.tmp, "missing.lrec"), "folder": self.tmp}
        lrec = os.path.join(self.tmp, "small.lrec")
        p = subprocess.run([LEUCTRA, "selfplay", "--variant", "crossings", "--size", "5x5", "--games", "3",
                            "--visits", "20", "--threads", "1", "--quiet", "--out", lrec], capture_output=True, text=True)
        check("selfplay for the fuzz records file", p.returncode == 0, p.stderr)
        files["lrec"] = lrec
        lrec8 = os.path.join(self.tmp, "small8.lrec")     # the network calls' (the 8x8 board's sets are quick)
        p = subprocess.run([LEUCTRA, "selfplay", "--variant", "crossings", "--games", "3", "--visits", "20",
                            "--threads", "1", "--quiet", "--out", lrec8], capture_output=True, text=True)
        check("selfplay for the fuzz's network records file", p.returncode == 0, p.stderr)
        files["lrec8"] = lrec8
        for name, extra in (("npz", []), ("packed", ["--packed"]), ("dense", ["--dense"]), ("aug", ["--augment"])):
            out = os.path.join(self.tmp, name + ".npz")
            p = subprocess.run([LEUCTRA, "records", "export", lrec, "-o", out, "--quiet"] + extra,
                               capture_output=True, text=True)
            check("export --format npz %s for the fuzz" % " ".join(extra), p.returncode == 0, p.stderr)
            files[name] = out
        files["weights"] = os.path.join(ROOT, "data", "weights", "crossings.lwt")
        files["weights-txt"] = os.path.join(ROOT, "data", "weights", "crossings.txt")
        files["weights-other"] = os.path.join(ROOT, "data", "weights", "reversi.lwt")
        files["weights-copy"] = os.path.join(self.tmp, "weights-copy.lwt")     # one a hostile save may replace
        shutil.copy(files["weights"], files["weights-copy"])
        odd = os.path.join(os.fsencode(self.tmp), b"odd-\xff.lrec")
        shutil.copy(lrec, odd)
        files["odd-bytes"] = odd
        files["odd-str"] = os.fsdecode(odd)
        for i, source in enumerate(("lrec", "npz", "packed", "weights-txt", "weights") * 4):
            data = bytearray(open(files[source], "rb").read())
            self.damage(data)
            path = os.path.join(self.tmp, "damaged-%d-%s" % (i, os.path.basename(files[source])))
            with open(path, "wb") as f:
                f.write(data)
            files["damaged-%d" % i] = path
        empty = os.path.join(self.tmp, "empty.lrec")
        open(empty, "wb").close()
        files["empty"] = empty
        if np is not None:
            # no ply reaches these visits, so no game has moves to copy (memcpy from no buffer,
            # which UBSan refuses, until tune_network_data skipped it)
            data = leuctra.network_data(lrec8, inputs="squares", min_visits=2 ** 30)
            check("network_data with no policy targets", len(data["train"]["action"]) == 0 and
                  len(data["train"]["input"]) > 0, data["meta"])
            files["net"] = os.path.join(self.tmp, "net.lwt")
            status = raw_save(os.fsencode(files["net"]), *raw_network(random.Random(SEED))[1:], [], b"fuzz")
            check("lt_network_save writes the fuzz's network file", status == 0, status)
        return files

    def damage(self, data):
        r = self.rng
        kind = r.randrange(4)
        if kind == 0 and data:                      # flip bytes
            for _ in range(r.randint(1, 8)):
                data[r.randrange(len(data))] ^= 1 << r.randrange(8)
        elif kind == 1:                             # cut
            del data[r.randrange(len(data) + 1):]
        elif kind == 2:                             # insert garbage
            at = r.randrange(len(data) + 1)
            data[at:at] = bytes(r.randrange(256) for _ in range(r.randint(1, 64)))
        else:                                       # overwrite a stretch
            at = r.randrange(max(1, len(data)))
            data[at:at + 16] = b"\xff" * 16

    # --- values ---------------------------------------------------------------------------------
    def integer(self, good=()):
        r = self.rng
        pool = [0, 1, -1, 2, 2 ** 31 - 1, 2 ** 31, -2 ** 31 - 1, 2 ** 32 + 2, -2 ** 32 + 2, 2 ** 63 - 1, 2 ** 63,
                2 ** 64 + 5, -2 ** 64, 10 ** 30, 10 ** 5000, True, False, 1.5, 2.0, float("nan"), float("inf"), None,
                "2", b"2", [2], EvilIndex()]
        if np is not None:
            pool += [np.int64(2), np.int32(-1), np.uint64(2 ** 64 - 1), np.bool_(True), np.float64(2.0), np.int8(1)]
        return r.choice(list(good)) if good and r.random() < 0.5 else r.choice(pool)

    def real(self, good=()):
        r = self.rng
        pool = [0, 0.0, -0.0, 0.001, -1, float("nan"), float("inf"), -float("inf"), 1e7, 10 ** 400, True, None, "0.1",
                b"1", EvilIndex()]
        if np is not None:
            pool += [np.float32(0.001), np.float64("nan"), np.int64(0)]
        return r.choice(list(good)) if good and r.random() < 0.5 else r.choice(pool)

    def text(self, good=()):
        r = self.rng
        pool = ["", "start", "a\0b", "\udcff", "\ud800", "x" * 100000, "pass", "a1-a2", "reversi", " ", "\n",
                "é", b"start", None, 5, pathlib.Path("start")]
        return r.choice(list(good)) if good and r.random() < 0.6 else r.choice(pool)

    def path(self, good=()):
        r = self.rng
        names = list(self.files)
        pool = [None, 5, 2.5, b"", "", "x\0y", self.files["lrec"] + "\0junk", "\udcff", EvilPath(), IntPath(),
                pathlib.Path(self.files["missing"]), bytearray(b"x"), ["x"]]
        if good and r.random() < 0.4:
            return r.choice(list(good))
        if r.random() < 0.6:
            p = self.files[r.choice(names)]
            return r.choice([p, pathlib.Path(os.fsdecode(p)), os.fsencode(p)])
        return r.choice(pool)

    def one_hostile(self, valid, hostile):
        """Keyword arguments: the valid ones, with (most of the time) one made hostile, so that
        the checks behind the first are reached too."""
        kw = dict(valid)
        if self.rng.random() < 0.75:
            key = self.rng.choice(sorted(hostile))
            kw[key] = hostile[key]()
        return kw

    # --- the calls ------------------------------------------------------------------------------
    def call(self, what, f, *args, allowed=(), **kw):
        self.calls += 1
        tally = self.tally.setdefault(what, [0, 0])
        try:
            got = f(*args, **kw)
            tally[0] += 1
            return got
        except DOCUMENTED + allowed:
            self.raised += 1
            tally[1] += 1
        except Exception as e:
            self.bad.append("%s(%s): %s: %s" % (what, ", ".join(shown(a) for a in list(args) + list(kw.values())),
                                                type(e).__name__, str(e)[:160]))
        return None

    def new_game(self):
        r = self.rng
        variant = r.choice(VARIANTS) if r.random() < 0.8 else self.text()
        size = r.choice([None, None, "5x5", (6, 6), "8x8", "2x2", (3, 10 ** 20), (5, 5.5), "99x99", [5], "x", b"5x5",
                         (np.int64(6), np.int64(6)) if np is not None else (6, 6)])
        position = None if r.random() < 0.8 else self.text(["start"])
        return self.call("Game", leuctra.Game, variant, size, position)

    def game_call(self, g):
        r = self.rng
        try:                                    # what the arguments are drawn from, not counted
            moves, actions = g.legal_moves(), g.legal_actions()
        except leuctra.LeuctraError:            # closed
            moves, actions = [], []
        op = r.randrange(17)
        if op == 0:
            self.call("play", g.play, self.text(moves) if r.random() < 0.5 else self.integer(actions))
        elif op == 1:
            self.call("undo", g.undo)
        elif op == 2:
            self.call("perft", g.perft, **self.one_hostile({"depth": 2, "threads": r.choice([0, 1, 2, 9])},
                                                           {"depth": self.integer, "threads": self.integer}))
        elif op == 3:
            self.call("action_of", g.action_of, self.text(moves))
        elif op == 4:
            self.call("move_of", g.move_of, self.integer(actions))
        elif op == 5:
            self.call("set_position", g.set_position, self.text(["start", g.position() if not g.closed else "start"]))
        elif op == 6:
            self.call("planes", g.planes)
            self.call("legal_mask", g.legal_mask)
        elif op == 7:
            # valid visit counts stay small (a valid 2**31 would search for hours); the rest is hostile
            visits = lambda: r.choice([0, -1, 10 ** 12 + 1, 2 ** 63, 2 ** 64 + 5, True, 1.0, None, "5", EvilIndex()] +
                                      ([np.int64(5), np.uint8(3)] if np is not None else []))
            weights = lambda: self.path([self.files["weights-txt"], self.files["weights-other"]])
            valid = {"visits": r.choice([1, 5, 30]), "seconds": r.choice([0, 0.001]),
                     "weights": r.choice([None, os.path.join(ROOT, "data", "weights", g.variant + ".lwt"),
                                          pathlib.Path(ROOT, "data", "weights", g.variant + ".txt")]),
                     "seed": r.choice([0, 1, 2 ** 64 - 1]), "threads": r.choice([0, 1, 2])}
            kw = self.one_hostile(valid, {"visits": visits, "seconds": self.real, "weights": weights,
                                          "seed": self.integer, "threads": self.integer})
            if type(kw["visits"]) is int and kw["visits"] == 0 and kw["seconds"] == 0:
                kw["seconds"] = 0.002
            self.call("analyze", g.analyze, **kw)
        elif op == 8:
            c = self.call("copy", g.copy)
            if c is not None:
                self.call("copy's status", c.status)
                self.call("copy.copy", copy.copy, c)
                self.call("copy.deepcopy", copy.deepcopy, c)
        elif op == 9:
            self.call("pickle", pickle.dumps, g)
        elif op == 10:
            self.call("repr", repr, g)
            self.call("position", g.position)
            self.call("side_to_move", g.side_to_move)
            self.call("status", g.status)
        elif op == 11 and r.random() < 0.3:
            self.call("close", g.close)
        elif op == 12:
            def use():
                with g as h:
                    h.legal_moves()
            self.call("with", use)
        elif op == 13:
            self.call("setattr", setattr, g, r.choice(["num_planes", "width", "variant"]), self.integer(),
                      allowed=(AttributeError,))       # the shape is read-only
        else:
            self.call("play a legal move", g.play, r.choice(moves)) if moves else self.call("undo", g.undo)

    # --- VecGame --------------------------------------------------------------------------------
    def new_vec(self):
        r = self.rng
        small = lambda: r.choice([1, 2, 3, 5])
        specs = [None, "random", "greedy", "mcts:visits=3", "mcts:visits=2,cpuct=1.1", "engine:/bin/true", "mcts:threads=2",
                 "greedy:weights=" + self.files["weights-txt"], "greedy:weights=" + self.files["damaged-3"], "random:x=1",
                 "", "mcts:visits=", 7, b"random", "\udcff"]
        valid = {"variant": r.choice(VARIANTS), "n": small(), "size": None, "seed": r.choice([0, 5, 2 ** 64 - 1]),
                 "threads": r.choice([0, 1, 2]), "max_plies": r.choice([2, 7, 600]), "repetition": r.choice([True, False]),
                 "random_opening": r.choice([0, 1]), "opponent": r.choice(specs[:5]),
                 "planes": r.choice([True, False]), "masks": r.choice([True, False])}
        if valid["opponent"] is not None and r.random() < 0.5:
            valid["agent_colour"] = r.choice(["white", "black", "alternate"])
        if valid["variant"] != "reversi" and r.random() < 0.3:
            valid["size"] = r.choice(["5x5", (6, 7)])
        hostile = {"variant": self.text, "n": self.integer, "size": lambda: r.choice(["2x2", "x", (3, 10 ** 20), b"5x5"]),
                   "seed": self.integer, "threads": self.integer, "max_plies": self.integer,
                   "repetition": lambda: r.choice([2, "yes", None]), "random_opening": self.integer,
                   "opponent": lambda: r.choice(specs), "agent_colour": lambda: r.choice(["red", "", None, 1, "white"]),
                   "planes": lambda: r.choice([2, None]), "masks": lambda: r.choice(["x", 0.5])}
        return self.call("VecGame", leuctra.VecGame, **self.one_hostile(valid, hostile))

    def actions_for(self, v):
        r = self.rng
        try:
            obs = v.observe()
            pick = (np.random.default_rng(r.randrange(1000)).random(v.n) * obs.legal_count).astype(np.int64)
            legal = obs.legal[obs.legal_start + pick]
        except leuctra.LeuctraError:        # closed
            legal = np.zeros(v.n, np.int32)
        if r.random() < 0.5:
            return r.choice([legal, legal.astype(np.int64), legal.tolist(), legal.astype(np.uint16), legal[::-1].copy()])
        bad = legal.astype(np.int64)
        bad[r.randrange(v.n)] = r.choice([-1, v.num_actions, 2 ** 31, 2 ** 40, -2 ** 63, 0])
        return r.choice([bad, bad.astype(np.float64), bad.astype(bool), bad[:-1], np.zeros((v.n, 1), np.int32),
                         [str(x) for x in bad], None, [EvilIndex()] * v.n, legal[::2], np.array([2 ** 70] * v.n),
                         bad.astype(np.int32), legal.astype(np.int8)])

    def vec_call(self, v):
        r = self.rng
        op = r.randrange(8)
        if op < 3:
            self.call("VecGame.step", v.step, self.actions_for(v))
        elif op == 3:
            self.call("VecGame.reset", v.reset, **({} if r.random() < 0.5 else {"seed": self.integer([0, 3])}))
        elif op == 4:
            self.call("VecGame.position", v.position, self.integer([0, v.n - 1]))
            self.call("VecGame.game", v.game, self.integer([0, v.n - 1]))
        elif op == 5:
            self.call("VecGame.observe", v.observe)
            self.call("VecGame repr", repr, v)
        elif op == 6 and r.random() < 0.3:
            self.call("VecGame.close", v.close)
        else:
            self.call("VecGame pickle", pickle.dumps, v)

    def data_call(self):
        r = self.rng
        op = r.randrange(6)
        good = [self.files["lrec"], self.files["odd-bytes"], self.files["odd-str"]]
        if op == 0:
            valid = {"path": r.choice(good), "augment": r.choice([False, True]), "batch_rows": r.choice([1, 7, 65536])}
            self.call("read_records", leuctra.read_records, **self.one_hostile(valid, {
                "path": self.path, "augment": lambda: r.choice([1, 2, "yes", None, 0.5]), "batch_rows": self.integer}))
        elif op == 1:
            self.call("load_npz", leuctra.load_npz, self.path([self.files["npz"], self.files["packed"]]),
                      unpack=r.choice([True, False, 0, None, "no"]))
        elif op == 2:
            self.call("unpack_planes", leuctra.unpack_planes, **self.planes_args())
        else:
            source = self.path([self.files[k] for k in ("npz", "packed", "dense", "aug", "lrec")]) \
                if r.random() < 0.7 else self.dataset_dict()
            ds = self.call("Dataset", leuctra.Dataset, source, augment=r.choice([False, True, None]))
            if ds is not None:
                n = len(ds)
                rows = r.choice([[0], list(range(min(n, 7))), [n], [-1], [0.5], [[0]], "0", None, [2 ** 70],
                                 [True], [], range(n)])
                self.call("batch", ds.batch, rows)
                it = self.call("batches", ds.batches, self.integer([1, 3, 100]), rows=r.choice([None, [0, 1], [-5]]),
                               shuffle=r.choice([True, False, 2]), seed=self.integer([0, 5]))
                if it is not None:
                    self.call("next batch", next, iter(it), None)

    def planes_args(self):
        r = self.rng
        if np is None:
            return {"packed": None, "meta": None}
        packed = lambda: r.choice([np.zeros((2, 29), np.int8), np.zeros(5, np.uint8), np.zeros((0, 28), np.uint8),
                                   [[1, 2]], None, np.zeros((1, 10 ** 3), np.uint8), "packed"])
        meta = lambda: r.choice([{"height": 0, "width": 5}, {"height": 10 ** 9, "width": 10 ** 9},
                                 {"height": "5", "width": 5}, {"height": 5, "width": 5, "planes": 9}, {}, None, [],
                                 {"height": True, "width": 5}, {"height": 5, "width": 5, "planes": list(range(100))}])
        valid = {"packed": np.frombuffer(bytes(r.randrange(256) for _ in range(58)), np.uint8).reshape(2, 29),
                 "meta": r.choice([{"height": 5, "width": 5}, {"height": 5, "width": 5, "planes": list("abcdefghi")}])}
        return self.one_hostile(valid, {"packed": packed, "meta": meta})

    def dataset_dict(self):
        r = self.rng
        if np is None:
            return {}
        base = leuctra.read_records(self.files["lrec"])
        d = dict(base)
        key = r.choice(["played", "legal", "legal_count", "visits", "planes", "meta", "result", "game"])
        n = len(base["played"])
        d[key] = r.choice([None, np.zeros(3, np.int16), np.array(["x"]), {"num_actions": -1}, {"num_actions": 10 ** 9},
                           {"num_actions": "5"}, np.full(n, 10 ** 4, np.int64), np.full(n, -3, np.int16), "text",
                           np.zeros((n, 2), np.float32), np.zeros(n, object), [[1], [1, 2]]])
        if r.random() < 0.2:
            d.pop(key, None)
        return d

    def network_call(self):
        r = self.rng
        net = leuctra.net
        variant = lambda: r.choice(VARIANTS + ("", "chess")) if r.random() < 0.7 else self.text()
        size = lambda: r.choice([None, "8x8", (8, 8), "5x5", "2x2", (3, 10 ** 20), "x", b"8x8", [5]])
        inputs = lambda: r.choice(["patterns", "squares", "both", "planes", "", None, 1, b"both", "a\0b"])
        shapes = lambda: r.choice([None, "base", "base,2x4", "all", "hexagons", "", "a\0b", 5, "\udcff"])
        weights = lambda: self.path([None, self.files["weights-txt"], self.files["net"]])
        op = r.randrange(5 if TORCH else 4)
        if op == 0:
            valid = {"variant": "crossings", "size": None, "inputs": "squares", "shapes": None, "weights": None}
            self.call("describe", net.describe, **self.one_hostile(valid, {
                "variant": variant, "size": size, "inputs": inputs, "shapes": shapes, "weights": weights}))
        elif op == 1:
            valid = {"records": r.choice([self.files["lrec8"], [self.files["lrec8"]] * 2]),
                     "inputs": "squares", "validation": r.choice([0, 0.25]), "lambda_": 0.5,
                     "min_visits": r.choice([1, 50]), "skip_opening": r.choice([0, 3]), "threads": r.choice([0, 1, 2])}
            records = lambda: r.choice([self.path(), [], [self.path()], [self.files["lrec8"], self.files["damaged-0"]],
                                        [self.files["lrec8"], self.files["lrec"]], [self.files["lrec8"]] * 5000, 5])
            self.call("network_data", leuctra.network_data, **self.one_hostile(valid, {
                "records": records, "inputs": inputs, "validation": self.real, "lambda_": self.real,
                "min_visits": self.integer, "skip_opening": self.integer, "threads": self.integer,
                "weights": weights, "shapes": shapes}))
        elif op == 2:
            self.call("lt_network_save", self.raw_save_call)
        elif op == 3:
            good = [leuctra.Game("crossings").position()]
            positions = lambda: r.choice([[], ["start"] * 3, [self.text()], "start", None, [None], [5],
                                          ["x" * 100000], good * 2])
            valid = {"weights": self.files["net"], "positions": good, "variant": "crossings", "size": None}
            self.call("evaluate", net.evaluate, **self.one_hostile(valid, {
                "weights": weights, "positions": positions, "variant": variant, "size": size}))
        else:
            self.model_save()

    def raw_save_call(self):
        """lt_network_save through ctypes with hostile numbers, arrays and texts (each array as long
        as it is said to be, as the C API requires of its caller)."""
        r = self.rng
        path, variant, size, weights, inputs, shapes, hidden, arrays, lengths = raw_network(r)
        pick = r.randrange(12)
        if pick == 0:
            path = r.choice([b"", os.fsencode(self.tmp), os.fsencode(self.files["net"]) + b".txt",
                             os.fsencode(self.files["weights-copy"]), b"/nonexistent/dir/x.lwt"])
        elif pick == 1:
            weights = r.choice([b"", os.fsencode(self.files["weights-other"]), os.fsencode(self.files["missing"]),
                                os.fsencode(self.files["damaged-3"])])
        elif pick == 2:
            inputs = r.choice([0, 4, -1, 2 ** 31 - 1])
        elif pick == 3:
            hidden = r.choice([0, 15, 17, 272, -16, 2 ** 31 - 1])
        elif pick == 4:
            shapes = r.choice([b"hexagons", b"", b"all", b"base,"])
        elif pick == 5:
            k = r.randrange(8)
            lengths[k] = r.choice([0, -1, lengths[k] + 1, lengths[k] - 1, 2 ** 40, -2 ** 63])
            arrays[k] = arrays[k][:max(0, min(lengths[k], len(arrays[k])))]
        elif pick == 6:
            k = r.randrange(8)
            if len(arrays[k]):
                arrays[k][r.randrange(len(arrays[k]))] = r.choice([float("nan"), float("inf"), 1e7, -3e38])
        elif pick == 7:
            variant, size = r.choice([(b"reversi", None), (b"chess", None), (b"crossings", b"99x99"), (None, b"x"),
                                      (b"crossings", b"5x5")])
        good = leuctra.Game("crossings").position().encode()
        positions = r.choice([[], [good] * 3, [good], [b"start"], [b"garbage"], [b""]])
        out = os.path.join(os.fsencode(self.tmp), b"raw.lwt") if pick != 0 else path
        note = r.choice([None, b"a note", b"x" * 100000, b"two\nlines"])
        status = raw_save(out, variant, size, weights, inputs, shapes, hidden, arrays, lengths, positions, note)
        if status not in (0, 1, 2):
            raise RuntimeError("lt_network_save returned %r" % status)
        if status != 0:
            raise leuctra.InputError("refused")

    def model_save(self):
        r = self.rng
        raw_network(r)
        model = leuctra.net.NetworkModel(_SQUARES, hidden=16, seed=r.randrange(100), heads=True)
        valid = {"path": os.path.join(self.tmp, "model.lwt"), "weights": None,
                 "sample": [leuctra.Game("crossings").position()], "note": None}
        # a hostile path, but none that names a file in the current folder (a relative one)
        path = lambda: r.choice([None, 5, b"", "", "x\0y", os.path.join(self.tmp, "\udcff.lwt"), EvilPath(), IntPath(), self.tmp,
                                 os.path.join(self.tmp, "no", "such", "dir.lwt"), self.files["weights-copy"],
                                 pathlib.Path(self.tmp, "p.lwt"), os.path.join(self.tmp, "t.txt")])
        sample = lambda: r.choice([None, ["start"], "start", [5], [None], {"train": {"sample": ["start"]}},
                                   {"train": None}, [self.text()]])
        note = lambda: r.choice([None, "", "a\0b", "\udcff", "x" * 100000, 5, b"note"])
        self.call("save", leuctra.net.save, model=model, **self.one_hostile(valid, {
            "path": path, "weights": lambda: self.path([None]), "sample": sample, "note": note}))

    def run(self, calls):
        games, vecs = [], []
        while self.calls < calls:
            if np is not None and self.rng.random() < 0.15:
                if not vecs or self.rng.random() < 0.15:
                    v = self.new_vec()
                    if v is not None:
                        vecs = (vecs + [v])[-3:]
                else:
                    self.vec_call(self.rng.choice(vecs))
                continue
            if not games or self.rng.random() < 0.05:
                g = self.new_game()
                if g is not None:
                    games = (games + [g])[-4:]
                continue
            if self.rng.random() < 0.15:
                self.data_call()
                continue
            if np is not None and self.rng.random() < 0.04:
                self.network_call()
                continue
            g = self.rng.choice(games)
            if g.closed and self.rng.random() < 0.7:        # a closed Game is tried now and then
                games.remove(g)
                continue
            self.game_call(g)


def guided_calls(fuzz, rounds):
    """leuctra.search and leuctra.selfplay (guided.py) with hostile arguments and hostile
    evaluators: ones that raise, answer with the wrong shapes, types, NaN, infinities, negative
    or huge numbers, keep the arrays they were given and read them after the search, write into
    them, search other games from inside, or call own_evaluation with the wrong arrays.  Only
    documented exceptions, the evaluator's own included."""
    r = fuzz.rng
    games = [leuctra.Game("crossings", size=r.choice(["5x5", "5x6", "6x6"])) for _ in range(3)]
    kept = []

    def answer(p, s, l):
        return np.full(len(p), 0.5), np.ones(len(l), np.float32)

    def nested(p, s, l):
        other = leuctra.Game("crossings", size="5x5")
        leuctra.search(other, answer, visits=3)
        return leuctra.own_evaluation(p, s, l)

    evaluators = [
        answer, leuctra.own_evaluation, nested,
        lambda p, s, l: (_ for _ in ()).throw(EvilError("evaluate")),
        lambda p, s, l: kept.append((p, s, l)) or answer(p, s, l),
        lambda p, s, l: p.__setitem__(0, 1) or answer(p, s, l),
        lambda p, s, l: leuctra.own_evaluation(p[:0], s, l),
        lambda p, s, l: (np.full(len(p), r.choice([np.nan, np.inf, -1.0, 2.0, 1e300])), np.ones(len(l))),
        lambda p, s, l: (np.full(len(p), 0.5), np.full(len(l), r.choice([np.nan, -np.inf, -1e-30, 1e39]))),
        lambda p, s, l: (np.zeros(r.choice([0, len(p) + 1, 2 * len(p) + 5])), np.ones(len(l))),
        lambda p, s, l: (np.zeros(len(p)), np.ones(r.choice([0, len(l) + 1]))),
        lambda p, s, l: (np.zeros(len(p)), np.ones((len(p), r.choice([1, 7, 10 ** 4])))),
        lambda p, s, l: r.choice([None, 5, "text", (1,), (1, 2, 3), {"a": 1}, [np.zeros(len(p))]]),
        lambda p, s, l: (np.array(["x"] * len(p)), np.ones(len(l))),
        lambda p, s, l: (np.zeros(len(p), object), np.ones(len(l), object)),
        lambda p, s, l: ([[0.5]] * len(p), [1] * len(l)),
        42, None, "evaluate",
    ]
    for _ in range(rounds):
        evaluate = r.choice(evaluators)
        picked = [g for g in games if r.random() < 0.7] or games[:1]
        same = [g for g in picked if g.width == picked[0].width and g.height == picked[0].height]
        valid = {"games": same, "evaluate": evaluate, "visits": r.choice([1, 5, 20]), "batch": r.choice([1, 3, 64])}
        hostile = {"games": lambda: r.choice([[], "games", [None], picked, [games[0]] * 2000, games[0]]),
                   "visits": fuzz.integer, "batch": fuzz.integer, "seed": fuzz.integer,
                   "cpuct": fuzz.real, "nodes": fuzz.integer, "details": lambda: r.choice([True, 2, "x", None]),
                   "threads": lambda: r.choice([0, 1, 2]), "time": fuzz.real, "weights": fuzz.path}
        fuzz.call("search", leuctra.search, **fuzz.one_hostile(valid, hostile))
        if r.random() < 0.15:
            out = os.path.join(fuzz.tmp, "guided-%d.lrec" % fuzz.calls)
            valid = {"variant": "crossings", "games": r.choice([1, 2]), "evaluate": evaluate, "out": out,
                     "size": "5x5", "visits": r.choice([2, 8])}
            hostile = {"variant": fuzz.text, "games": fuzz.integer, "out": fuzz.path, "visits": fuzz.integer,
                       "seed": fuzz.integer, "size": lambda: r.choice(["2x2", "x", (3, 10 ** 20)]),
                       "games_at_once": fuzz.integer, "batch": fuzz.integer, "evaluator": fuzz.text,
                       "temperature": fuzz.real, "noise": fuzz.real, "max_plies": fuzz.integer,
                       "resume": lambda: r.choice([True, 2, "yes"]), "weights": fuzz.path}
            fuzz.call("selfplay", leuctra.selfplay, **fuzz.one_hostile(valid, hostile))
    # what evaluate kept is the bridge's own arrays: readable after the searches, never freed memory
    total = sum(int(p.sum()) + int(s.sum()) + int(l.sum()) for p, s, l in kept)
    check("guided searches: arrays an evaluate kept stay readable after the search (%d kept)" % len(kept),
          total >= 0 and len(kept) > 0)
    for g in games:
        g.close()


def threads_on_one_game(fuzz, rounds):
    """Threads sharing one Game: searches with different weights files (the swap that freed the
    weights under another thread's search before each Game had its lock), moves, copies; then a
    close while they run.  Only documented exceptions, and no crash."""
    files = fuzz.files
    g = leuctra.Game("crossings")
    bad = []

    def worker(k):
        r = random.Random(SEED + k)
        for i in range(rounds):
            try:
                op = r.randrange(5)
                if op < 2:
                    g.analyze(visits=r.choice([1, 3]), weights=r.choice([files["weights"], files["weights-txt"], None]),
                              threads=r.choice([1, 2]))
                elif op == 2:
                    moves = g.legal_moves()
                    if moves:
                        g.play(r.choice(moves))
                    else:
                        g.undo()
                elif op == 3:
                    try:
                        g.undo()
                    except leuctra.InputError:
                        pass
                else:
                    g.copy().planes()
            except leuctra.LeuctraError as e:
                if "closed" not in str(e) and not isinstance(e, leuctra.InputError):
                    bad.append(repr(e))
            except Exception as e:
                bad.append(repr(e))
    workers = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
    for t in workers:
        t.start()
    workers[0].join()
    g.close()                       # the others are still running
    for t in workers[1:]:
        t.join()
    check("threads sharing one Game (searches with two weights files, moves, copies, a close): "
          "only documented exceptions", not bad, bad[:3])


def threads_on_one_vec(rounds):
    """Threads sharing one VecGame: steps (legal and not), resets, positions, copies of a game,
    then a close while they run.  Only documented exceptions, and no crash."""
    v = leuctra.VecGame("crossings", 70, seed=4, threads=2, opponent="random")
    bad = []

    def worker(k):
        rng = np.random.default_rng(SEED + k)
        for i in range(rounds):
            try:
                op = rng.integers(4)
                if op < 2:
                    obs = v.observe()
                    pick = (rng.random(v.n) * obs.legal_count).astype(np.int64)
                    try:
                        actions = obs.legal[obs.legal_start + pick]
                    except IndexError:      # another thread's call rewrote the arrays meanwhile (documented)
                        continue
                    v.step(actions)         # or between here and the step: refused as illegal
                elif op == 2:
                    v.reset()
                else:
                    v.game(int(rng.integers(v.n))).planes()
            except leuctra.LeuctraError as e:
                if "closed" not in str(e) and not isinstance(e, leuctra.InputError):
                    bad.append(repr(e))
            except Exception as e:
                bad.append(repr(e))
    workers = [threading.Thread(target=worker, args=(k,)) for k in range(3)]
    for t in workers:
        t.start()
    workers[0].join()
    v.close()
    for t in workers[1:]:
        t.join()
    check("threads sharing one VecGame (steps, resets, games, a close): only documented exceptions", not bad, bad[:3])


def main():
    warnings.simplefilter("ignore", RuntimeWarning)     # the many-threads note
    tmp = tempfile.mkdtemp(prefix="leuctra-pyfuzz-")
    try:
        fuzz = Fuzz(tmp, random.Random(SEED))
        fuzz.run(CALLS)
        print("calls (returned/raised): " + ", ".join("%s %d/%d" % (k, v[0], v[1]) for k, v in sorted(fuzz.tally.items())))
        check("%d calls with random and hostile arguments (seed %d): only documented exceptions (%d raised)"
              % (fuzz.calls, SEED, fuzz.raised), not fuzz.bad, fuzz.bad[:5])
        check("the hostile calls raised often and returned often", fuzz.raised > fuzz.calls // 10 and
              fuzz.raised < fuzz.calls, (fuzz.raised, fuzz.calls))
        if np is not None:
            calls_before = fuzz.calls
            guided_calls(fuzz, 150)
            check("%d guided searches and self-play runs with hostile arguments and evaluators: only documented "
                  "exceptions" % (fuzz.calls - calls_before), not fuzz.bad, fuzz.bad[:5])
        threads_on_one_game(fuzz, 60)
        if np is not None:
            threads_on_one_vec(40)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
