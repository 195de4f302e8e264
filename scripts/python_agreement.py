#!/usr/bin/env python3
"""python_agreement.py - the Python package (python/leuctra) against the command line: on the
reference positions of the test suites and on random positions of every variant, the package's
legal moves and status must be what `leuctra moves` and `leuctra status` print, and its perft
what `leuctra perft` prints.  Used with small samples by tests/python/python_test.py; run whole as the
acceptance check of docs/BENCHMARKS.md (issue 21):

    python3 scripts/python_agreement.py build/leuctra --random 10000 --references all

Each position costs two runs of the command (two at a time); prints one line per group and
"N positions agree, N differ"; exit 1 when any differs."""
import argparse
import concurrent.futures
import glob
import os
import random
import re
import subprocess
import sys

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):  # tests/python/venv_test.sh: the installed package
    sys.path.insert(0, os.path.join(ROOT, "python"))
import leuctra  # noqa: E402

VARIANTS = ("epaminondas", "crossings", "igfip", "reversi")
POSITION = re.compile(r"[WBx0-9]{1,40}(?:/[WBx0-9]{1,40}){4,15} [wb]")


def cli(binary, *args):
    p = subprocess.run([binary] + list(args), capture_output=True, text=True)
    return p.returncode, p.stdout


def python_view(variant, position):
    """(moves sorted, status) by the package, or None when it refuses the position."""
    try:
        g = leuctra.Game(variant, position=position)
    except leuctra.InputError:
        return None
    return sorted(g.legal_moves()), g.status()


def cli_view(binary, variant, position):
    rc, moves = cli(binary, "moves", "--variant", variant, "--position", position)
    if rc != 0:
        return None
    rc, status = cli(binary, "status", "--variant", variant, "--position", position)
    return sorted(moves.split()), status.strip() if rc == 0 else "error %d" % rc


def compare(binary, cases, workers=2):
    """cases: (label, variant, position); returns the list of those that differ."""
    def one(case):
        label, variant, position = case
        return case, python_view(variant, position), cli_view(binary, variant, position)
    differ = []
    with concurrent.futures.ThreadPoolExecutor(max_workers=workers) as pool:
        for case, mine, theirs in pool.map(one, cases):
            if mine != theirs:
                differ.append((case, mine, theirs))
    return differ


def reference_positions():
    """(label, variant, position) for every position string in the test suites and opening
    suites, under each variant whose board it can be (phalanx strings under the three phalanx
    games, 8x8 ones under Reversi too)."""
    found = []
    for path in sorted(glob.glob(os.path.join(ROOT, "data", "openings", "*.txt"))):
        variant = os.path.basename(path)[:-4]
        with open(path) as f:
            for line in f:
                for m in POSITION.finditer(line):
                    found.append(("openings/" + variant, variant, m.group(0)))
    sources = sorted(glob.glob(os.path.join(ROOT, "tests", "**", "*.[ch]"), recursive=True) +
                     glob.glob(os.path.join(ROOT, "tests", "**", "*.sh"), recursive=True) +
                     glob.glob(os.path.join(ROOT, "tests", "**", "*.py"), recursive=True))
    seen = set()
    for path in sources:
        with open(path, errors="replace") as f:
            text = f.read()
        for m in POSITION.finditer(text):
            s = m.group(0)
            if s in seen:
                continue
            seen.add(s)
            for variant in VARIANTS:
                found.append((os.path.relpath(path, ROOT), variant, s))
    return found


def random_positions(variant, count, seed):
    """Positions after a random number of random moves, on random boards for the phalanx games
    (every size 3-16 x 5-16, some with obstacles)."""
    rng = random.Random(seed)
    out = []
    while len(out) < count:
        if variant == "reversi":
            g = leuctra.Game(variant)
        else:
            w, h = rng.randint(3, 16), rng.randint(5, 16)
            g = leuctra.Game(variant, size=(w, h))
            if rng.random() < 0.2:
                g = with_obstacles(g, rng)
        for _ in range(rng.randint(0, 120)):
            moves = g.legal_moves()
            if not moves:
                break
            g.play(rng.choice(moves))
        out.append(("random", variant, g.position()))
    return out


def with_obstacles(g, rng):
    """The start of g with a few empty middle squares made obstacles (mirror-symmetric or not)."""
    ranks = g.position().split()[0].split("/")
    w, h = g.width, g.height
    cells = [list(expand(r)) for r in ranks]
    for _ in range(rng.randint(1, 4)):
        row, col = rng.randint(2, h - 3), rng.randint(0, w - 1)
        if 2 <= row <= h - 3 and cells[row][col] == ".":
            cells[row][col] = "x"
            if rng.random() < 0.5:
                cells[h - 1 - row][col] = "x"
    text = "/".join(compress(c) for c in cells) + " w"
    try:
        return leuctra.Game(g.variant, position=text)
    except leuctra.InputError:
        return g


def expand(rank):
    out, num = [], ""
    for ch in rank + "$":
        if ch.isdigit():
            num += ch
            continue
        if num:
            out.extend("." * int(num))
            num = ""
        if ch != "$":
            out.append(ch)
    return out


def compress(cells):
    out, run = "", 0
    for c in cells:
        if c == ".":
            run += 1
            continue
        if run:
            out += str(run)
            run = 0
        out += c
    return out + (str(run) if run else "")


def perft_cases(binary, cases, depth):
    differ = []
    for label, variant, position in cases:
        if python_view(variant, position) is None:
            continue    # refused by both (compare() checks that)
        rc, out = cli(binary, "perft", str(depth), "--variant", variant, "--position", position)
        mine = leuctra.Game(variant, position=position).perft(depth, threads=2)
        if rc != 0 or int(out.split()[0]) != mine:
            differ.append(((label, variant, position), mine, out.strip()))
    return differ


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("binary", help="the leuctra command (build/leuctra)")
    ap.add_argument("--random", type=int, default=10000, help="random positions per variant (default 10000)")
    ap.add_argument("--references", default="all", help="'all' reference positions, or a number to sample")
    ap.add_argument("--seed", type=int, default=21)
    args = ap.parse_args()
    refs = reference_positions()
    if args.references != "all":
        refs = random.Random(args.seed).sample(refs, min(len(refs), int(args.references)))
    total_bad = 0
    groups = [("reference positions", refs)] + [
        ("random %s" % v, random_positions(v, args.random, args.seed + i)) for i, v in enumerate(VARIANTS)]
    for name, cases in groups:
        bad = compare(args.binary, cases)
        total_bad += len(bad)
        print("%-24s %6d positions, %d differ" % (name, len(cases), len(bad)), flush=True)
        for case, mine, theirs in bad[:5]:
            print("  differ: %s %s '%s': python %s, cli %s" % (case[0], case[1], case[2], mine, theirs))
    starts = [("start", v, leuctra.Game(v).position()) for v in VARIANTS]
    bad = perft_cases(args.binary, starts, 3) + perft_cases(args.binary, refs[:: max(1, len(refs) // 50)], 2)
    print("perft (starts to depth 3, 50 references to 2): %d differ" % len(bad))
    total_bad += len(bad)
    n = len(refs) + 4 * args.random
    print("%d positions agree, %d differ" % (n - total_bad, total_bad))
    return 1 if total_bad else 0


if __name__ == "__main__":
    sys.exit(main())
