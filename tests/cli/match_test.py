#!/usr/bin/env python3
"""match_test.py - tests of `leuctra match` beyond a plain match: opening suites (parse, errors
with line numbers, pairs from a suite in order), the generator of balanced openings, the SPRT
(an obviously lopsided match stops early with H1, the reverse with H0; --json carries it), the
records and results files (readable by `leuctra records verify` and `leuctra ratings`), --resume
after a kill plays only the missing games, concurrency 1 and 2 give identical results files (and
with a decided SPRT, 1 and 4 identical records files holding the counted pairs alone; the made
openings likewise),
tournaments, game clocks (time per move, clock left and losses on time in the report and --json;
times and clocks in the records, read alike by the C dump and the Python reader; the --pgn text
export), names from a spec's name=, no Elo printed as infinite, the warning when the games want
more cores than there are, and bad options exit 2 with one line.

    LEUCTRA=build/leuctra python3 tests/cli/match_test.py

Crossings, few visits and small trees (nodes=) keep every run to a fraction of a second optimised;
LEUCTRA_QUICK=1 (the sanitizer run) shortens the interrupted match.  Prints one line
per failed check ("FAIL what: ..."), ends with "N passed, N failed", exits non-zero on failure.
"""
import json
import os
import shutil
import signal
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
SUITES = os.path.join(HERE, "..", "..", "data", "openings")
CROSS = ["--variant", "crossings"]
TIMEOUT = 300



def leuctra(*args, cwd=None):
    p = subprocess.run([LEUCTRA, *args], capture_output=True, text=True, timeout=TIMEOUT, cwd=cwd)
    return p.returncode, p.stdout, p.stderr


def match(*args, cwd=None):
    return leuctra("match", *args, cwd=cwd)


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def read(path):
    with open(path) as f:
        return f.read()


def test_shipped_suites(tmp):
    for variant in ("epaminondas", "crossings", "reversi", "igfip"):
        suite = os.path.join(SUITES, variant + ".txt")
        lines = [l for l in read(suite).splitlines() if l.strip() and not l.startswith("#") and not l.startswith("game")]
        check(f"{variant} suite has a few dozen openings", len(lines) >= 24, len(lines))
        rc, out, err = match("random", "random", "--variant", variant, "--openings", suite, "--games", "2")
        check(f"{variant} suite plays", rc == 0, err)


def test_suite_errors(tmp):
    bad = os.path.join(tmp, "bad.txt")
    cases = {
        "game crossings\nstart b1-b3\n\nstart b1-b9\n": ":4: move 'b1-b9'",
        "# c\ngame reversi\n": ":2: the suite is for 'reversi'",
        "start\nnot/a/position w\n": ":2: position",
        "# only a comment\n": "no openings",
        "start\nstart " + "a" * 5000 + "\n": ":2: line longer",
        # a NUL is named with its line and column, not taken for the end of a long line
        "start\nstart b1-b3\0 b7-b6\nstart\n": ":2: NUL byte at column 12",
        "start\n\0\n": ":2: NUL byte at column 1",
        "start\n" + "a" * 5000 + "\0\n": ":2: line longer",
        "start\nstart\0": ":2: NUL byte at column 6",
        # a byte order mark starts the file, and is no part of its first line
        "\ufeffgame crossings\nstart\nfoo w\n": ":3: position",
    }
    for text, expect in cases.items():
        write(bad, text)
        rc, out, err = match("random", "random", *CROSS, "--openings", bad, "--games", "2")
        check(f"suite error {expect!r}: exit 2, one line naming it",
              rc == 2 and expect in err and err.count("\n") == 1, (rc, err))
    rc, out, err = match("random", "random", *CROSS, "--openings", os.path.join(tmp, "missing.txt"))
    check("missing suite: exit 2", rc == 2 and err.count("\n") == 1, (rc, err))


def result_lines(path):
    return read(path).splitlines()


def test_pairs_from_suite(tmp):
    """Three openings, eight games: pairs 0..3 use openings 0, 1, 2, 0, both games of a pair alike."""
    suite = os.path.join(tmp, "three.txt")
    write(suite, "game crossings  # three openings\nstart b1-b3 b7-b6\nstart c1-c3\n"
                 "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w\n")
    out_path = os.path.join(tmp, "pairs.lrec")
    rc, out, err = match("random", "mcts:visits=5,nodes=100000", *CROSS, "--openings", suite, "--games", "8", "--out", out_path)
    check("suite match runs", rc == 0, err)
    check("four pairs from three openings: a note that openings repeat",
          "note: 4 game pairs from 3 openings: each is played up to 2 times" in err, err)
    rc, dump, err = leuctra("records", "dump", out_path)
    # dump leaves out a start that is the board's own start position
    board = "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w"
    starts = [line.split('start="')[1].split('"')[0] if 'start="' in line else board
              for line in dump.splitlines() if line.startswith("game=")]
    check("eight records", len(starts) == 8, dump[:300])
    if len(starts) == 8:
        rc, o0, _ = leuctra("apply", *CROSS, "b1-b3", "b7-b6")
        rc, o1, _ = leuctra("apply", *CROSS, "c1-c3")
        expect = [o0.strip(), o1.strip(), "BBBBBBBB/BBBBBBBB/8/8/8/8/WWWWWWWW/WWWWWWWW w", o0.strip()]
        check("pair i plays opening i mod 3, both games", starts == [e for e in expect for _ in (0, 1)], starts)


def test_make_openings(tmp):
    path = os.path.join(tmp, "made.txt")
    rc, out, err = match("--make-openings", "6", *CROSS, "--plies", "3", "--visits", "50", "--out", path)
    check("make-openings runs", rc == 0, err)
    text = read(path) if os.path.exists(path) else ""
    check("make-openings: a game line and six openings",
          "game crossings" in text and len([l for l in text.splitlines() if l and l[0] not in "#g"]) == 6, text)
    rc, out, err = match("random", "random", *CROSS, "--openings", path, "--games", "4")
    check("made suite reads back", rc == 0, err)
    check("no note while the openings last", "note:" not in err, err)
    # the candidates are evaluated --concurrency at a time, kept in try order: the same suite
    again = os.path.join(tmp, "made3.txt")
    rc, out, err = match("--make-openings", "6", *CROSS, "--plies", "3", "--visits", "50", "--out", again,
                         "--concurrency", "3")
    check("make-openings --concurrency 3: the suite of one thread", rc == 0 and read(again) == text, err)


def sprt_json(*players, games="400"):
    rc, out, err = match(*players, *CROSS, "--games", games, "--sprt", "elo0=0", "elo1=50", "alpha=0.05",
                         "beta=0.05", "--concurrency", "2", "--json")
    try:
        return rc, json.loads(out), err
    except ValueError:
        return rc, None, out + err


def test_sprt(tmp):
    rc, j, err = sprt_json("mcts:visits=30,nodes=100000", "random")
    ok = check("sprt strong vs random: runs, JSON", rc == 0 and j is not None, err)
    if ok:
        s = j["sprt"]
        check("sprt strong vs random: H1, early, LLR above the bound",
              s["decision"] == "H1" and j["games"] < 100 and s["llr"] > s["upper"] and j["games"] == 2 * s["pairs"], j)
    rc, j, err = sprt_json("random", "mcts:visits=30,nodes=100000")
    if check("sprt random vs strong: runs", rc == 0 and j is not None, err):
        check("sprt random vs strong: H0", j["sprt"]["decision"] == "H0" and j["sprt"]["llr"] < j["sprt"]["lower"], j)
    rc, out, err = match("mcts:visits=30,nodes=100000", "random", *CROSS, "--games", "400", "--sprt", "elo1=50")
    check("sprt text report shows LLR and bounds", rc == 0 and "LLR" in out and "H1 accepted" in out, out + err)


def test_sprt_far(tmp):
    """A large elo1 decides (the LLR was nan after every pair, shown as 0.0000 in the JSON), and
    the report names the Elo of the model in use."""
    strong = "mcts:visits=30,nodes=100000"
    rc, out, err = match(strong, "random", *CROSS, "--games", "100", "--sprt", "elo0=0", "elo1=300", "--json")
    j = json.loads(out) if rc == 0 else {}
    s = j.get("sprt", {})
    check("sprt elo1=300: decided H1 with a finite LLR", rc == 0 and s.get("decision") == "H1" and
          s.get("llr") is not None and s["llr"] > s["upper"] and s.get("model") == "normalized", (out, err))
    rc, out, err = match("random", strong, *CROSS, "--games", "100", "--sprt", "elo0=0", "elo1=300")
    check("sprt elo1=300, the weak player first: H0", rc == 0 and "H0 accepted" in out and "nan" not in out, out + err)
    rc, out, err = match(strong, "random", *CROSS, "--games", "100", "--sprt", "elo1=300", "model=logistic")
    check("sprt model=logistic: the report says logistic Elo", rc == 0 and "(logistic Elo, pairs)" in out, out + err)


def test_igfip(tmp):
    """Igfip matches: an SPRT that finds search stronger than random, the results file, and a
    suite of another game refused."""
    results = os.path.join(tmp, "igfip.txt")
    rc, out, err = match("mcts:visits=30,nodes=100000", "random", "--variant", "igfip", "--size", "8x8",
                         "--games", "200", "--sprt", "elo1=50", "--concurrency", "2", "--results", results, "--json")
    try:
        j = json.loads(out)
    except ValueError:
        j = None
    if check("igfip sprt: runs, JSON", rc == 0 and j is not None, out + err):
        check("igfip sprt: H1 accepted", j["sprt"]["decision"] == "H1", j)
    lines = read(results).splitlines() if os.path.exists(results) else []
    check("igfip results file: one line a counted game", j is not None and len(lines) == j["games"], len(lines))
    rc, out, err = match("random", "random", "--variant", "igfip", "--openings",
                         os.path.join(SUITES, "crossings.txt"), "--games", "2")
    check("igfip match with the Crossings suite: exit 2, one line", rc == 2 and "crossings" in err and
          err.count("\n") == 1, (rc, err))


def test_files(tmp):
    rec, res = os.path.join(tmp, "m.lrec"), os.path.join(tmp, "m.txt")
    rc, out, err = match("mcts:visits=20,nodes=100000", "greedy", *CROSS, "--games", "10", "--out", rec, "--results", res,
                         "--name1", "alpha", "--name2", "beta")
    check("files match runs", rc == 0, err)
    rc, out, err = leuctra("records", "verify", rec)
    check("records verify", rc == 0 and "10 games" in out, out + err)
    lines = result_lines(res)
    check("results: ten lines, names alternate colours",
          len(lines) == 10 and lines[0].startswith("alpha beta ") and lines[1].startswith("beta alpha "), lines)
    rc, out, err = leuctra("ratings", res)
    check("ratings reads the results", rc == 0 and "alpha" in out and "beta" in out, out + err)
    rc, out, err = leuctra("ratings", res, "--prior", "2", "--json")
    doc = json.loads(out) if rc == 0 else {}
    check("ratings --prior: finite Elo for both, prior in the JSON",
          doc.get("prior_draws") == 2 and all(p["status"] == "finite" for p in doc.get("players", [])), out + err)
    rc, out, err = leuctra("ratings", res, "--prior", "-1")
    check("ratings --prior -1: exit 2, one line", rc == 2 and err.count("\n") == 1 and "--prior" in err, err)
    rc, out, err = match("mcts:visits=20,nodes=100000", "greedy", *CROSS, "--games", "10", "--out", rec)
    check("existing records file without --resume: refused", rc != 0 and err.count("\n") == 1, err)
    return res


def test_same_files(tmp):
    """No output of a match is one of its inputs or another of its outputs: refused, exit 2, one
    line, before a game is played and with every file as it was."""
    weights = os.path.join(tmp, "same-w.txt")
    shutil.copy(os.path.join(HERE, "..", "..", "data", "weights", "crossings.txt"), weights)
    suite = os.path.join(tmp, "same-suite.txt")
    shutil.copy(os.path.join(SUITES, "crossings.txt"), suite)
    link = os.path.join(tmp, "same-link.txt")
    os.symlink("same-w.txt", link)
    rec, res = os.path.join(tmp, "same.lrec"), os.path.join(tmp, "same.txt")
    cases = [
        (["random", "greedy", "--out", rec, "--results", rec], "--results"),
        (["random", "greedy", "--out", rec, "--results", os.path.join(tmp, ".", "same.lrec")], "--results"),
        (["random", f"mcts:visits=10,weights={weights}", "--results", weights], "weights="),
        (["random", f"greedy:weights={link}", "--results", weights], "weights="),
        (["random", "greedy", "--openings", suite, "--results", suite], "--openings"),
        (["random", "engine:cmd=/bin/true,log=" + res, "--results", res], "log="),
        (["random", "engine:cmd=/bin/true,log=" + rec, "--out", rec], "log="),
    ]
    before = {p: read(p) for p in (weights, suite)}
    for args, named in cases:
        rc, out, err = match(*args, *CROSS, "--games", "2")
        check(f"match {' '.join(args)}: exit 2, one line naming {named}",
              rc == 2 and err.count("\n") == 1 and "same file" in err and named in err, (rc, err))
    check("the weights and the suite are as they were", all(read(p) == t for p, t in before.items()))
    check("no records or results written", not os.path.exists(rec) and not os.path.exists(res))
    # two engines may share one log: it is appended to
    log = os.path.join(tmp, "shared.log")
    engine = f"engine:cmd={os.path.abspath(LEUCTRA)},args=engine,visits=5,log={log}"
    rc, out, err = match(engine, engine + ",name=other", *CROSS, "--games", "2")
    check("two engines with one log= file: not refused", rc == 0, (rc, err))


def test_concurrency(tmp):
    outs = []
    for c in ("1", "2"):
        res = os.path.join(tmp, f"c{c}.txt")
        rc, out, err = match("mcts:visits=20,nodes=100000", "mcts:visits=10,nodes=100000", *CROSS, "--games", "12", "--concurrency", c,
                             "--results", res, "--seed", "5")
        outs.append(read(res) if rc == 0 else err)
    check("concurrency 1 and 2: identical results files", outs[0] == outs[1] and outs[0].count("\n") == 12, outs)
    outs = []
    for c in ("1", "2"):
        res = os.path.join(tmp, f"s{c}.txt")
        rc, out, err = match("mcts:visits=20,nodes=100000", "random", *CROSS, "--games", "200", "--concurrency", c,
                             "--results", res, "--sprt", "elo1=50")
        outs.append(read(res) if rc == 0 else err)
    check("sprt with concurrency 1 and 2: identical results files", outs[0] == outs[1], outs)
    # A decided SPRT's match is exactly its pairs: the games in flight when it stopped are left out
    # of the records too, so the file is the same at any concurrency (and under mpirun).
    recs, games = [], []
    for c in ("1", "4"):
        rec = os.path.join(tmp, f"sprt{c}.lrec")
        rc, out, err = match("mcts:visits=20,nodes=100000", "random", *CROSS, "--games", "200", "--concurrency", c,
                             "--out", rec, "--sprt", "elo1=50", "--json")
        recs.append(open(rec, "rb").read() if rc == 0 else err)
        games.append(json.loads(out)["games"] if rc == 0 else -1)
        rc, out, err = leuctra("records", "info", rec)
        held = [l.split()[1] for l in out.splitlines() if l.startswith("games")]
        check(f"sprt, concurrency {c}: the records hold the counted games alone",
              rc == 0 and held == [str(games[-1])], (held, games))
    check("sprt with concurrency 1 and 4: identical records files", recs[0] == recs[1] and games[0] < 200, games)


def kill_after_some_games(args, rec):
    """Starts the match, SIGKILLs it once the records file holds a game or two; False if the match
    finished first (a machine so fast that there was nothing to interrupt)."""
    p = subprocess.Popen([LEUCTRA, "match", *args, "--out", rec], stdout=subprocess.DEVNULL,
                         stderr=subprocess.DEVNULL)
    deadline = time.time() + 60
    header_size = None
    while p.poll() is None and time.time() < deadline:
        if os.path.exists(rec):
            size = os.path.getsize(rec)
            if header_size is None:
                header_size = size
            elif size > header_size:
                time.sleep(0.2)
                break
        time.sleep(0.005)
    if p.poll() is not None:
        return False
    p.send_signal(signal.SIGKILL)
    p.wait()
    return True


def test_resume(tmp):
    # Long enough to be killed part way; shorter under the sanitizers (LEUCTRA_QUICK), which are slow anyway.
    strong, weak = ("100", "50") if os.environ.get("LEUCTRA_QUICK") else ("400", "200")
    args = [f"mcts:visits={strong},nodes=100000", f"mcts:visits={weak},nodes=100000", *CROSS, "--games", "24",
            "--seed", "3"]
    full_res = os.path.join(tmp, "full.txt")
    rc, out, err = match(*args, "--results", full_res)
    check("uninterrupted run", rc == 0, err)
    rec, res = os.path.join(tmp, "cut.lrec"), os.path.join(tmp, "cut.txt")
    if not check("the match was killed before its end", kill_after_some_games(args, rec)):
        return
    rc, dump, err = leuctra("records", "dump", rec)
    before = dump.count("game=")
    rc, out, err = match(*args, "--out", rec, "--resume", "--results", res, "--json")
    j = json.loads(out) if rc == 0 else {}
    check("resume after a kill plays only the missing games",
          0 < before < 24 and j.get("resumed") == before and j.get("played") == 24 - before, (before, out, err))
    check("resume: results equal an uninterrupted run", os.path.exists(res) and read(res) == read(full_res))
    rc, out, err = leuctra("records", "verify", rec)
    check("resumed records verify with 24 games", rc == 0 and "24 games" in out, out + err)
    size = os.path.getsize(rec)
    rc, out, err = match(*args, "--out", rec, "--resume", "--results", res, "--json")
    j = json.loads(out) if rc == 0 else {}
    check("resume of a complete match plays nothing, same results, same file",
          j.get("played") == 0 and read(res) == read(full_res) and os.path.getsize(rec) == size, (out, err))


def test_resume_refusals(tmp):
    """--resume adds games only to a file of the same match: other players, seed, openings or game
    count, or a self-play file, are refused with exit 2 and one line, and the file kept."""
    rec = os.path.join(tmp, "refuse.lrec")
    base = ["mcts:visits=20,nodes=100000", "mcts:visits=10,nodes=100000", *CROSS, "--games", "4", "--seed", "3"]
    rc, out, err = match(*base, "--out", rec)
    check("a match to resume", rc == 0, err)
    kept = open(rec, "rb").read()
    suite = os.path.join(SUITES, "crossings.txt")
    cases = [
        (["random", "greedy", *CROSS, "--games", "4", "--seed", "3", "--name1", "a", "--name2", "b"], "player1"),
        (["mcts:visits=20,nodes=100000", "greedy", *CROSS, "--games", "4", "--seed", "3"], "player2"),
        ([*base[:-1], "4"], "seed"),
        ([*base, "--opening-plies", "2"], "openings"),
        ([*base, "--openings", suite], "openings"),
        ([*base[:5], "6", *base[6:]], "games"),
    ]
    for args, named in cases:
        rc, out, err = match(*args, "--out", rec, "--resume")
        check(f"resume as {' '.join(args)}: exit 2, one line naming {named}",
              rc == 2 and err.count("\n") == 1 and f"{named}: the file has" in err, (rc, err))
    check("the refused resumes left the file alone", open(rec, "rb").read() == kept)
    selfplay = os.path.join(tmp, "refuse-selfplay.lrec")
    rc, out, err = leuctra("selfplay", *CROSS, "--games", "2", "--visits", "10", "--out", selfplay, "--quiet")
    rc, out, err = match(*base, "--out", selfplay, "--resume")
    check("a self-play file resumed as a match: exit 2, one line",
          rc == 2 and err.count("\n") == 1 and "not the records of a match" in err, (rc, err))
    stale = rec + ".tmp.Xy12Zw"
    write(stale, "a rewrite killed half way")
    rc, out, err = match(*base, "--out", rec, "--resume")
    check("the same match resumes", rc == 0 and "resumed: 4 games read" in out, (rc, out, err))
    check("resume removes a killed rewrite's temporary file and says so",
          not os.path.exists(stale) and "resume removed 1 temporary file" in out, out)


def test_tournament(tmp):
    res = os.path.join(tmp, "t.txt")
    rc, out, err = match("mcts:visits=20,nodes=100000", "greedy", "random", *CROSS, "--games", "4", "--tournament",
                         "round-robin", "--results", res)
    check("round robin: runs, prints ratings", rc == 0 and "Elo" in out and "random" in out, out + err)
    check("round robin: 3 pairings x 4 games", len(result_lines(res)) == 12, read(res) if os.path.exists(res) else "")
    rc, out, err = match("mcts:visits=20,nodes=100000", "greedy", "random", *CROSS, "--games", "4", "--tournament",
                         "gauntlet", "--results", res)
    lines = result_lines(res) if rc == 0 else []
    check("gauntlet: 2 pairings, the first player in every game",
          len(lines) == 8 and all("mcts:visits=20,nodes=100000" in l for l in lines), lines or err)


def test_bad_options(tmp):
    cases = [
        ["random"],
        ["random", "random", "--games", "0"],
        ["random", "random", "--sprt", "elo0=5", "elo1=0"],
        ["random", "random", "--sprt", "gamma=1"],
        ["random", "random", "--resume"],
        ["random", "random", "random"],
        ["random", "random", "--tournament", "swiss"],
        ["random", "random", "--name1", "a b"],
        ["random", "nosuch"],
        ["--make-openings", "3"],
        ["random", "random", "--frobnicate"],
        ["random", "random", "--resign", "movecount=0"],
        ["random", "random", "--resign", "value=0.7"],
        ["random", "random", "--resign", "score=500"],
    ]
    for args in cases:
        rc, out, err = match(*args, *CROSS)
        check(f"bad options {args}: exit 2 with one line", rc == 2 and err.count("\n") == 1, (rc, err))
    # --plies 0 makes every opening the start: refused for what it is, not as "try fewer plies"
    rc, out, err = match("--make-openings", "3", "--plies", "0", "--out", os.path.join(tmp, "zero.txt"), *CROSS)
    check("--make-openings --plies 0: exit 2, one line saying why", rc == 2 and err.count("\n") == 1 and
          "every opening is the start position" in err and "fewer" not in err, (rc, err))


def test_resign(tmp):
    """--resign ends games both searchers call lost: records say end=resign, the JSON counts them,
    and a random player (no value) never resigns."""
    rec = os.path.join(tmp, "resign.lrec")
    rc, out, err = match("mcts:visits=100", "greedy", *CROSS, "--games", "16", "--concurrency", "2", "--seed", "2",
                         "--resign", "movecount=2", "value=0.1", "--out", rec, "--json")
    doc = json.loads(out) if rc == 0 else {}
    rc2, dump, err2 = leuctra("records", "dump", rec)
    resigned = dump.count("end=resign")
    check("--resign: games adjudicated, counted in the JSON and the records",
          rc == 0 and rc2 == 0 and resigned > 0 and doc.get("adjudicated_losses") == resigned, (out, err, dump[:500]))
    rc, out, err = match("random", "greedy", *CROSS, "--games", "6", "--resign", "value=0.5", "--json")
    doc = json.loads(out) if rc == 0 else {}
    check("--resign: a player without values never resigns", rc == 0 and doc.get("adjudicated_losses") == 0, out + err)


def test_clocks(tmp):
    """A clocked player against a fixed-time one, with generous clocks (4 s for some 20 moves: no
    loaded machine makes it lose on time): the report's time lines, the JSON's time object, the
    records' times and clocks (format version 2, read alike by the Python reader), the text export."""
    rec, pgn = os.path.join(tmp, "clock.lrec"), os.path.join(tmp, "clock.pgn")
    rc, out, err = match("mcts:tc=4+0.05,nodes=100000,name=clock", "mcts:time=0.02,nodes=100000,name=fixed", *CROSS,
                         "--games", "4", "--out", rec, "--pgn", pgn, "--json")
    doc = json.loads(out) if rc == 0 else {}
    first, second = doc.get("time", {}).get("first", {}), doc.get("time", {}).get("second", {})
    check("clock match: plays, named by name=", rc == 0 and doc.get("first") == "clock" and doc.get("second") == "fixed",
          (rc, out, err))
    check("clock match: the clocked side's time, clock left and no loss on time",
          first.get("moves", 0) > 0 and 0 < first.get("mean", 0) < 4 and first.get("clock_left") is not None
          and first.get("clocked_games") == 4 and first.get("forfeits") == 0, first)
    check("clock match: the fixed-time side's time, without a clock",
          second.get("moves", 0) > 0 and second.get("clock_left") is None and second.get("clocked_games") == 0, second)
    rc, dump, _ = leuctra("records", "dump", rec, "--times")
    check("records: every move timed, the clocked side's clock after it", rc == 0 and "{t=-" not in dump and
          "clk=1" in dump and " clk=-" in dump, dump[:300])
    sys.path.insert(0, os.path.join(HERE, "..", "..", "scripts"))
    import leuctra_records
    with leuctra_records.RecordsFile(rec) as f:
        version = f.header.version
        games = list(f.games())
        py_dump = "".join(leuctra_records.format_game(g, f.header, times=True) + "\n" for g in games)
    check("records: format version 2, the Python reader's dump is the C dump", version == 2 and py_dump == dump,
          (version, py_dump[:200], dump[:200]))
    check("records: the final clocks", all(g.final_clocks[0] is not None or g.final_clocks[1] is not None
                                           for g in games), [g.final_clocks for g in games])
    text = read(pgn) if os.path.exists(pgn) else ""
    blocks = [b for b in text.split("\n\n[Event ") if b.strip()]
    check("--pgn: one block a game, with its tags", len(blocks) == 4 and text.count('[White "clock"]') == 2 and
          text.count('[Black "clock"]') == 2 and text.count("[Reason ") == 4 and '[WhiteTimeControl "4+0.05"]' in text
          and "[Opening " in text and "[Variant \"crossings\"]" in text, text[:600])
    check("--pgn: moves numbered, with value, visits, time and clock comments",
          "1. " in text and " t=" in text and " clk=" in text and "{p=" in text and " n=" in text, text[-800:])
    rc, out, err = match("mcts:tc=4+0.05,nodes=100000", "random", *CROSS, "--games", "2")
    check("report: a time block with the clock left", rc == 0 and "time:" in out and "left at the end" in out and
          "lost on time" in out, out)
    for args, words in ((["--pgn", pgn], "--pgn needs --out"), (["--timemargin", "-1"], "--timemargin"),
                        (["--timemargin", "x"], "--timemargin")):
        rc, out, err = match("random", "random", *CROSS, "--games", "2", *args)
        check(f"bad {args}: exit 2, one line", rc == 2 and len(err.strip().splitlines()) == 1 and words in err, err)
    for spec, words in (("mcts:tc=10+", "time control '10+'"), ("mcts:tc=10,time=1", "give one of them"),
                        ("mcts:tc=0", "time control '0'")):
        rc, out, err = match(spec, "random", *CROSS, "--games", "2")
        check(f"bad spec {spec}: exit 2, one line", rc == 2 and words in err and len(err.strip().splitlines()) == 1, err)


def test_no_infinite_elo(tmp):
    """A perfect score gets the bound its games support, never +inf; the tournament table says why
    a player that won everything has no rating."""
    rc, out, err = match("mcts:visits=60,nodes=100000", "random", *CROSS, "--games", "8")
    perfect = " =0 -0," in out
    check("perfect score: no 'inf' in the report, a bound instead", rc == 0 and "inf" not in out and
          (not perfect or "Elo > +" in out), out)
    rc, out, err = match("mcts:visits=60,nodes=100000", "random", *CROSS, "--games", "8", "--json")
    doc = json.loads(out) if rc == 0 else {}
    if doc.get("losses") == 0 and doc.get("draws") == 0:
        check("perfect score JSON: elo null, elo_lower the exact bound", doc.get("elo") is None and
              isinstance(doc.get("elo_lower"), float) and doc.get("elo_lower") > 0, doc)
    rc, out, err = match("mcts:visits=60,nodes=100000,name=strong", "random:name=r1", "random:name=r2", *CROSS,
                         "--tournament", "round-robin", "--games", "4")
    check("tournament: names from name=, no 'inf'", rc == 0 and "strong" in out and "r1" in out and "r2" in out and
          "inf" not in out and "mcts:" not in out, out)


def test_core_warning(tmp):
    cores = os.cpu_count() or 1
    rc, out, err = match("random", "random", *CROSS, "--games", "4", "--concurrency", str(cores + 1))
    check("more games at once than cores: a warning", rc == 0 and "warning: --concurrency" in err and
          "skews timed results" in err, err)
    rc, out, err = match("random", "random", *CROSS, "--games", "2", "--concurrency", "1")
    check("one game at a time: no warning", rc == 0 and "warning" not in err, err)


def main():
    tmp = tempfile.mkdtemp(prefix="match_test.")
    try:
        for test in (test_shipped_suites, test_suite_errors, test_pairs_from_suite, test_make_openings, test_sprt,
                     test_sprt_far, test_igfip, test_files, test_same_files, test_concurrency, test_resume,
                     test_resume_refusals, test_tournament, test_resign, test_bad_options, test_clocks,
                     test_no_infinite_elo, test_core_warning):
            try:
                test(tmp)
            except Exception as e:  # a crash in one test is a failure, not the end of the run
                check(test.__name__, False, repr(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    sys.exit(summary())


main()
