#!/usr/bin/env python3
"""search_options_test.py - one table of search options, every syntax reading through it
(search/search_setup.c, docs/ENGINE.md "Settings").

The expectations come from the library's table at run time (leuctra.search_options(), the C
API's lt_search_options), never from copies of its numbers: for every numeric option, each
syntax that takes it refuses a value just outside the table's range with the table's words, and
the engine's handshake announces the table's range and default.  So a range changed in the
table is seen, unchanged, by the engine's setoption, player specs, analyze's flags, selfplay's
flags and Python; a syntax that kept its own copy of a range fails here.

    LEUCTRA=build/leuctra LEUCTRA_LIB=build/libleuctra.so python3 tests/python/search_options_test.py
"""
import os
import subprocess
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):  # tests/python/venv_test.sh: the installed package
    sys.path.insert(0, os.path.join(HERE, "..", "..", "python"))
sys.path.insert(0, os.path.dirname(HERE))  # tests/checks.py
import leuctra  # noqa: E402
from checks import check, summary  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA", os.path.join(HERE, "..", "..", "build", "leuctra"))


def outside(option):
    """Two values just outside an option's range, as text: below its min and past its max."""
    if option["type"] == "int":
        return [str(int(option["min"]) - 1), str(int(option["max"]) + 1)]
    return [repr(float(option["min"]) - 1.0), repr(float(option["max"]) * 2 + 1.0)]


def run(*args, stdin=""):
    p = subprocess.run([LEUCTRA] + list(args), input=stdin, capture_output=True, text=True, timeout=120)
    return p.returncode, p.stdout, p.stderr


def handshake():
    """The engine's `option name ...` lines, by name: (type, default, min, max)."""
    rc, out, _ = run("engine", stdin="leuctra\nquit\n")
    found = {}
    for line in out.splitlines():
        words = line.split()
        if words[:2] == ["option", "name"]:
            rest = dict(zip(words[3::2], words[4::2]))
            found[words[2]] = rest
    return found


def setoption_error(name, value):
    _, out, _ = run("engine", stdin="setoption name %s value %s\nisready\nquit\n" % (name, value))
    errors = [l for l in out.splitlines() if l.startswith("error")]
    return errors[0] if errors else ""


def test_engine_announces_the_table(options):
    announced = handshake()
    for o in options:
        a = announced.get(o["name"])
        if o["type"] == "path":
            check("handshake: %s is a string option" % o["name"], a is not None and a.get("type") == "string", a)
            continue
        if o["type"] == "bool":
            check("handshake: %s is a bool" % o["name"], a is not None and a.get("type") == "bool", a)
            continue
        ok = a is not None and float(a["min"]) == float(o["min"]) and float(a["max"]) == float(o["max"])
        check("handshake: %s's range is the table's" % o["name"], ok, (a, o))


def test_every_syntax_refuses_outside_the_range(options):
    game = leuctra.Game("crossings")
    numeric = [o for o in options if o["type"] in ("int", "float")]
    for o in numeric:
        name, words = o["name"], o["range"]
        for value in outside(o):
            line = setoption_error(name, value)
            check("setoption %s %s: refused with the table's words" % (name, value), words in line, line)
            rc, _, err = run("analyze", "--variant", "crossings", "--%s=%s" % (name, value))
            check("analyze --%s=%s: exit 2 with the table's words" % (name, value), rc == 2 and words in err,
                  (rc, err))
            rc, _, err = run("match", "mcts:%s=%s" % (name, value), "random", "--variant", "crossings", "--games", "2")
            check("player spec %s=%s: exit 2 with the table's words" % (name, value), rc == 2 and words in err,
                  (rc, err))
            if name in ("visits", "time", "threads", "seed"):
                continue        # analyze() takes these as its own arguments (checked by python_test)
            try:
                game.analyze(visits=1, **{name: float(value) if o["type"] == "float" else int(value)})
                got = "accepted"
            except leuctra.InputError as e:
                got = str(e)
            check("Python analyze(%s=%s): InputError with the table's words" % (name, value), words in got, got)
    # selfplay reads its search numbers through the table too (its own flags for the rest)
    for name, flag in (("visits", "--visits"), ("cpuct", "--cpuct"), ("seed", "--seed")):
        o = next(o for o in options if o["name"] == name)
        for value in outside(o):
            rc, _, err = run("selfplay", "--variant", "crossings", "--games", "1", flag, value, "--out", os.devnull)
            check("selfplay %s %s: exit 2 with the table's words" % (flag, value), rc == 2 and o["range"] in err,
                  (rc, err))


def test_a_value_inside_is_taken_everywhere(options):
    """The same in-range values are taken by every syntax (a cheap search each)."""
    values = {"visits": "20", "nodes": "2048", "cpuct": "1.25", "fpu": "0.1", "contempt": "0.25", "coarse": "0.2",
              "solve": "4", "rootsolve": "4", "playouts": "true"}
    for name, value in values.items():
        check("setoption %s %s taken" % (name, value), setoption_error(name, value) == "", name)
    flags = ["--%s=%s" % (n, v) for n, v in values.items()]
    rc, out, err = run("analyze", "--variant", "crossings", "--json", *flags)
    check("analyze takes every search option as a flag", rc == 0 and '"visits": 20' in out, (rc, err))
    spec = "mcts:" + ",".join("%s=%s" % (n, v) for n, v in values.items())
    rc, out, err = run("match", spec, "random", "--variant", "crossings", "--games", "2", "--max-plies", "4")
    check("a player spec takes every search option", rc == 0, (rc, err))
    game = leuctra.Game("crossings")
    result = game.analyze(visits=20, nodes=2048, cpuct=1.25, fpu=0.1, contempt=0.25, coarse=0.2, solve=4,
                          rootsolve=4, playouts=True)
    check("Python analyze takes every search option", result["visits"] == 20, result["visits"])


def main():
    options = leuctra.search_options()
    names = [o["name"] for o in options]
    check("the table lists the search options", {"visits", "time", "threads", "nodes", "cpuct", "weights"} <= set(names),
          names)
    test_engine_announces_the_table(options)
    test_every_syntax_refuses_outside_the_range(options)
    test_a_value_inside_is_taken_everywhere(options)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
