#!/usr/bin/env python3
"""protocol_test.py - tests of `leuctra engine` (docs/PROTOCOL.md) driven through pipes, the way a
match tool or GUI drives it: the handshake, options, positions, searches with stop and quit in
the middle, the rule that every bad line gets exactly one `error` line and the engine serves on,
Reversi and Crossings sessions, and end of input.

    LEUCTRA=build/leuctra python3 tests/cli/protocol_test.py

Every read waits for one whole line with a generous timeout, so a loaded machine is slow but
never wrong; nothing depends on how fast a search runs.  Each engine must exit with status 0 and
nothing on stderr (which catches sanitizer reports in `make check`).  Prints one line per failed
check ("FAIL what: ..."), ends with "N passed, N failed" and exits non-zero on any failure.
"""
import os
import queue
import re
import subprocess
import sys
import tempfile
import threading
import time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/checks.py
from checks import check, summary  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA")
if not LEUCTRA:
    sys.exit("set LEUCTRA to the leuctra binary")

LINE_TIMEOUT = 30.0      # seconds to wait for a line that must come (only a failure waits this long)
PROMPT = 5.0             # "promptly": stop -> bestmove, quit -> exit, even under the sanitizers
REVERSI_DRAW = "WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/BBBBBBBB/BBBBBBBB/BBBBBBBB/BBBBBBBB b"
REVERSI_LAST_MOVE = "WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/WWWWWWWW/BWWWWWW1 b"
SMALL_TREE = 200000      # nodes
OBSTACLES = "BBBBB/BBBBB/5/1x1x1/5/WWWWW/WWWWW w"



class Timeout(Exception):
    pass


class Engine:
    """One `leuctra engine` process; stdout lines arrive through a queue so reads can time out."""

    running = []     # every engine started, so that a failed test leaves no process behind

    def __init__(self, *args, small_tree=True):
        Engine.running.append(self)
        self.stderr = tempfile.TemporaryFile()
        self.proc = subprocess.Popen([LEUCTRA, "engine", *args], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, stderr=self.stderr)
        self.lines = queue.Queue()
        threading.Thread(target=self._pump, daemon=True).start()
        if small_tree:
            # The default tree (128 MiB) costs the sanitizer build a second per search; these
            # searches need a fraction of it.  test_search_and_reuse keeps the default.
            self.send(f"setoption name nodes value {SMALL_TREE}")

    def _pump(self):
        for raw in self.proc.stdout:
            self.lines.put(raw.decode("utf-8", "replace").rstrip("\n"))
        self.lines.put(None)

    def send(self, text):
        data = text if isinstance(text, bytes) else text.encode()
        self.proc.stdin.write(data + b"\n")
        self.proc.stdin.flush()

    def read(self, timeout=LINE_TIMEOUT):
        try:
            line = self.lines.get(timeout=timeout)
        except queue.Empty:
            raise Timeout(f"no line within {timeout} s")
        if line is None:
            self.lines.put(None)
            raise Timeout("the engine closed its output")
        return line

    def read_until(self, prefix, timeout=LINE_TIMEOUT):
        """Lines up to and including the first that starts with prefix."""
        got = []
        while True:
            got.append(self.read(timeout))
            if got[-1].startswith(prefix):
                return got

    def sync(self):
        """The lines that come before readyok (replies to the commands sent since the last sync)."""
        self.send("isready")
        return self.read_until("readyok")[:-1]

    def finish(self, what, timeout=PROMPT, send_quit=True):
        """Ends the session (quit, then end of input); checks exit status 0 and a clean stderr."""
        try:
            if send_quit:
                self.send("quit")
            self.proc.stdin.close()
        except BrokenPipeError:
            pass
        try:
            rc = self.proc.wait(timeout)
        except subprocess.TimeoutExpired:
            self.proc.kill()
            self.proc.wait()
            rc = "still running"
        self.stderr.seek(0)
        err = self.stderr.read().decode("utf-8", "replace")
        check(f"{what}: exit status 0 and no stderr", rc == 0 and err == "", f"exit {rc}, stderr: {err}")


def run_cli(*args):
    p = subprocess.run([LEUCTRA, *args], capture_output=True, text=True, timeout=60)
    return p.returncode, p.stdout, p.stderr


def legal_after(moves, variant="epaminondas", position=None):
    """True when `leuctra apply` accepts the moves (each legal in turn)."""
    args = ["apply", "--variant", variant] + (["--position", position] if position else []) + moves
    return run_cli(*args)[0] == 0


def search(engine, go="go visits 200"):
    """Sends go; returns (info lines, the move of bestmove)."""
    engine.send(go)
    lines = engine.read_until("bestmove")
    return lines[:-1], lines[-1].split()[1] if len(lines[-1].split()) == 2 else lines[-1]


def field(info, key):
    words = info.split()
    return words[words.index(key) + 1] if key in words else None


# --- the tests ---------------------------------------------------------------------------------

def test_handshake():
    e = Engine()
    for hello in ("leuctra", "hello"):
        e.send(hello)
        lines = e.read_until("leuctraok")
        version = run_cli("--version")[1].split()[-1]
        check(f"{hello}: id name", lines[0] == f"id name leuctra {version}", lines[0])
        check(f"{hello}: id author", any(l.startswith("id author ") for l in lines), lines)
        check(f"{hello}: id variants", "id variants epaminondas crossings reversi igfip" in lines, lines)
        names = {l.split()[2] for l in lines if l.startswith("option name ")}
        want = {"visits", "threads", "weights", "cpuct", "time", "playouts", "seed", "nodes", "solve", "rootsolve"}
        check(f"{hello}: options announced", want <= names, sorted(names))
        visits = [l for l in lines if l.startswith("option name visits ")]
        check(f"{hello}: visits option line", visits and visits[0].startswith(
            "option name visits type int default 800 min 1 max "), visits)
    check("isready", e.sync() == [], "lines before readyok")
    e.finish("handshake")


DOCS = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "docs")


def doc_number(text):
    """A number as the docs write it: 800, 1.5, 10^12, 2^30, 2^63−1, −1."""
    if text[:1] in "−-" and len(text) > 1:
        return -doc_number(text[1:])
    m = re.fullmatch(r"(\d+)\^(\d+)(?:[−-](\d+))?", text)
    if m:
        return int(m.group(1)) ** int(m.group(2)) - int(m.group(3) or 0)
    return float(text) if "." in text else int(text)


def test_docs_match_engine():
    """docs/PROTOCOL.md's handshake and option table and docs/ENGINE.md's defaults are what the
    engine announces: the docs are checked against the one table the engine reads
    (engine/engine_options.c), so neither can drift from the other."""
    e = Engine(small_tree=False)
    e.send("leuctra")
    got = e.read_until("leuctraok")
    e.finish("docs: handshake")
    protocol = open(os.path.join(DOCS, "PROTOCOL.md"), encoding="utf-8").read()
    block = protocol.split("### `leuctra` (or `hello`)", 1)[1].split("```", 2)[1]
    documented = [l[2:] for l in block.splitlines() if l.startswith("< ")]
    version = run_cli("--version")[1].split()[-1]
    documented = [f"id name leuctra {version}" if l.startswith("id name leuctra ") else l for l in documented]
    check("PROTOCOL.md's handshake is the engine's, line for line", documented == got,
          [f"{d!r} != {g!r}" for d, g in zip(documented, got) if d != g] or (len(documented), len(got)))
    options = {}
    for line in got:
        w = line.split()
        if w[:2] == ["option", "name"]:
            options[w[2]] = dict(zip(w[3::2], w[4::2]))
    table = protocol.split("### `setoption name NAME value VALUE`", 1)[1].split("\n\n", 2)[1]
    rows = {}
    for row in table.splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        rows[cells[0].strip("`")] = cells[1]
    check("PROTOCOL.md's option table names the options the engine announces", set(rows) == set(options),
          (sorted(rows), sorted(options)))
    for name, spec in rows.items():
        if name not in options:
            continue
        words = spec.split()
        want = options[name]
        ok = words[0] == want["type"]
        if "min" in want and len(words) > 1:
            lo, hi = words[1].split("–")
            ok = ok and doc_number(lo) == doc_number(want["min"]) and doc_number(hi) == doc_number(want["max"])
        check(f"PROTOCOL.md's option table: {name} is {spec}", ok, want)
    engine_md = open(os.path.join(DOCS, "ENGINE.md"), encoding="utf-8").read()
    defaults = {}
    for row in engine_md.split("| key | default | meaning |", 1)[1].split("\n\n", 1)[0].splitlines()[2:]:
        cells = [c.strip() for c in row.strip("|").split("|")]
        defaults[cells[0].strip("`")] = cells[1]
    for name in ("visits", "threads", "nodes", "cpuct", "fpu", "seed", "overhead"):
        if name in defaults:
            check(f"ENGINE.md's default of {name} is the engine's", doc_number(defaults[name]) ==
                  doc_number(options[name]["default"]), (defaults[name], options[name]["default"]))
    check("ENGINE.md's default weights are the engine's", defaults.get("weights") == options["weights"]["default"],
          defaults.get("weights"))


def test_setoption():
    e = Engine()
    for line in ("setoption name visits value 50", "setoption name threads value 2",
                 "setoption name cpuct value 2.5", "setoption name time value 0",
                 "setoption name playouts value true", "setoption name playouts value false",
                 "setoption name seed value 7", "setoption name nodes value 100000",
                 "setoption name weights value shipped", "setoption name VISITS value 60",
                 "setoption name solve value 0", "setoption name rootsolve value 14"):
        e.send(line)
        got = e.sync()
        check(f"'{line}' is silent", got == [], got)
    infos, best = search(e, "go")
    check("go with no limit uses the visits option", infos and field(infos[-1], "visits") == "60", infos[-1:])
    e.finish("setoption")


def test_nodes_within_budget():
    """The nodes reported are those the tree holds: never past the nodes option."""
    e = Engine(small_tree=False)
    e.send("setoption name nodes value 1024")
    e.send("newgame size 8x8")
    infos, best = search(e, "go visits 20000")
    nodes = int(field(infos[-1], "nodes") or 0) if infos else 0
    check("go visits 20000 with nodes 1024: info nodes at most 1024", 0 < nodes <= 1024, infos[-1:])
    check("go visits 20000 with nodes 1024: all the visits", infos and field(infos[-1], "visits") == "20000",
          infos[-1:])
    e.finish("nodes within budget")


def test_search_and_reuse():
    e = Engine(small_tree=False)
    e.send("position start moves e2-e3")
    infos, best = search(e, "go visits 200")
    check("go visits 200: info line", infos and all(k in infos[-1].split() for k in
                                                    ("visits", "nodes", "winprob", "vps", "pv")), infos[-1:])
    check("go visits 200: 200 visits", infos and field(infos[-1], "visits") == "200", infos[-1:])
    check("go visits 200: bestmove legal", legal_after(["e2-e3", best]), best)
    pv = infos[-1].split("pv", 1)[1].split() if infos else []
    check("pv is a legal line", pv and pv[0] == best and legal_after(["e2-e3"] + pv), pv)
    # One ply on from the searched position: the tree below the move played is kept.
    e.send(f"position start moves e2-e3 {best}")
    infos, best2 = search(e, "go visits 100")
    tree = int(field(infos[-1], "treevisits") or 0) if infos else 0
    check("tree reuse: the root keeps its earlier visits", tree > 100, infos[-1:])
    check("second bestmove legal", legal_after(["e2-e3", best, best2]), best2)
    e.send("moves")
    moves = e.read().split()
    check("moves lists legal moves", moves[0] == "moves" and len(moves) > 1 and
          legal_after(["e2-e3", best, moves[1]]), moves[:3])
    e.finish("search")


def test_stop_and_infinite():
    e = Engine()
    e.send("go infinite")
    time.sleep(0.3)
    got = e.sync()
    check("isready during a search", all(l.startswith("info ") for l in got), got)
    e.send("position start")
    got = [l for l in e.sync() if not l.startswith("info ")]
    check("position during a search is refused", got == ["error position: search running; send stop first"], got)
    t0 = time.monotonic()
    e.send("stop")
    lines = e.read_until("bestmove", PROMPT)
    check("stop: bestmove promptly", time.monotonic() - t0 < PROMPT, time.monotonic() - t0)
    check("stop: a legal bestmove", legal_after([lines[-1].split()[1]]), lines[-1])
    check("stop: a final info line", len(lines) >= 2 and lines[-2].startswith("info visits "), lines[-2:])
    e.send("stop")
    got = e.sync()
    check("stop when idle is silent", got == [], got)
    # Periodic info: wait for one before stopping (race-free).
    e.send("go infinite")
    first = e.read()
    check("periodic info while searching", first.startswith("info visits "), first)
    e.send("stop")
    lines = e.read_until("bestmove", PROMPT)
    check("stop after info: bestmove", lines[-1].startswith("bestmove "), lines)
    e.finish("stop")


def test_infinite_waits_for_stop():
    """A proven result ends the search at once, yet `go infinite` answers only after stop; and a
    command right after stop waits for that bestmove instead of being refused."""
    e = Engine("--variant", "reversi", "--position", REVERSI_LAST_MOVE)
    e.send("go infinite")
    got = e.sync()
    time.sleep(0.5)
    got += e.sync()
    check("go infinite: no bestmove before stop", not any(l.startswith("bestmove") for l in got), got)
    e.send("stop")
    e.send("position start")
    e.send("go visits 50")
    lines = e.read_until("bestmove")
    check("go infinite: bestmove after stop", lines[-1] == "bestmove h8" and "proven loss" in lines[-2], lines)
    lines = e.read_until("bestmove")
    check("stop, position, go: the new search runs", legal_after([lines[-1].split()[1]], "reversi") and
          field(lines[-2], "visits") == "50", lines[-2:])
    e.finish("infinite waits for stop")


def test_quit_during_search():
    e = Engine()
    e.send("go infinite")
    time.sleep(0.3)
    t0 = time.monotonic()
    e.finish("quit during search")
    check("quit during search exits promptly", time.monotonic() - t0 < PROMPT, time.monotonic() - t0)


def test_bad_lines():
    e = Engine()
    e.send("position start moves e2-e3")
    bad = [
        "frobnicate", "position start moves e2-e3 zz", "position start moves a1-a9",
        "position fen abc w", "position fen 8/8 w", "position", "position start junk",
        "setoption name visits value abc", "setoption name visits value 0", "setoption name bogus value 1",
        "setoption name time value -1", "setoption name playouts value maybe", "setoption visits 3",
        "setoption name weights value /nonexistent/weights.txt", "setoption name seed value",
        "go garbage", "go visits", "go visits -5", "go time abc", "go infinite visits 10",
        "newgame variant chess", "newgame size 2x2", "newgame bogus", "perft", "perft 99", "perft x",
        "isready now", "quit now", "show me", "\x01\x1b[2J", "x" * 70000, b"go\x00visits 5",
        "GO visits 5",
        # numbers are strict decimals (docs/PROTOCOL.md): no hex, inf, nan, lone signs, exponents
        # in integers, or anything strtod would take besides
        "go time 0x1p-3", "go time inf", "go time nan", "go time -", "go time 1e999", "go time .",
        "go visits 0x10", "go visits 1e3", "go visits +", "go visits 5x",
        "setoption name cpuct value 0x1p1", "setoption name cpuct value nan", "setoption name fpu value -",
        "setoption name fpu value 1e-999x", "setoption name time value inf", "setoption name seed value 0x7",
        "setoption name nodes value 1e6", "perft 0x2",
    ]
    for line in bad:
        e.send(line)
        got = e.sync()
        shown = line if isinstance(line, str) else repr(line)
        check(f"bad line '{shown[:40]}': exactly one error line",
              len(got) == 1 and got[0].startswith("error ") and "\x1b" not in got[0], got)
    # bytes that are not UTF-8 are not echoed raw in an error line (a GUI reads UTF-8)
    e.send(b"frobnicate\xff\xfe")
    got = e.sync()
    check("an error line echoes no bytes that are not UTF-8",
          len(got) == 1 and "\ufffd" not in got[0] and "frobnicate??" in got[0], got)
    # a weights file is refused by its size and first bytes before it is read: a huge one at once
    with tempfile.TemporaryDirectory() as d:
        huge = os.path.join(d, "huge.txt")
        with open(huge, "wb") as f:
            f.truncate(900 << 20)
        e.send(f"setoption name weights value {huge}")
        got = e.sync()
        check("setoption weights: a 900 MB text file refused by its size",
              len(got) == 1 and "longer than 1048576 bytes (943718400)" in got[0], got)
    e.send("")
    e.send("   \t ")
    check("blank lines get no reply", e.sync() == [], "")
    e.send("show")
    fen = e.read_until("fen ")[-1]
    want = run_cli("apply", "e2-e3")[1].strip()
    check("rejected lines leave the position alone", fen == f"fen {want}", fen)
    e.finish("bad lines")


def test_reversi():
    e = Engine()
    e.send("newgame variant reversi")
    e.send("position start moves d3 c5")
    e.send("moves")
    check("reversi moves", e.read().startswith("moves "), "")
    infos, best = search(e, "go visits 200")
    check("reversi bestmove legal", legal_after(["d3", "c5", best], "reversi"), best)
    e.send("show")
    lines = e.read_until("fen ")
    check("reversi show", any(l.startswith("game reversi size 8x8 ") for l in lines), lines[-2:])
    e.send(f"position fen {REVERSI_DRAW}")
    e.send("status")
    check("reversi status draw", e.read() == "status draw", "")
    e.send("go visits 50")
    check("game over: bestmove none", e.read() == "bestmove none", "")
    e.send("eval")
    check("eval line", e.read().startswith("eval winprob "), "")
    e.finish("reversi")


def test_solves_honour_limits():
    """Solves inside a search end with it: leaf solves of ~60 empties stop at `go time`'s
    deadline and at `stop`, and a root solve under a visit budget alone ends with the visits."""
    e = Engine("--variant", "reversi")
    e.send("setoption name solve value 64")
    e.send("setoption name rootsolve value 64")
    t0 = time.monotonic()
    _, best = search(e, "go time 0.3")
    check("solve 64, go time 0.3: answers near its deadline", time.monotonic() - t0 < 3, time.monotonic() - t0)
    check("solve 64, go time 0.3: a legal move", legal_after([best], "reversi"), best)
    e.send("go infinite")
    time.sleep(0.3)
    t0 = time.monotonic()
    e.send("stop")
    lines = e.read_until("bestmove", PROMPT)
    check("solve 64, stop: bestmove promptly", time.monotonic() - t0 < PROMPT, time.monotonic() - t0)
    t0 = time.monotonic()
    search(e, "go visits 100")
    check("rootsolve 64, go visits 100: ends", time.monotonic() - t0 < 10, time.monotonic() - t0)
    e.finish("solves honour limits")


def test_crossings_and_boards():
    e = Engine("--variant", "crossings")
    e.send("position start moves b1-b3 c8-c6")
    infos, best = search(e, "go visits 200")
    check("crossings bestmove legal", legal_after(["b1-b3", "c8-c6", best], "crossings"), best)
    e.send("perft 2")
    want = run_cli("perft", "2", "--variant", "crossings", "--position",
                   run_cli("apply", "--variant", "crossings", "b1-b3", "c8-c6")[1].strip())[1].strip()
    check("perft 2", e.read() == f"perft 2 {want}", want)
    e.send("newgame variant epaminondas")
    e.send(f"position fen {OBSTACLES}")
    e.send("show")
    lines = e.read_until("fen ")
    check("a board with obstacles", lines[-1] == f"fen {OBSTACLES}" and
          any(" size 5x7 " in l for l in lines), lines[-2:])
    infos, best = search(e, "go visits 100")
    check("obstacles bestmove legal", legal_after([best], position=OBSTACLES), best)
    e.send("newgame size 8x8")
    e.send("show")
    lines = e.read_until("fen ")
    check("newgame size", lines[-1] == "fen BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w", lines[-1])
    e.finish("crossings")


def test_igfip():
    e = Engine("--variant", "igfip")
    e.send("position start moves a2-a3 n11-n10")
    infos, best = search(e, "go visits 200")
    check("igfip bestmove legal", legal_after(["a2-a3", "n11-n10", best], "igfip"), best)
    e.send("newgame variant igfip size 8x8")
    e.send("perft 3")
    check("igfip 8x8 perft 3", e.read() == "perft 3 269278", "")
    e.send("position fen W7/8/8/8/8/8/1B6/8 b")
    e.send("moves")
    check("igfip: only crossings answer", sorted(e.read().split()[1:]) == ["b2-a1", "b2-b1", "b2-c1"], "")
    e.send("position fen W7/8/8/8/8/8/1B6/8 b moves b2-b3")
    got = e.sync()
    check("igfip: a move that does not answer is an error",
          len(got) == 1 and got[0].startswith("error ") and "answered" in got[0], got)
    e.send("newgame variant igfip size 3x5")
    e.send("position fen W2/1W1/3/3/B1B w moves b4-b5")
    e.send("status")
    check("igfip: the draw by the rules", e.read() == "status draw", "")
    e.send("go visits 50")
    check("igfip draw: bestmove none", e.read() == "bestmove none", "")
    e.send("newgame variant igfp")
    got = e.sync()
    check("newgame variant igfp: one error naming igfip",
          len(got) == 1 and got[0].startswith("error ") and "igfip" in got[0], got)
    e.finish("igfip")


# One white and one black stone that can only step back and forth: after these four moves the
# start position has come back, so White's only move returns to the position after the first.
SHUTTLE = "xBx/x1x/xxx/x1x/xWx w"
SHUTTLE_MOVES = "b1-b2 b5-b4 b2-b1 b4-b5"


def test_repetition_history():
    """The moves of `position ... moves` reach the search: a return to a position of the game is
    a repetition (a draw, worth 0 with the default contempt) at once, not only deeper in the
    tree as from a bare position string."""
    e = Engine()
    e.send(f"position fen {SHUTTLE} moves {SHUTTLE_MOVES}")
    infos, best = search(e, "go visits 10")
    pv = infos[-1].split(" pv ")[1] if infos and " pv " in infos[-1] else ""
    check("history: the repeated position ends the line", best == "b1-b2" and pv == "b1-b2", infos[-1:])
    check("history: scored as a repetition", float(field(infos[-1], "winprob")) < 0.1, infos[-1:])
    e.send("newgame")
    e.send(f"position fen {SHUTTLE}")
    infos, best = search(e, "go visits 10")
    pv = infos[-1].split(" pv ")[1] if infos and " pv " in infos[-1] else ""
    check("no history: the line goes on to the repetition", pv == SHUTTLE_MOVES, infos[-1:])
    e.finish("repetition history")


def test_end_of_input():
    e = Engine()
    e.send("isready")
    e.read()
    e.finish("end of input", send_quit=False)
    e = Engine()
    e.send("go infinite")
    time.sleep(0.2)
    e.proc.stdin.close()
    try:
        last = e.read_until("bestmove", PROMPT)[-1]
    except Timeout as t:
        last = str(t)
    check("end of input during a search: bestmove", last.startswith("bestmove "), last)
    e.finish("end of input during a search", send_quit=False)
    # A piped script: wait lets the search finish before end of input ends the session.
    p = subprocess.run([LEUCTRA, "engine", "--variant", "reversi"], input=f"setoption name nodes value {SMALL_TREE}\ngo visits 300\nwait\n",
                       capture_output=True, text=True, timeout=60)
    out = p.stdout.splitlines()
    check("piped script with wait", p.returncode == 0 and out and out[-1].startswith("bestmove ") and
          field(out[-2], "visits") == "300", out[-2:])


def test_clock():
    """go on a clock: the engine budgets the move itself and answers well within the time it has
    (generous clocks: a loaded machine is slower, never wrong); movestogo and increments are read;
    what makes no sense is one error line."""
    e = Engine("--variant", "crossings")
    e.send("position start moves b1-b3")
    t0 = time.monotonic()
    infos, best = search(e, "go wtime 30 btime 4 winc 0.1 binc 0.1")
    spent = time.monotonic() - t0
    used = float(field(infos[-1], "time") or 99) if infos else 99
    check("go btime 4: a legal bestmove", legal_after(["b1-b3", best], "crossings"), best)
    check("go btime 4: Black's clock is the one budgeted (at most half of it)", used <= 2.0 and spent < 4,
          (used, spent))
    infos, best = search(e, "go wtime 1 btime 2 movestogo 1 visits 50")
    check("go with movestogo and a visit cap: the cap holds", infos and int(field(infos[-1], "visits")) <= 50,
          infos[-1:])
    infos, best = search(e, "go wtime 0 btime -0.5")
    check("go with the clock run out (negative time): still a move", legal_after(["b1-b3", best], "crossings"), best)
    for line, words in (("go wtime 5 btime 5 time 1", "fixed time per move"), ("go wtime 5", "btime"),
                        ("go infinite wtime 3 btime 3", "infinite"), ("go wtime x btime 1", "expected"),
                        ("go btime 2 movestogo 0", "expected")):
        got = [l for l in (e.send(line) or e.sync()) if not l.startswith("info ")]
        check(f"'{line}': one error line", len(got) == 1 and got[0].startswith("error go: ") and words in got[0], got)
    e.send("setoption name overhead value 0.5")
    check("setoption overhead", e.sync() == [])
    e.finish("clock")


def test_help():
    rc, out, err = run_cli("engine", "--help")
    check("engine --help", rc == 0 and "example" in out and err == "", (rc, err))
    rc, out, err = run_cli("engine", "--bogus")
    check("engine --bogus", rc == 2 and out == "" and len(err.splitlines()) == 1, (rc, err))
    e = Engine()
    e.send("help")
    lines = e.read_until("helpok")
    check("help lists go", any(l.startswith("help go ") for l in lines), lines[:3])
    e.finish("help")


def main():
    start = time.monotonic()
    if not os.access(LEUCTRA, os.X_OK):
        print(f"FAIL {LEUCTRA} is not an executable file")
        print("0 passed, 1 failed")
        return 1
    tests = [test_handshake, test_docs_match_engine, test_setoption, test_nodes_within_budget, test_search_and_reuse, test_stop_and_infinite,
             test_infinite_waits_for_stop, test_quit_during_search, test_bad_lines, test_reversi,
             test_solves_honour_limits,
             test_crossings_and_boards, test_igfip, test_repetition_history, test_end_of_input, test_clock,
             test_help]
    for test in tests:
        try:
            test()
        except (Timeout, BrokenPipeError, subprocess.TimeoutExpired) as problem:
            check(test.__name__, False, f"{type(problem).__name__}: {problem}")
        for e in Engine.running:
            if e.proc.poll() is None:
                e.proc.kill()
                e.proc.wait()
        Engine.running.clear()
    print(f"protocol tests took {time.monotonic() - start:.1f} s")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
