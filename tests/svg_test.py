#!/usr/bin/env python3
"""svg_test.py - tests of `leuctra render` and `leuctra view` (cli/svg_board.c, cmd_render.c,
cmd_view.c): every SVG they write parses as XML and shows the squares that `leuctra show`
prints, for all three games and board shapes (16x16 with obstacles, Crossings towers); the
viewer page is one self-contained file whose embedded positions are those `leuctra apply`
gives; bad input fails with one line and exit status 2.  Ends with "N passed, N failed"."""
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

LEUCTRA = os.environ.get("LEUCTRA", "build/leuctra")
SVG = "{http://www.w3.org/2000/svg}"
results = {"passed": 0, "failed": 0}


def check(name, ok, detail=""):
    results["passed" if ok else "failed"] += 1
    if not ok:
        print(f"FAIL {name} {detail}")


def run(*args):
    return subprocess.run([LEUCTRA, *args], capture_output=True, text=True, timeout=120)


def show_squares(game_args):
    """The board letters of `leuctra show` (plain: stdout is a pipe), top row first."""
    out = run("show", *game_args).stdout.splitlines()
    rows = [line.split()[1:-1] for line in out if re.match(r"^\s+\d+\s", line)]
    return "".join("".join(r) for r in rows)


def count_shapes(root):
    """Stones, towers, obstacles and arrows as drawn in the picture."""
    circles = [c for c in root.iter(SVG + "circle") if c.get("class") != "arrow"]
    rects = list(root.iter(SVG + "rect"))
    return {
        "stones": len(circles),
        "towers": sum(1 for r in rects if r.get("class") == "tower"),
        "obstacles": sum(1 for r in rects if r.get("fill") == "#555"),
        "arrows": sum(1 for e in root.iter() if e.get("class") == "arrow"),
        "last": sum(1 for r in rects if r.get("class") == "last"),
    }


def check_picture(name, path, game_args, arrows=None, last=None):
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        check(name + " parses", False, str(e))
        return
    check(name + " parses", root.tag == SVG + "svg", root.tag)
    squares = show_squares(game_args)
    shapes = count_shapes(root)
    expect = sum(squares.count(c) for c in "WBTt")
    check(name + " stones", shapes["stones"] == expect, f"{shapes['stones']} drawn, {expect} on the board")
    towers = squares.count("T") + squares.count("t")
    check(name + " towers", shapes["towers"] == towers, f"{shapes['towers']} drawn, {towers} on the board")
    check(name + " obstacles", shapes["obstacles"] == squares.count("x"))
    if arrows is not None:
        check(name + " arrows", 0 < shapes["arrows"] <= arrows, f"{shapes['arrows']} arrows")
    if last is not None:
        check(name + " last move", shapes["last"] == last, f"{shapes['last']} marked squares")


def obstacle_position_16():
    """A 16x16 Epaminondas start with four obstacles in the middle ranks."""
    rows = ["B" * 16, "B" * 16] + ["16"] * 12 + ["W" * 16, "W" * 16]
    rows[7] = "7xx7"
    rows[8] = "7xx7"
    return "/".join(rows) + " w"


TOWER_POSITION = "W6B/8/BB6/8/8/6WW/8/B6W w"    # a white stone on rank 8 and a black one on rank 1

CASES = [
    ("epaminondas-start", ["--variant", "epaminondas"], ["--last", "a2-a4"], 2),
    ("crossings-8x8", ["--variant", "crossings", "--size", "8x8"], ["--last", "b1xb3"], 2),
    ("reversi-start", ["--variant", "reversi"], ["--last", "d3"], 1),
    ("epaminondas-16x16-obstacles", ["--variant", "epaminondas", "--position", obstacle_position_16()], [], 0),
    ("crossings-16x16", ["--variant", "crossings", "--size", "16x16"], [], 0),
    ("crossings-towers", ["--variant", "crossings", "--position", TOWER_POSITION], [], 0),
]


def test_positions(tmp):
    for name, game_args, extra, last in CASES:
        path = os.path.join(tmp, name + ".svg")
        p = run("render", *game_args, *extra, "-o", path)
        check(name + " renders", p.returncode == 0, p.stderr.strip())
        if p.returncode == 0:
            check_picture(name, path, game_args, last=last if extra else None)
    towers = show_squares(CASES[-1][1])
    check("tower position has towers", "T" in towers and "t" in towers, towers)


def test_arrows(tmp):
    for variant in ("epaminondas", "crossings", "reversi"):
        path = os.path.join(tmp, f"arrows-{variant}.svg")
        p = run("render", "--variant", variant, "--arrows", "4", "--visits", "200", "-o", path)
        check(variant + " arrows render", p.returncode == 0, p.stderr.strip())
        if p.returncode == 0:
            check_picture(variant + " arrows", path, ["--variant", variant], arrows=4)
    p = run("render", "--variant", "reversi")
    check("render to stdout", p.returncode == 0 and p.stdout.startswith("<?xml"), p.stderr)


def frames_match_apply(name, game_args, frames, upto):
    moves = []
    for i, frame in enumerate(frames[:upto]):
        applied = run("apply", *game_args, *moves).stdout.strip()
        check(f"{name} ply {i} is apply's", frame["pos"] == applied, f"{frame['pos']!r} != {applied!r}")
        moves.append(frame["move"])


def record_games():
    """The games and boards self-played for the records tests: every game, 16x16 with obstacles."""
    return [
        ("crossings", ["--variant", "crossings", "--size", "8x8"]),
        ("reversi", ["--variant", "reversi"]),
        ("epaminondas", ["--variant", "epaminondas", "--size", "10x8"]),
        ("obstacles-16x16", ["--variant", "epaminondas", "--position", obstacle_position_16()]),
    ]


def check_page(name, html, game_args):
    page = open(html, encoding="utf-8").read()
    check(name + " page has no external references",
          not re.search(r"(src|href)\s*=|https?://(?!www\.w3\.org/2000/svg)", page))
    data = json.loads(re.search(r"<script type='application/json' id='data'>\n(.*?)</script>", page, re.S).group(1))
    check(name + " three games", [g["index"] for g in data["games"]] == [0, 1, 2])
    check(name + " board strings",
          all(len(f["board"]) == data["width"] * data["height"] for g in data["games"] for f in g["frames"]))
    frames = data["games"][1]["frames"]
    frames_match_apply(name + " game 1", game_args, frames, 8)
    return frames


def test_records(tmp):
    for name, game_args in record_games():
        rec = os.path.join(tmp, f"{name}.lrec")
        p = run("selfplay", "--games", "3", "--out", rec, "--visits", "20", *game_args, "--threads", "2", "--quiet",
                "--max-plies", "40")
        check(name + " selfplay", p.returncode == 0, p.stderr.strip())
        if p.returncode:
            continue
        svg = os.path.join(tmp, f"{name}-game1-ply5.svg")
        p = run("render", "--records", rec, "--game", "1", "--ply", "5", "--arrows", "3", "-o", svg)
        check(name + " render from record", p.returncode == 0, p.stderr.strip())
        html = os.path.join(tmp, f"{name}.html")
        p = run("view", rec, "--games", "0-2", "-o", html)
        check(name + " view", p.returncode == 0, p.stderr.strip())
        if p.returncode:
            continue
        frames = check_page(name, html, game_args)
        if len(frames) > 5:
            check_picture(name + " record ply 5", svg, ["--variant", game_args[1], "--position", frames[5]["pos"]])


def expect_usage_error(name, *args):
    p = run(*args)
    lines = p.stderr.strip().splitlines()
    check(name, p.returncode == 2 and len(lines) == 1, f"rc {p.returncode}, stderr {p.stderr!r}")


def test_errors(tmp):
    expect_usage_error("bad --last", "render", "--last", "z9-z12")
    expect_usage_error("bad --arrows", "render", "--arrows", "many")
    expect_usage_error("--game without --records", "render", "--game", "1")
    expect_usage_error("--ply without --records", "render", "--ply", "3")
    expect_usage_error("view without -o", "view", os.path.join(tmp, "crossings.lrec"))
    expect_usage_error("view of a missing file", "view", os.path.join(tmp, "missing.lrec"), "-o", "x.html")
    expect_usage_error("bad --games", "view", os.path.join(tmp, "crossings.lrec"), "--games", "5", "-o", "x.html")
    p = run("render", "--help")
    check("render --help", p.returncode == 0 and "example:" in p.stdout)
    p = run("view", "--help")
    check("view --help", p.returncode == 0 and "example:" in p.stdout)


def main():
    keep = os.environ.get("LEUCTRA_SVG_OUT")     # a folder to keep the pictures in, if given
    with tempfile.TemporaryDirectory() as scratch:
        tmp = keep or scratch
        os.makedirs(tmp, exist_ok=True)
        test_positions(tmp)
        test_arrows(tmp)
        test_records(tmp)
        test_errors(tmp)
    print(f"{results['passed']} passed, {results['failed']} failed")
    return 1 if results["failed"] else 0


if __name__ == "__main__":
    sys.exit(main())
