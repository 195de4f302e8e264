#!/usr/bin/env python3
"""svg_test.py - tests of the pictures: `leuctra render` and `leuctra view` (pictures/svg_board.c,
cli/cmd_render.c, cli/cmd_view.c) and the charts (pictures/svg_chart.c, charts.c: ratings --svg,
records info --svg, chart training).  Every SVG parses as XML; a board shows the squares that `leuctra
show` prints, for every game and board shapes (16x16 with obstacles, Crossings towers, Igfip crossings);
the viewer page is one self-contained file whose embedded positions are those `leuctra apply`
gives; each chart draws what the JSON of its command says (one point and error bar per rated
player, one bar per histogram bin, the losses of every tune.json of a real training-loop run);
bad input fails with one line and exit status 2 and leaves no file behind.  Ends with
"N passed, N failed"."""
import glob
import json
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/checks.py
from checks import check, summary  # noqa: E402

LEUCTRA = os.environ.get("LEUCTRA", "build/leuctra")
SVG = "{http://www.w3.org/2000/svg}"
REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


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
    ("igfip-crossings", ["--variant", "igfip", "--position", TOWER_POSITION], [], 0),
    ("igfip-8x8", ["--variant", "igfip", "--size", "8x8"], [], 0),
]


def test_positions(tmp):
    for name, game_args, extra, last in CASES:
        path = os.path.join(tmp, name + ".svg")
        p = run("render", *game_args, *extra, "-o", path)
        check(name + " renders", p.returncode == 0, p.stderr.strip())
        if p.returncode == 0:
            check_picture(name, path, game_args, last=last if extra else None)
    for case in ("crossings-towers", "igfip-crossings"):
        towers = show_squares(next(c[1] for c in CASES if c[0] == case))
        check(case + " position has towers", "T" in towers and "t" in towers, towers)


def test_arrows(tmp):
    for variant in ("epaminondas", "crossings", "reversi", "igfip"):
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



# --- charts ---------------------------------------------------------------------------------------

def parse_chart(name, path):
    """The root of a chart, or None (a failed check) when it is missing or not XML."""
    try:
        root = ET.parse(path).getroot()
    except (ET.ParseError, OSError) as e:
        check(name + " parses", False, str(e))
        return None
    check(name + " parses", root.tag == SVG + "svg", root.tag)
    return root


def of_class(root, cls):
    return [e for e in root.iter() if e.get("class") == cls]


def tip(e):
    t = e.find(SVG + "title")
    return t.text if t is not None else ""


def texts(root, cls):
    return [e.text for e in of_class(root, cls)]


def no_temp_files(name, folder):
    left = glob.glob(os.path.join(folder, "*.tmp.*"))
    check(name + " leaves no temporary file", not left, left)


# Five versions that all play each other, a player that lost every game (-inf), two that only
# drew each other (unplaced) and a name that needs escaping in XML.
def ratings_games():
    import random
    rng = random.Random(5)
    strength = {"v1": 0, "v2": 40, "v3": 80, "base-old": -60, 'x<&>"y': 20}
    names = list(strength)
    lines = []
    for i, a in enumerate(names):
        for b in names[i + 1:]:
            for k in range(40):
                white, black = (a, b) if k % 2 == 0 else (b, a)
                p = 1 / (1 + 10 ** ((strength[black] - strength[white]) / 400))
                u = rng.random()
                lines.append(f"{white} {black} {'1/2-1/2' if abs(u - p) < 0.15 else '1-0' if u < p else '0-1'}")
    lines += ["v1 random 1-0", "random v1 0-1"] * 3 + ["isle1 isle2 1/2-1/2"]
    return "\n".join(lines) + "\n"


def check_ratings_chart(name, root, players):
    """One point per finite rating, one error bar per finite non-anchor rating, the Elo in each
    tooltip as the JSON has it, +inf/-inf on the edges, ? for the unplaced, names in rank order."""
    finite = [p for p in players if p["status"] == "finite"]
    points = of_class(root, "point")
    check(name + " one point per rated player", len(points) == len(finite), f"{len(points)} != {len(finite)}")
    bars = of_class(root, "error-bar")
    check(name + " one error bar per rated player but the anchor", len(bars) == len(finite) - 1, len(bars))
    tips = sorted(tip(e) for e in points)
    expect = sorted(f"{p['name']}: Elo {p['elo']:.1f}" + (" (anchor)" if p["error"] == 0 else f" +/- {p['error']:.1f}")
                    for p in finite)
    check(name + " tooltips give the JSON's Elo", tips == expect, f"{tips} != {expect}")
    off = len([p for p in players if p["status"] in ("above", "below")])
    check(name + " +inf/-inf on the edges", len(of_class(root, "off-scale")) == off)
    unplaced = len([p for p in players if p["status"] in ("undetermined", "unlinked")])
    check(name + " ? for the unplaced", len(of_class(root, "unplaced")) == unplaced)
    ticks = [t for t in texts(root, "tick") if not re.fullmatch(r"-?[0-9.]+", t)]
    check(name + " names in rank order", ticks == [p["name"] for p in players], ticks)


def test_ratings_chart(tmp):
    games = os.path.join(tmp, "games.txt")
    with open(games, "w") as f:
        f.write(ratings_games())
    svg = os.path.join(tmp, "ratings.svg")
    p = run("ratings", games, "--anchor", "v1", "--json", "--svg", svg)
    check("ratings --svg runs", p.returncode == 0, p.stderr)
    root = parse_chart("ratings chart", svg)
    if p.returncode or root is None:
        return
    players = json.loads(p.stdout)["players"]
    check_ratings_chart("ratings chart", root, players)
    check("ratings chart axis labels", texts(root, "axis-label") == ["players, by rank", "Elo"],
          texts(root, "axis-label"))
    check("ratings chart legend", texts(root, "legend-label") == ["Elo and interval", "anchor"])
    again = os.path.join(tmp, "ratings2.svg")
    run("ratings", games, "--anchor", "v1", "--svg", again)
    check("ratings chart is the same every time", open(svg, "rb").read() == open(again, "rb").read())
    no_temp_files("ratings --svg", tmp)


def check_records_chart(name, root, total):
    bars = of_class(root, "bar")
    lengths = [b for b in bars if "plies" in tip(b)]
    expect = [f"{h['from']}-{h['to']} plies: {h['games']} games" for h in total["histogram"]]
    check(name + " one bar per histogram bin, counts as JSON",
          [tip(b) for b in lengths] == expect, f"{[tip(b) for b in lengths]} != {expect}")
    results = [tip(b).split(":")[1].split()[0] for b in bars if "plies" not in tip(b)]
    r = total["results"]
    check(name + " result bars", results == [str(r["white-wins"]), str(r["black-wins"]), str(r["draw"])], results)
    heights = [float(b.get("height")) for b in lengths]
    top = max(h["games"] for h in total["histogram"])
    tallest = max(heights)
    check(name + " bar heights follow the counts",
          all(abs(hgt - tallest * h["games"] / top) < 0.15 for hgt, h in zip(heights, total["histogram"])), heights)
    check(name + " axis labels", texts(root, "axis-label") == ["plies per game", "games", "result", "games"],
          texts(root, "axis-label"))


def test_records_chart(tmp):
    files = [os.path.join(tmp, "crossings.lrec"), os.path.join(tmp, "reversi.lrec")]
    for name, paths in (("records chart", files[:1]), ("records chart of two files", files)):
        svg = os.path.join(tmp, name.replace(" ", "-") + ".svg")
        p = run("records", "info", *paths, "--json", "--svg", svg)
        check(name + " runs", p.returncode == 0, p.stderr)
        root = parse_chart(name, svg)
        if p.returncode == 0 and root is not None:
            check_records_chart(name, root, json.loads(p.stdout)["total"])
    # A file with a header and no games yet: a selfplay stopped before its first game ends.
    empty = os.path.join(tmp, "empty.lrec")
    subprocess.run(["timeout", "-s", "INT", "1", LEUCTRA, "selfplay", "--games", "5", "--visits", "5000000",
                    "--variant", "crossings", "--threads", "1", "--quiet", "--out", empty], capture_output=True)
    out = os.path.join(tmp, "empty.svg")
    p = run("records", "info", empty, "--svg", out)
    check("records chart of no games: one line, exit 2", p.returncode == 2 and len(p.stderr.splitlines()) == 1,
          p.stderr)
    check("records chart of no games: no file", not os.path.exists(out))
    no_temp_files("records info --svg", tmp)


def run_training_loop(out):
    env = dict(os.environ, LEUCTRA=os.path.abspath(LEUCTRA), GENERATIONS="3", SELFPLAY_GAMES="40",
               SELFPLAY_VISITS="20", MATCH_GAMES="20", MATCH_VISITS="20", THREADS="2")
    return subprocess.run(["sh", "scripts/training_loop.sh", out], cwd=REPO, env=env, capture_output=True,
                          text=True, timeout=300)


def check_losses(root, loop, gens):
    series = of_class(root, "series")
    check("training chart: four loss lines", [tip(s) for s in series] ==
          ["train, after", "validation, after", "train, before", "validation, before"], [tip(s) for s in series])
    got = sorted(tip(v) for v in of_class(root, "vertex"))
    expect = []
    for k in range(1, gens + 1):
        loss = json.load(open(os.path.join(loop, f"gen{k}", "tune.json")))["log_loss"]
        for s, label in (("train", "train"), ("validation", "validation")):
            for when in ("before", "after"):
                if loss[s][when] is not None:
                    expect.append(f"{label}, {when} at {k}: {loss[s][when]:.4f}")
    check("training chart: every loss of every tune.json", got == sorted(expect), f"{got} != {sorted(expect)}")


def check_elo(root, loop, gens):
    p = run("ratings", *[os.path.join(loop, f"gen{k}", "match.txt") for k in range(1, gens + 1)],
            "--anchor", "gen0", "--prior", "2", "--json")
    rated = {q["name"]: q for q in json.loads(p.stdout)["players"]}
    marks = of_class(root, "point") + of_class(root, "off-scale") + of_class(root, "unplaced")
    check("training chart: one mark per generation", len(marks) == gens + 1, len(marks))
    for k in range(gens + 1):
        verdict = "start" if k == 0 else open(os.path.join(loop, f"gen{k}", "verdict")).read().strip()
        q = rated[f"gen{k}"]
        if q["status"] == "finite":
            want = f"gen{k} {verdict}: Elo {q['elo']:.1f}" + (" (anchor)" if k == 0 else f" +/- {q['error']:.1f}")
        else:
            want = f"gen{k} {verdict}: Elo {'+inf' if q['status'] == 'above' else '-inf'}"
        check(f"training chart: gen{k}'s Elo and verdict", any(tip(m).startswith(want) for m in marks), want)
    finite = [q for q in rated.values() if q["status"] == "finite" and q["name"] != "gen0"]
    check("training chart: an error bar per rated generation", len(of_class(root, "error-bar")) == len(finite))


def test_training_chart(tmp):
    loop = os.path.join(tmp, "loop")
    p = run_training_loop(loop)
    check("training loop runs", p.returncode == 0, p.stderr[-500:])
    root = parse_chart("training chart", os.path.join(loop, "training.svg"))
    ratings = parse_chart("training loop's ratings chart", os.path.join(loop, "ratings.svg"))
    if p.returncode or root is None or ratings is None:
        return
    check_losses(root, loop, 3)
    check_elo(root, loop, 3)
    check("training chart axis labels", texts(root, "axis-label") ==
          ["generation", "log-loss (nats per position)", "generation", "Elo"], texts(root, "axis-label"))
    check("training chart legends", texts(root, "legend-label") ==
          ["train, after", "validation, after", "train, before", "validation, before",
           "start (anchor)", "promoted", "rejected", "undecided"])
    p = run("ratings", *sorted(glob.glob(os.path.join(loop, "gen*", "match.txt"))), "--anchor", "gen0", "--prior", "2", "--json")
    check_ratings_chart("training loop's ratings chart", ratings, json.loads(p.stdout)["players"])
    return loop


def expect_chart_error(name, out, *args):
    """Exit status 2, one line on stderr, and no chart file."""
    p = run(*args)
    lines = p.stderr.strip().splitlines()
    check(name, p.returncode == 2 and len(lines) == 1, f"rc {p.returncode}, stderr {p.stderr!r}")
    check(name + ": no file", not os.path.exists(out))


def test_chart_errors(tmp, loop):
    out = os.path.join(tmp, "never.svg")
    games = os.path.join(tmp, "games.txt")
    expect_chart_error("ratings --svg into a missing folder", out, "ratings", games, "--svg",
                       os.path.join(tmp, "no", "such", "r.svg"))
    expect_chart_error("ratings --svg to stdout", out, "ratings", games, "--svg", "-")
    expect_chart_error("ratings --svg of a missing file", out, "ratings", os.path.join(tmp, "missing.txt"),
                       "--svg", out)
    empty = os.path.join(tmp, "comments.txt")
    open(empty, "w").write("# no games yet\n")
    expect_chart_error("ratings --svg of no games", out, "ratings", empty, "--svg", out)
    expect_chart_error("records info --svg of a missing file", out, "records", "info",
                       os.path.join(tmp, "missing.lrec"), "--svg", out)
    expect_chart_error("chart training of a missing folder", out, "chart", "training",
                       os.path.join(tmp, "missing"), "-o", out)
    expect_chart_error("chart training of a folder with no generation", out, "chart", "training", tmp, "-o", out)
    expect_chart_error("chart without a kind", out, "chart")
    expect_chart_error("chart of an unknown kind", out, "chart", "lengths", tmp)
    if loop:
        broken = os.path.join(tmp, "broken")
        subprocess.run(["cp", "-r", loop, broken], check=True)
        open(os.path.join(broken, "gen2", "tune.json"), "w").write('{"log_loss":{"train":')
        expect_chart_error("chart training with a cut tune.json", out, "chart", "training", broken, "-o", out)
        os.remove(os.path.join(broken, "gen2", "tune.json"))
        expect_chart_error("chart training without a tune.json", out, "chart", "training", broken, "-o", out)
        p = run("chart", "training", loop)
        check("chart training to stdout", p.returncode == 0 and p.stdout.startswith("<?xml"), p.stderr)
    for args in (["ratings", "--help"], ["records", "info", "--help"], ["chart", "--help"], ["chart", "help"],
                 ["chart", "training", "--help"]):
        p = run(*args)
        check(" ".join(args) + " has --svg or -o and an example",
              p.returncode == 0 and "example:" in p.stdout and ("--svg" in p.stdout or "-o FILE" in p.stdout))
    no_temp_files("chart errors", tmp)

def main():
    keep = os.environ.get("LEUCTRA_SVG_OUT")     # a folder to keep the pictures in, if given
    with tempfile.TemporaryDirectory() as scratch:
        tmp = keep or scratch
        os.makedirs(tmp, exist_ok=True)
        test_positions(tmp)
        test_arrows(tmp)
        test_records(tmp)
        test_errors(tmp)
        test_ratings_chart(tmp)
        test_records_chart(tmp)
        loop = test_training_chart(tmp)
        test_chart_errors(tmp, loop)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
