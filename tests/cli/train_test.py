#!/usr/bin/env python3
"""train_test.py - tests of `leuctra train` (docs/TRAINING.md): a small run leaves the folder the
docs describe (every generation's self-play, fit, gate and verdict, the ladder against the fixed
anchors, the charts); a run killed with SIGKILL at several points and resumed each time ends
with the same files, byte for byte, as the run that was never stopped (the log, the elapsed
time and the time fields of the fits' reports aside), and so does one killed inside its last
generation's ladder; a new run begins only in a new or empty folder; a resumed run must repeat
the settings it was started with, and a settings file that differs or is not a run's gets a line
that says where and how; bad options get one line and exit 2; a run of --model net fits networks
and resumes byte for byte too.

    LEUCTRA=build/leuctra python3 tests/cli/train_test.py

Prints one line per failed check ("FAIL what: ..."), ends with "N passed, N failed".
"""
import fcntl
import filecmp
import json
import os
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))  # tests/checks.py
from checks import check, summary  # noqa: E402

LEUCTRA = os.path.abspath(os.environ.get("LEUCTRA") or sys.exit("set LEUCTRA to the leuctra binary"))

# A run of seconds: Crossings on 5x6, a few dozen games a step, two generations.
SMALL = ["--variant", "crossings", "--size", "5x6", "--start", "zero", "--generations", "2", "--games", "30",
         "--visits", "60", "--gate-games", "20", "--gate-visits", "30", "--ladder-games", "10", "--ladder-visits",
         "30", "--make-openings", "20", "--sprt", "elo0=0", "elo1=60", "--threads", "2", "--quiet"]
# Files whose bytes depend on the machine: not part of the promise.
TIMED = {"train.log", "elapsed"}


def train(cwd, *args, timeout=600):
    return subprocess.run([LEUCTRA, "train", *args], cwd=cwd, capture_output=True, text=True, timeout=timeout)


def without_times(value):
    """A report with every *seconds field (and the time object) taken out."""
    if isinstance(value, dict):
        return {k: without_times(v) for k, v in value.items() if k != "time" and not k.endswith("seconds")}
    if isinstance(value, list):
        return [without_times(v) for v in value]
    return value


def compare_folders(a, b):
    """The relative paths whose contents differ between two run folders, and those only one has."""
    differ = []
    for root, _, files in os.walk(a):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), a)
            other = os.path.join(b, rel)
            if name in TIMED:
                continue
            if not os.path.exists(other):
                differ.append("only in the first: " + rel)
            elif name == "tune.json":
                if without_times(json.load(open(os.path.join(a, rel)))) != without_times(json.load(open(other))):
                    differ.append(rel)
            elif not filecmp.cmp(os.path.join(a, rel), other, shallow=False):
                differ.append(rel)
    for root, _, files in os.walk(b):
        for name in files:
            rel = os.path.relpath(os.path.join(root, name), b)
            if name not in TIMED and not os.path.exists(os.path.join(a, rel)):
                differ.append("only in the second: " + rel)
    return differ


def test_small_run(base):
    p = train(base, "run", *SMALL)
    check("a small run exits 0", p.returncode == 0, p.stderr[-500:])
    run = os.path.join(base, "run")
    for rel in ["settings", "openings.txt", "gen0/weights.txt", "gen1/selfplay.lrec", "gen1/selfplay.done",
                "gen1/weights.lwt", "gen1/tune.json", "gen1/match.lrec", "gen1/match.txt", "gen1/match.json",
                "gen1/verdict", "gen2/verdict", "ladder.txt", "train.log", "training.svg"]:
        check(f"the run wrote {rel}", os.path.exists(os.path.join(run, rel)), "")
    verdicts = [open(os.path.join(run, f"gen{k}/verdict")).read().strip() for k in (1, 2)]
    check("every verdict is a verdict", all(v in ("promoted", "rejected", "undecided") for v in verdicts), verdicts)
    gate = json.load(open(os.path.join(run, "gen1/match.json")))
    check("the gate's report", gate["generation"] == 1 and gate["wins"] + gate["draws"] + gate["losses"] > 0 and
          gate["verdict"] == verdicts[0], gate)
    tune = json.load(open(os.path.join(run, "gen1/tune.json")))
    check("generation 1 fits tables and priors (the whole model)", tune["options"]["tables"] and "priors" in tune,
          list(tune))
    # the weights say how they were made: the run's command with its seed, to repeat it
    comments = [line for line in open(os.path.join(run, "gen1/weights.lwt"), "rb").read().split(b"\n")
                if line.startswith(b"# ")]
    check("generation 1's weights carry the run's command and seed",
          any(line.startswith(b"# run: leuctra train DIR --variant") and b" --seed " in line for line in comments),
          comments[:6])
    ladder = open(os.path.join(run, "ladder.txt")).read()
    promoted = [k for k, v in zip((1, 2), verdicts) if v == "promoted"]
    check("the ladder lists every promoted generation against gen0 and the shipped weights",
          "gen0" in ladder and "shipped" in ladder and all(f"gen{k} " in ladder for k in promoted), ladder)
    if promoted:
        check("ratings.svg is drawn", os.path.exists(os.path.join(run, "ratings.svg")), "")
        # every promoted generation rated from all the run's games, gen0 at 0: "+812 [+650, +974]"
        rows = [line for line in ladder.splitlines() if line.startswith(f"gen{promoted[0]} ")]
        check("the ladder rates each promoted generation from every game, with its interval",
              "all games, gen0 at 0" in ladder and rows and re.search(r"[+-]\d+ \[[+-]\d+, [+-]\d+\]$", rows[0]),
              ladder)
    # Raising the budget continues the same run: one more generation, the first two untouched.
    before = open(os.path.join(run, "gen1/weights.lwt"), "rb").read()
    p = train(base, "run", *SMALL[:SMALL.index("--generations")], "--generations", "3",
              *SMALL[SMALL.index("--generations") + 2:], "--resume")
    check("--resume with a larger budget runs one more generation", p.returncode == 0 and
          os.path.exists(os.path.join(run, "gen3/verdict")), p.stderr[-300:])
    check("... and leaves the finished ones alone",
          open(os.path.join(run, "gen1/weights.lwt"), "rb").read() == before, "")
    return run


def window_of(run, k):
    """The generations whose self-play generation k's fit read, from its report."""
    data = json.load(open(os.path.join(run, f"gen{k}/tune.json")))["data"]
    return [int(re.search(r"gen(\d+)/selfplay", d["file"]).group(1)) for d in data]


def test_window(base):
    """--window 1: a fit reads its own generation's games and those of every generation since the
    best's promotion (all played by the best), up to --window-max."""
    args = list(SMALL)
    args[args.index("--generations") + 1] = "3"
    p = train(base, "wide", *args, "--window", "1")
    check("a run with --window 1 exits 0", p.returncode == 0, p.stderr[-300:])
    run = os.path.join(base, "wide")
    best, expected, read = 0, [], []
    for k in (1, 2, 3):
        expected.append(list(range(best + 1, k + 1)))
        read.append(window_of(run, k))
        if open(os.path.join(run, f"gen{k}/verdict")).read().strip() == "promoted":
            best = k
    check("each fit reads every generation the best played (--window 1, --window-max 20)", read == expected,
          (read, expected))
    p = train(base, "narrow", *args, "--window", "1", "--window-max", "1")
    run = os.path.join(base, "narrow")
    check("--window-max 1: each fit reads its own generation alone",
          p.returncode == 0 and [window_of(run, k) for k in (1, 2, 3)] == [[1], [2], [3]], p.stderr[-300:])
    settings = open(os.path.join(run, "settings")).read()
    check("a fixed window is written as before --window-max", "\nwindow=1\n" in settings, settings)
    p = train(base, "refused", *args, "--window", "3", "--window-max", "2")
    check("--window-max below --window: exit 2, one line", p.returncode == 2 and "--window-max" in p.stderr and
          p.stderr.count("\n") == 1, p.stderr)


def test_fit_options(base):
    """--l2-tables and --lambda reach every fit and are settings of the run; --l2-tables is refused
    with --linear-only."""
    args = list(SMALL)
    args[args.index("--generations") + 1] = "1"
    p = train(base, "l2", *args, "--l2-tables", "500", "--lambda", "0.5", "--ladder-games", "0")
    run = os.path.join(base, "l2")
    report = json.load(open(os.path.join(run, "gen1/tune.json"))) if p.returncode == 0 else {}
    check("--l2-tables 500: the fit's penalty", report.get("options", {}).get("l2_tables") == 500, p.stderr[-300:])
    check("--lambda 0.5: the fit's targets", report.get("options", {}).get("lambda") == 0.5, report.get("options"))
    settings = open(os.path.join(run, "settings")).read() if p.returncode == 0 else ""
    check("--l2-tables and --lambda are in the settings", "l2-tables 500 lambda 0.5\n" in settings, settings)
    weights = open(os.path.join(run, "gen1/weights.lwt"), "rb").read() if p.returncode == 0 else b""
    check("the weights' provenance names them", b"--l2-tables 500 --lambda 0.5" in weights, "")
    p = train(base, "l2", *args, "--ladder-games", "0", "--lambda", "0.5", "--resume")
    check("--resume without the run's --l2-tables: exit 2", p.returncode == 2 and "fit" in p.stderr, p.stderr)
    p = train(base, "l2lin", *args, "--linear-only", "--l2-tables", "5")
    check("--l2-tables with --linear-only: exit 2, one line", p.returncode == 2 and "--l2-tables" in p.stderr and
          p.stderr.count("\n") == 1, p.stderr)


def test_priors_generations(base):
    """--priors-generations N: the fits of gens 1-N refit the learned priors, later ones keep the
    best's, unless the best has none; a setting of the run and named in the provenance."""
    args = list(SMALL) + ["--ladder-games", "0", "--priors-generations", "1"]
    fitted = lambda run, k: "priors" in json.load(open(os.path.join(base, run, "gen%d/tune.json" % k)))
    p = train(base, "pz", *args)
    ok = p.returncode == 0
    check("--priors-generations 1 from zero: exit 0", ok, p.stderr[-300:])
    promoted = ok and open(os.path.join(base, "pz/gen1/verdict")).read().startswith("promoted")
    check("from zero, gen 1 fits priors; gen 2 fits them only while the best has none",
          ok and fitted("pz", 1) and fitted("pz", 2) != promoted, p.stderr[-300:])
    settings = open(os.path.join(base, "pz/settings")).read() if ok else ""
    check("--priors-generations is in the settings", " priors-generations 1\n" in settings, settings)
    # from weights with priors every later best has some: gen 2 keeps them, whatever the gate
    start = os.path.join(base, "pz/gen1/weights.lwt")
    p = train(base, "pk", *[a if a != "zero" else start for a in args])
    ok = p.returncode == 0
    weights = open(os.path.join(base, "pk/gen2/weights.lwt"), "rb").read() if ok else b""
    check("after gen N the best's priors are kept (tune --no-priors)",
          ok and fitted("pk", 1) and not fitted("pk", 2) and b"--tables --no-priors" in weights and
          b"--priors-generations 1" in weights, p.stderr[-300:])
    p = train(base, "pk", *[a if a != "zero" else start for a in SMALL], "--ladder-games", "0", "--resume")
    check("--resume without the run's --priors-generations: exit 2", p.returncode == 2 and "fit" in p.stderr,
          p.stderr)
    p = train(base, "plin", *SMALL, "--linear-only", "--priors-generations", "2")
    check("--priors-generations with --linear-only: exit 2, one line", p.returncode == 2 and
          "--priors-generations" in p.stderr and p.stderr.count("\n") == 1, p.stderr)


def killed_run(base, options=SMALL, marks=("gen1/selfplay.lrec", "gen1/weights.lwt", "gen1/match.lrec",
                                           "gen2/selfplay.lrec", "gen2/tune.json", "ladder.txt")):
    """The same run as test_small_run's (or one of `options`), killed at several points and resumed
    each time."""
    marks = list(marks)
    run = os.path.join(base, "run")
    kills = 0
    for i, mark in enumerate(marks + [None]):
        args = [LEUCTRA, "train", "run", *options] + (["--resume"] if i else [])
        proc = subprocess.Popen(args, cwd=base, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        deadline = time.monotonic() + 300
        while mark and proc.poll() is None and time.monotonic() < deadline:
            if os.path.exists(os.path.join(run, mark)):
                proc.send_signal(signal.SIGKILL)
                kills += 1
                break
            time.sleep(0.01)
        err = proc.communicate(timeout=300)[1].decode()
        if proc.returncode not in (0, -signal.SIGKILL):
            check(f"resumed run {i} ends by itself or by the kill", False, (proc.returncode, err[-300:]))
            return run, kills
    return run, kills


def test_resume_after_kills(plain_base, base):
    run, kills = killed_run(base)
    check("the killed run was killed at least three times", kills >= 3, kills)
    differ = compare_folders(os.path.join(plain_base, "run"), run)
    check("after the kills and resumes, the same files as the run never stopped", not differ, differ[:8])


def test_resume_in_last_ladder(base):
    """A run killed inside its last generation's ladder (gen1's ladder wrote ladder.txt already)
    and resumed finishes that ladder: the same files as the run never stopped.  The ladder is
    longer than SMALL's so that the kill lands inside it; its games decide no verdict."""
    args = list(SMALL)
    args[args.index("--ladder-games") + 1] = "40"
    plain, killed = os.path.join(base, "plain"), os.path.join(base, "killed")
    os.makedirs(plain)
    p = train(plain, "run", *args)
    check("the plain run for the ladder's kill", p.returncode == 0, p.stderr[-300:])
    verdict = open(os.path.join(plain, "run/gen2/verdict")).read().strip() if p.returncode == 0 else ""
    check("its last generation is promoted (it has a ladder to kill)", verdict == "promoted", verdict)
    run = os.path.join(killed, "run")
    inside = False
    for _ in range(5):  # a loaded machine may let the ladder end before the kill: try again
        shutil.rmtree(killed, ignore_errors=True)
        os.makedirs(killed)
        proc = subprocess.Popen([LEUCTRA, "train", "run", *args], cwd=killed, stdout=subprocess.DEVNULL,
                                stderr=subprocess.DEVNULL)
        deadline = time.monotonic() + 300
        while proc.poll() is None and time.monotonic() < deadline:
            if os.path.exists(os.path.join(run, "ladder/gen2-gen0.lrec")):
                proc.send_signal(signal.SIGKILL)
                break
            time.sleep(0.002)
        proc.wait(timeout=300)
        if proc.returncode == -signal.SIGKILL and not os.path.exists(os.path.join(run, "ladder/gen2-shipped.txt")):
            inside = True
            break
    check("the run was killed inside gen2's ladder, with gen1's ladder.txt written",
          inside and os.path.exists(os.path.join(run, "ladder.txt")), "")
    p = train(killed, "run", *args, "--resume")
    check("the resumed run exits 0", p.returncode == 0, p.stderr[-300:])
    differ = compare_folders(os.path.join(plain, "run"), run)
    check("resumed inside the last ladder: the same files as the run never stopped", not differ, differ[:8])


def test_network_run(base):
    """--model net: each generation fits a network on top of gen0 (the skip path), from the best's
    network once there is one; killed and resumed, the same files as a run never stopped."""
    args = SMALL + ["--model", "net", "--hidden", "16"]
    plain, killed = os.path.join(base, "plain"), os.path.join(base, "killed")
    os.makedirs(plain)
    os.makedirs(killed)
    p = train(plain, "run", *args)
    check("a --model net run exits 0", p.returncode == 0, p.stderr[-500:])
    run = os.path.join(plain, "run")
    if p.returncode != 0:
        return
    settings = open(os.path.join(run, "settings")).read()
    check("the network is in the settings", "\nfit=net hidden 16 lambda 0.5\n" in settings, settings)
    reports = [json.load(open(os.path.join(run, f"gen{k}/tune.json"))) for k in (1, 2)]
    check("every fit is a network's of H 16", all(r["options"]["model"] == "net" and r["network"]["hidden"] == 16
                                                  for r in reports), [r["options"] for r in reports])
    promoted = open(os.path.join(run, "gen1/verdict")).read().strip() == "promoted"
    check("gen 2's fit goes on from gen 1's network where gen 1 was promoted, else starts from zero",
          reports[1]["network"]["start"] == ("network" if promoted else "zero"), reports[1]["network"]["start"])
    weights = open(os.path.join(run, "gen1/weights.lwt"), "rb").read()
    check("the weights' provenance names --model net", b"--model net --hidden 16" in weights and
          b"# command: leuctra tune --data gen1/selfplay.lrec --init gen0/weights.txt --out gen1/weights.lwt" in
          weights, "")
    stopped, kills = killed_run(killed, args, ("gen1/weights.lwt", "gen1/match.lrec", "gen2/selfplay.lrec",
                                               "gen2/weights.lwt"))
    check("the --model net run was killed at least twice", kills >= 2, kills)
    differ = compare_folders(run, stopped)
    check("--model net killed and resumed: the same files as the run never stopped", not differ, differ[:8])
    for extra, words in ((["--linear-only"], "takes no --linear-only"), (["--shapes", "2x4"], "takes no --shapes")):
        p = train(base, "refused", *args, *extra)
        check(f"--model net {' '.join(extra)}: exit 2, one line", p.returncode == 2 and words in p.stderr and
              p.stderr.count("\n") == 1, p.stderr)
    p = train(base, "refused", *SMALL, "--hidden", "16")
    check("--hidden without --model net: exit 2, one line", p.returncode == 2 and
          "--hidden is an option of --model net" in p.stderr and p.stderr.count("\n") == 1, p.stderr)
    p = train(base, "refused", *SMALL, "--value-head", "drop")
    check("--value-head without --model net: exit 2, one line", p.returncode == 2 and
          "--value-head is an option of --model net" in p.stderr and p.stderr.count("\n") == 1, p.stderr)
    one_generation = list(args)
    one_generation[one_generation.index("--generations") + 1] = "1"
    p = train(base, "priors-only", *one_generation, "--value-head", "drop")
    check("a --model net --value-head drop run exits 0", p.returncode == 0, p.stderr[-500:])
    if p.returncode == 0:
        run = os.path.join(base, "priors-only")
        settings = open(os.path.join(run, "settings")).read()
        report = json.load(open(os.path.join(run, "gen1/tune.json")))
        check("--value-head drop: in the settings, and gen 1's network gives priors only",
              "\nfit=net hidden 16 value-head drop lambda 0.5\n" in settings and
              report["network"]["value_head"] == "dropped", (settings, report["network"]["value_head"]))
    p = train(base, "refused", *SMALL, "--model", "net", "--hidden", "20")
    check("--hidden 20: exit 2, one line", p.returncode == 2 and "multiple of 16" in p.stderr, p.stderr)
    # the shipped Crossings weights carry a network of H 64: another width is refused at once,
    # before any self-play and without a folder, not at gen 1's fit
    p = train(base, "refused-width", "--variant", "crossings", "--start", "shipped", "--generations", "1", "--games",
              "4", "--visits", "10", "--quiet", "--model", "net", "--hidden", "32")
    check("--model net --hidden 32 from a start with a network of H 64: exit 2, one line, no folder",
          p.returncode == 2 and "--hidden 32: the start's network has H 64" in p.stderr and
          p.stderr.count("\n") == 1 and not os.path.exists(os.path.join(base, "refused-width")), p.stderr)


def test_new_run_needs_empty_folder(base, started):
    """A new run starts in a new or empty folder; one holding files it did not write is refused
    with one line, even with --resume when it holds no settings, and left as it was."""
    stray = os.path.join(base, "stray")
    os.makedirs(os.path.join(stray, "gen1"))
    for name in ("selfplay.lrec", "selfplay.done"):
        shutil.copy(os.path.join(started, "gen1", name), os.path.join(stray, "gen1", name))
    for extra in ([], ["--resume"]):
        p = train(base, "stray", *SMALL, *extra)
        check(f"a folder with stray step files and no settings{' (--resume)' if extra else ''}: exit 2, one line "
              "naming the folder and why", p.returncode == 2 and p.stderr.count("\n") == 1 and "stray" in p.stderr
              and "not empty" in p.stderr and "gen1" in p.stderr, p.stderr)
    check("... and left alone", sorted(os.listdir(stray)) == ["gen1"] and
          sorted(os.listdir(os.path.join(stray, "gen1"))) == ["selfplay.done", "selfplay.lrec"], os.listdir(stray))
    os.makedirs(os.path.join(base, "empty"))
    args = list(SMALL)
    args[args.index("--generations") + 1] = "1"
    p = train(base, "empty", *args, "--ladder-games", "0")
    check("a new run in an empty folder", p.returncode == 0 and
          os.path.exists(os.path.join(base, "empty/gen1/verdict")), p.stderr[-300:])


def test_settings_messages(base, started):
    """A settings file that is not a run's names its line and what was expected; one that is
    names the setting that differs with both values."""
    real = open(os.path.join(started, "settings")).read()
    lines = real.splitlines(keepends=True)
    cases = [
        ("variant=crossings\n", ["settings, line 1", "expected 'generator=", "got 'variant=crossings'"]),
        ("hello, world\n", ["settings, line 1", "expected 'generator=", "got 'hello, world'"]),
        ("", ["settings, line 1", "expected 'generator=", "the end of the file"]),
        ("".join(lines[:4] + lines[5:]), ["settings, line 5", "expected 'start_weights=", "got 'games=30'"]),
        (real + "extra=1\n", [f"settings, line {len(lines) + 1}", "expected the end of the file", "got 'extra=1'"]),
        (real.replace("seed=1\n", "seed=2\n"), ["(seed: the file has 2, this run 1)"]),
        (real.replace("variant=crossings", "variant=epaminondas"),
         ["(variant: the file has epaminondas, this run crossings)"]),
    ]
    for i, (text, words) in enumerate(cases):
        folder = os.path.join(base, f"settings{i}")
        os.makedirs(folder)
        open(os.path.join(folder, "settings"), "w").write(text)
        p = train(base, f"settings{i}", *SMALL, "--resume")
        check(f"settings file {text[:40]!r}...: exit 2, one line saying {words}", p.returncode == 2 and
              p.stderr.count("\n") == 1 and all(w in p.stderr for w in words), p.stderr)


def test_refusals(base):
    run = os.path.join(base, "run")
    p = train(base, "run", *SMALL)
    check("a started DIR without --resume: exit 2, one line", p.returncode == 2 and p.stderr.count("\n") == 1 and
          "--resume" in p.stderr, p.stderr)
    other = list(SMALL)
    other[other.index("--games") + 1] = "31"
    p = train(base, "run", *other, "--resume")
    check("--resume with other settings: exit 2, names the setting and both values", p.returncode == 2 and
          "(games: the file has 30, this run 31)" in p.stderr and p.stderr.count("\n") == 1, p.stderr)
    p = train(base, "fresh", "--variant", "crossings")
    check("no budget: exit 2", p.returncode == 2 and "budget" in p.stderr, p.stderr)
    p = train(base, "fresh", "--generations", "1", "--sprt", "elo0=5", "elo1=1")
    check("a bad --sprt: exit 2", p.returncode == 2 and "--sprt" in p.stderr, p.stderr)
    p = train(base, "--generations", "1")
    check("no DIR: exit 2", p.returncode == 2 and "DIR" in p.stderr, p.stderr)
    with open(os.path.join(run, "lock"), "a") as lock:
        fcntl.flock(lock, fcntl.LOCK_EX)
        p = train(base, "run", *SMALL, "--resume")
    check("a second run in the same folder: exit 2, one line", p.returncode == 2 and "another" in p.stderr and
          p.stderr.count("\n") == 1, p.stderr)
    p = subprocess.run([LEUCTRA, "train", "--help"], capture_output=True, text=True)
    check("train --help has an example", p.returncode == 0 and "example: leuctra train" in p.stdout, p.stderr)
    check("the refused runs left the run alone", os.path.exists(os.path.join(run, "gen3/verdict")), "")


def main():
    start = time.monotonic()
    top = tempfile.mkdtemp(prefix="leuctra-train-")
    try:
        plain, killed = os.path.join(top, "plain"), os.path.join(top, "killed")
        os.makedirs(plain)
        os.makedirs(killed)
        test_small_run(plain)
        # the comparison needs the plain run as it was after two generations: run it again apart
        again = os.path.join(top, "again")
        os.makedirs(again)
        p = train(again, "run", *SMALL)
        check("a second plain run", p.returncode == 0, p.stderr[-300:])
        test_resume_after_kills(again, killed)
        test_resume_in_last_ladder(os.path.join(top, "ladder"))
        test_new_run_needs_empty_folder(top, os.path.join(again, "run"))
        test_settings_messages(top, os.path.join(again, "run"))
        test_refusals(plain)
        test_window(plain)
        test_fit_options(plain)
        test_priors_generations(plain)
        test_network_run(os.path.join(top, "net"))
    finally:
        shutil.rmtree(top, ignore_errors=True)
    print(f"train tests took {time.monotonic() - start:.1f} s")
    return summary()


if __name__ == "__main__":
    sys.exit(main())
