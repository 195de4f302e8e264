#!/usr/bin/env python3
"""net_engine.py - your network as an engine: the subset of the engine protocol (docs/PROTOCOL.md)
that `leuctra match` speaks, answered by leuctra.search guided by a Python evaluator, so that a
researcher's network plays matches, gets ratings and meets any other engine.

    leuctra match 'engine:cmd=/usr/bin/python3,args=scripts/net_engine.py --net run/best.npz' random \\
        --variant crossings --games 20
    ... args=scripts/net_engine.py --evaluator mypackage.nets:evaluate          (a module's function)
    ... args=scripts/net_engine.py --evaluator path/to/file.py:make --evaluator-arg ckpt.pt
    ... args=scripts/net_engine.py --evaluator own        (leuctra's own evaluation: its MCTS, checked)

--evaluator MODULE:NAME or FILE.py:NAME names the evaluate function (planes, legal_start, legal)
-> (values, policy) of leuctra.search; with --evaluator-arg, NAME is a factory called with that
text (a checkpoint's path) that returns one.  --net FILE is scripts/alphazero_example.py's saved
network.  The search: --visits (default 400; `go visits N` and `setoption name visits` too),
--batch (16), --seed (1), and any search option by `setoption` (cpuct, fpu, ...).

Commands: leuctra/hello (the handshake), isready, setoption, newgame [variant V] [size WxH],
position start|fen BOARD SIDE [moves ...] (the whole game: its repetitions count), go [visits N]
(a clock or `time` is read and ignored: the search stops at its visits), stop (nothing: `go`
answers before the next line is read), quit.  Anything else, or a command that fails, gets one
`error ...` line; every `go` gets one `bestmove` (`none` where the game is over), after an `info`
line with the visits, the root value (`winprob`) and the move.  An exception inside the
evaluator is reported as `error go: ...` (match then asks once more, and counts a failure)."""
import argparse
import importlib
import importlib.util
import os
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import leuctra  # noqa: E402

NAME = "leuctra-net-engine"
VARIANTS = ("epaminondas", "crossings", "reversi", "igfip")
OPTION_TYPES = {o["name"]: o["type"] for o in leuctra.search_options()}     # the one table's


def load_evaluator(spec, arg):
    """The evaluate function that spec names ("own", MODULE:NAME, FILE.py:NAME)."""
    if spec == "own":
        return leuctra.own_evaluation
    where, _, name = spec.rpartition(":")
    if not where or not name:
        raise SystemExit("net_engine.py: --evaluator takes MODULE:NAME or FILE.py:NAME, got %r" % spec)
    if where.endswith(".py"):
        loaded = importlib.util.spec_from_file_location(os.path.splitext(os.path.basename(where))[0], where)
        if loaded is None or not os.path.exists(where):
            raise SystemExit("net_engine.py: no such file %r" % where)
        module = importlib.util.module_from_spec(loaded)
        loaded.loader.exec_module(module)
    else:
        module = importlib.import_module(where)
    thing = getattr(module, name)
    return thing(arg) if arg is not None else thing


class Engine:
    def __init__(self, evaluate, visits, batch, seed, variant):
        self.evaluate = evaluate
        self.options = {"visits": visits, "seed": seed}
        self.batch = batch
        self.variant, self.size = variant, None
        self.game = leuctra.Game(variant)

    def reply(self, line):
        sys.stdout.write(line + "\n")
        sys.stdout.flush()

    def handshake(self):
        self.reply("id name %s %s" % (NAME, leuctra.__version__))
        self.reply("id author the leuctra authors")
        self.reply("id protocol 2")
        self.reply("id variants " + " ".join(VARIANTS))
        self.reply("option name visits type int default %d min 1 max 1000000000000" % self.options["visits"])
        self.reply("option name batch type int default %d min 1 max 1024" % self.batch)
        self.reply("option name seed type int default %d min 0 max 9223372036854775807" % self.options["seed"])
        self.reply("leuctraok")

    def setoption(self, words):
        if len(words) < 4 or words[0] != "name" or "value" not in words:
            raise ValueError("setoption: expected 'setoption name NAME value VALUE'")
        at = words.index("value")
        name, value = " ".join(words[1:at]).lower(), " ".join(words[at + 1:])
        if name == "batch":
            self.batch = int(value)
            return
        kind = OPTION_TYPES.get(name)
        if kind is None or name in ("threads", "time", "playouts"):
            raise ValueError("setoption: unknown option '%s' (options: batch, %s)"
                             % (name[:40], ", ".join(n for n in OPTION_TYPES if n not in ("threads", "time", "playouts"))))
        try:
            self.options[name] = {"int": int, "float": float, "path": str,
                                  "bool": lambda v: v in ("true", "1")}[kind](value)
        except ValueError:
            raise ValueError("setoption: %s must be a %s, got '%s'" % (name, kind, value[:40])) from None

    def newgame(self, words):
        keys = dict(zip(words[::2], words[1::2]))
        variant = keys.get("variant", self.variant)
        size = keys.get("size", self.size if variant == self.variant else None)
        game = leuctra.Game(variant, size=size)
        self.game.close()
        self.game, self.variant, self.size = game, variant, size

    def position(self, words):
        if not words:
            raise ValueError("position: expected 'position start|fen BOARD SIDE [moves M...]'")
        if words[0] == "start":
            start, rest = None, words[1:]
        else:
            fen = words[1:3] if words[0] == "fen" else words[0:2]
            if len(fen) < 2:
                raise ValueError("position: expected 'position start|fen BOARD SIDE [moves M...]'")
            start, rest = " ".join(fen), words[3:] if words[0] == "fen" else words[2:]
        if rest and rest[0] != "moves":
            raise ValueError("position: expected 'moves' or the end of the line after the position, got '%s'"
                             % rest[0][:40])
        game = leuctra.Game(self.variant, size=self.size if start is None else None, position=start)
        for k, move in enumerate(rest[1:]):
            try:
                game.play(move)
            except leuctra.InputError as e:
                game.close()
                raise ValueError("position: %s (move %d of the list)" % (e, k + 1)) from None
        self.game.close()
        self.game = game
        self.size = "%dx%d" % (game.width, game.height)

    def go(self, words):
        options = dict(self.options)
        if "visits" in words and words.index("visits") + 1 < len(words):
            options["visits"] = int(words[words.index("visits") + 1])
        if self.game.status() != "ongoing":
            self.reply("bestmove none")
            return
        begin = time.perf_counter()
        r = leuctra.search(self.game, self.evaluate, batch=self.batch, **options)
        seconds = time.perf_counter() - begin
        visits = int(r.visits.sum())
        self.reply("info visits %d treevisits %d nodes %d winprob %.4f time %.3f vps %d pv %s"
                   % (visits, visits, visits, r.value[0], seconds, visits / max(seconds, 1e-6), r.best[0]))
        self.reply("bestmove %s" % r.best[0])

    def serve(self, lines):
        for raw in lines:
            words = raw.split()
            if not words:
                continue
            command, rest = words[0], words[1:]
            try:
                if command in ("leuctra", "hello"):
                    self.handshake()
                elif command == "isready":
                    self.reply("readyok")
                elif command == "setoption":
                    self.setoption(rest)
                elif command == "newgame":
                    self.newgame(rest)
                elif command == "position":
                    self.position(rest)
                elif command == "go":
                    self.go(rest)
                elif command == "stop":
                    pass
                elif command == "quit":
                    return
                else:
                    self.reply("error unknown command '%s'" % command[:40])
            except (ValueError, leuctra.LeuctraError) as e:
                self.reply("error %s" % " ".join(str(e).split())[:300] if command != "go"
                           else "error go: %s" % " ".join(str(e).split())[:300])
            except Exception as e:     # the evaluator's own failure: reported, the engine goes on
                self.reply("error %s: %s: %s" % (command, type(e).__name__, " ".join(str(e).split())[:300]))


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    which = ap.add_mutually_exclusive_group(required=True)
    which.add_argument("--net", help="a network scripts/alphazero_example.py saved (best.npz)")
    which.add_argument("--evaluator", help="own, MODULE:NAME or FILE.py:NAME")
    ap.add_argument("--evaluator-arg", help="NAME is a factory: called with this, it returns the evaluate")
    ap.add_argument("--visits", type=int, default=400)
    ap.add_argument("--batch", type=int, default=16)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--variant", default="epaminondas", choices=VARIANTS, help="the game before any newgame")
    a = ap.parse_args()
    if a.net:
        evaluate = load_evaluator(os.path.join(os.path.dirname(os.path.abspath(__file__)), "alphazero_example.py")
                                  + ":load_evaluator", a.net)
    else:
        evaluate = load_evaluator(a.evaluator, a.evaluator_arg)
    Engine(evaluate, a.visits, a.batch, a.seed, a.variant).serve(sys.stdin)


if __name__ == "__main__":
    main()
