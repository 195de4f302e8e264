#!/usr/bin/env python3
"""selfplay_test.py - tests of `leuctra selfplay`: one seed gives one file byte for byte whatever
the thread count; a run killed with SIGKILL at random moments leaves only whole games (plus at
most a cut-off last chunk) and --resume completes it to the very file an uninterrupted run
writes; --resume of a complete file changes nothing, of a damaged or foreign file is refused;
settings are recorded and checked; bad options exit 2 with one line; the progress line appears
on a terminal only.

    LEUCTRA=build/leuctra python3 tests/cli/selfplay_test.py

Small boards and few visits keep it to seconds (a run is a fraction of a second optimised, a few
seconds under the sanitizers); kill moments are drawn relative to the measured length of an
uninterrupted run, so a slow machine shifts them and nothing else.  Prints one line per failed
check ("FAIL what: ..."), ends with "N passed, N failed" and exits non-zero on any failure.
"""
import json
import os
import pty
import random
import re
import select
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

# A run of two canonical chunks (about 45 KB), a fraction of a second optimised.
RUN = ["--variant", "crossings", "--visits", "60", "--games", "40", "--seed", "11"]
SMALL = ["--size", "5x6", "--visits", "20", "--games", "6"]
KILLS = 5
RUN_TIMEOUT = 300



def leuctra(*args):
    """Runs leuctra; returns (exit status, stdout, stderr)."""
    p = subprocess.run([LEUCTRA, *args], capture_output=True, text=True, timeout=RUN_TIMEOUT)
    return p.returncode, p.stdout, p.stderr


def selfplay_ok(what, *args):
    rc, out, err = leuctra("selfplay", *args)
    check(f"{what}: exit 0, nothing on stderr", rc == 0 and err == "", f"exit {rc}, stderr {err!r}")
    return out


def same_bytes(a, b):
    with open(a, "rb") as fa, open(b, "rb") as fb:
        return fa.read() == fb.read()


def dump_lines(path):
    """The games of a file as `records dump` lines, and whether the dump reached the end."""
    rc, out, _ = leuctra("records", "dump", path, "--values", "--visits")
    return [line for line in out.splitlines() if line.startswith("game=")], rc == 0


def chunk_offsets(path):
    """Offsets of the chunks of a records file (docs/FORMAT.md: header, then LRCK chunks)."""
    with open(path, "rb") as f:
        data = f.read()
    body = int.from_bytes(data[12:16], "little")
    offsets, at = [], 16 + body + 4
    while at + 32 <= len(data) and data[at:at + 4] == b"LRCK":
        offsets.append(at)
        at += 32 + int.from_bytes(data[at + 4:at + 8], "little")
    return offsets


def flip_byte(path, offset):
    with open(path, "r+b") as f:
        f.seek(offset)
        b = f.read(1)
        f.seek(offset)
        f.write(bytes([b[0] ^ 0x55]))


# --- tests ---------------------------------------------------------------------------------------

def test_threads_give_one_file(tmp):
    """1 and 2 threads, one seed: identical bytes; another seed: other games.  Returns the
    reference file and the seconds an uninterrupted 2-thread run took."""
    one, two, other = (os.path.join(tmp, n) for n in ("one.lrec", "two.lrec", "other.lrec"))
    selfplay_ok("1 thread", *RUN, "--threads", "1", "--out", one, "--quiet")
    start = time.monotonic()
    selfplay_ok("2 threads", *RUN, "--threads", "2", "--out", two, "--quiet")
    seconds = time.monotonic() - start
    check("1 and 2 threads write the same bytes", same_bytes(one, two))
    selfplay_ok("another seed", *RUN, "--seed", "12", "--threads", "2", "--out", other, "--quiet")
    check("another seed plays other games", not same_bytes(one, other))
    rc, out, err = leuctra("records", "verify", one)
    check("the file verifies", rc == 0 and ": ok, 40 games" in out, out + err)
    check("the canonical file has several chunks (for the damage test)", len(chunk_offsets(one)) >= 2,
          chunk_offsets(one))
    games, whole = dump_lines(one)
    check("dump reads 40 games", whole and len(games) == 40, len(games))
    indices = [int(g.split()[0][5:]) for g in games]
    check("games sorted by index", indices == list(range(40)), indices[:10])
    check("every ply has a value and a visit list",
          all("{- " not in g and " n=0}" not in g for g in games), games[0][:200])
    # The root counts its own first visit, and visits that ended at it (a repetition draw while it
    # was deeper in the tree) reached no child: the listed visits add up to less than the total.
    lists = [(int(m.group(1)), sum(int(v.rsplit(":", 1)[1]) for v in m.group(2).split(";")))
             for g in games for m in re.finditer(r"n=(\d+) ([^}]*)\}", g)]
    check("visit lists: every ply, each summing to less than its total",
          len(lists) == sum(int(g.split(" plies=")[1].split()[0]) for g in games) and
          all(0 < listed < total for total, listed in lists), lists[:5])
    return one, seconds


def test_settings_recorded(tmp, reference):
    rc, out, _ = leuctra("records", "info", reference)
    for text in ("variant=crossings", "visits=60", "seed=11", "temperature=1", "noise=0.25", "max_plies=600",
                 "repetition=on", "weights=", "command=leuctra selfplay --variant crossings --visits 60 --seed 11"):
        check(f"settings hold {text}", text in out, out[-600:])
    for text in ("threads 1", "--out", "--games", "--quiet", tmp):
        check(f"settings omit {text}", text not in out.split("settings", 1)[-1], out[-600:])


def verify_killed(what, path, reference_games):
    """A killed run's file: every game whole and one of the reference's; damage only at the end."""
    if not os.path.exists(path):
        return
    rc, out, err = leuctra("records", "verify", path)
    damage = [line for line in out.splitlines() if "offset" in line]
    check(f"{what}: verify runs", rc in (0, 1) and err == "", f"exit {rc} {err!r}")
    check(f"{what}: damage is at most a cut-off last chunk",
          len(damage) <= 1 and all("truncated chunk" in d for d in damage), damage)
    games, _ = dump_lines(path)
    strangers = [g for g in games if g not in reference_games]
    check(f"{what}: every game in the file is whole and the same as in an uninterrupted run", not strangers,
          strangers[:1])


def test_kill_and_resume(tmp, reference, seconds):
    path = os.path.join(tmp, "killed.lrec")
    reference_games = set(dump_lines(reference)[0])
    rng = random.Random()
    seed = rng.randrange(1 << 30)
    rng.seed(seed)
    interrupted = 0
    for k in range(KILLS):
        args = [LEUCTRA, "selfplay", *RUN, "--threads", "2", "--out", path, "--quiet"]
        if k > 0:
            args.append("--resume")
        proc = subprocess.Popen(args, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        time.sleep(rng.uniform(0.05, 0.7) * seconds)
        if proc.poll() is None:
            interrupted += 1
            proc.send_signal(signal.SIGKILL)
        proc.wait(timeout=RUN_TIMEOUT)
        err = proc.stderr.read().decode()
        proc.stderr.close()
        check(f"kill {k}: no message before the kill", err == "", err)
        verify_killed(f"kill {k} (random seed {seed})", path, reference_games)
    check(f"at least one kill interrupted a run (random seed {seed})", interrupted > 0, interrupted)
    selfplay_ok("resume after kills", *RUN, "--threads", "2", "--out", path, "--resume", "--quiet")
    check(f"resumed file is byte-identical to an uninterrupted run (random seed {seed})",
          same_bytes(path, reference))


def test_resume_extends(tmp, reference):
    path = os.path.join(tmp, "extended.lrec")
    first = [a if a != "40" else "15" for a in RUN]
    selfplay_ok("15 games", *first, "--threads", "2", "--out", path, "--quiet")
    out = selfplay_ok("resume to 40 games", *RUN, "--threads", "1", "--out", path, "--resume")
    check("resume plays only the missing games", "40 games (25 played now, 15 were there)" in out, out)
    check("a run extended by --resume equals a direct run", same_bytes(path, reference))


def test_resume_complete_and_refusals(tmp, reference):
    path = os.path.join(tmp, "complete.lrec")
    shutil.copyfile(reference, path)
    out = selfplay_ok("resume a complete file", *RUN, "--out", path, "--resume")
    check("resume of a complete file plays nothing", "(0 played now, 40 were there)" in out, out)
    check("resume of a complete file leaves its bytes", same_bytes(path, reference))
    # a run killed during its final rewrite leaves PATH.tmp.XXXXXX: the completing run removes it
    stale = path + ".tmp.Ab12Cd"
    with open(stale, "wb") as f:
        f.write(open(reference, "rb").read()[:1000])
    out = selfplay_ok("resume beside a stale temporary file", *RUN, "--out", path, "--resume")
    check("resume removes a killed rewrite's temporary file and says so",
          not os.path.exists(stale) and "resume removed 1 temporary file" in out, out)

    def refused(what, status, keyword, *args):
        rc, out, err = leuctra("selfplay", *args)
        check(f"{what}: exit {status}, one line on stderr naming '{keyword}', nothing on stdout",
              rc == status and out == "" and err.count("\n") == 1 and keyword in err.lower(),
              f"exit {rc}, stdout {out!r}, stderr {err!r}")

    refused("existing file without --resume", 2, "already exists", *RUN, "--out", path)
    check("the refused run left the file alone", same_bytes(path, reference))
    refused("resume with other settings", 2, "visits: the file has 60, this run 61",
            *[a if a != "60" else "61" for a in RUN], "--out", path, "--resume")
    refused("resume on another board", 2, "holds crossings games", *RUN, "--size", "8x9", "--out", path, "--resume")
    damaged = os.path.join(tmp, "damaged.lrec")
    shutil.copyfile(reference, damaged)
    flip_byte(damaged, chunk_offsets(damaged)[0] + 40)
    refused("resume of a file damaged before its last chunk", 1, "crc mismatch", *RUN, "--out", damaged, "--resume")
    rc, out, _ = leuctra("records", "verify", damaged)
    check("the damaged file was left as it was", rc == 1 and "DAMAGED" in out, out)
    header = os.path.join(tmp, "header.lrec")
    shutil.copyfile(reference, header)
    flip_byte(header, 20)
    refused("resume of a file with a damaged header", 1, "damaged file header", *RUN, "--out", header, "--resume")
    foreign = os.path.join(tmp, "foreign.lrec")
    with open(foreign, "w") as f:
        f.write("not a records file\n")
    refused("resume of a foreign file", 2, "not a leuctra records file", *RUN, "--out", foreign, "--resume")
    weights = os.path.join(tmp, "own-weights.txt")
    shutil.copyfile(os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "data", "weights", "crossings.txt"),
                    weights)
    kept = open(weights, "rb").read()
    refused("--out the --weights file", 2, "same file", *RUN, "--weights", weights, "--out", weights)
    refused("--out the --weights file, resumed", 2, "same file", *RUN, "--weights", weights, "--out", weights, "--resume")
    check("the weights were left as they were", open(weights, "rb").read() == kept)


def test_random_opening_and_missing_file(tmp):
    path = os.path.join(tmp, "opening.lrec")
    out = selfplay_ok("--resume of a missing file creates it", *SMALL, "--random-opening", "3", "--out", path,
                      "--resume")
    check("summary names games, results, length, positions, rate",
          all(t in out for t in ("6 games", "results: white", "mean length", "positions", "games/hour")), out)
    games, whole = dump_lines(path)
    plies = [g.split(" moves: ", 1)[1].split("} ") for g in games]
    check("random-opening plies carry no search", whole and all(
        all(p.endswith("{- n=0") for p in g[:3]) and "{- n=0" not in g[3] for g in plies if len(g) > 3),
        games[:1])


def test_igfip(tmp):
    """Igfip self-play: one file for any thread count, and the draw by the rules recorded as such."""
    run = ["--variant", "igfip", "--size", "8x8", "--visits", "30", "--games", "20", "--seed", "3"]
    one, two = os.path.join(tmp, "igfip1.lrec"), os.path.join(tmp, "igfip2.lrec")
    selfplay_ok("igfip, 1 thread", *run, "--threads", "1", "--out", one)
    selfplay_ok("igfip, 2 threads", *run, "--threads", "2", "--out", two)
    check("igfip: the same file with 1 and 2 threads", same_bytes(one, two))
    rc, out, err = leuctra("records", "info", one, "--json")
    info = json.loads(out)["files"][0] if rc == 0 else {}
    check("igfip records: variant and board", info.get("variant") == "igfip" and info.get("width") == 8, err)
    drawn = os.path.join(tmp, "igfip-draw.lrec")
    selfplay_ok("igfip from a drawn-in-one position", "--variant", "igfip", "--position", "W2/1W1/3/3/B1B w",
                "--games", "3", "--visits", "20", "--out", drawn)
    games, whole = dump_lines(drawn)
    check("igfip: the last free stone crosses, a draw by the rules",
          whole and len(games) == 3 and all("result=draw end=rules plies=1 " in g for g in games), games)


def test_reversi_solved_endgames(tmp):
    """Reversi self-play with the endgame solver in the search (leaves, and a root at 18 empties
    or fewer, which plays the solver's move without visits): complete games, one file for any
    thread count, the solved plies recorded without a visit list."""
    run = ["--variant", "reversi", "--visits", "60", "--games", "16", "--seed", "4"]
    one, two = os.path.join(tmp, "reversi1.lrec"), os.path.join(tmp, "reversi2.lrec")
    selfplay_ok("reversi, 1 thread", *run, "--threads", "1", "--out", one, "--quiet")
    selfplay_ok("reversi, 2 threads", *run, "--threads", "2", "--out", two, "--quiet")
    check("reversi: the same file with 1 and 2 threads", same_bytes(one, two))
    rc, out, err = leuctra("records", "dump", one, "--visits")
    games = out.splitlines() if rc == 0 else []
    check("reversi: every game to its end", len(games) == 16 and all("end=rules" in g for g in games), err)
    # A solved ply has no visit list: its visits part is {n=N} with no moves.
    solved = sum(len(re.findall(r"\{n=\d+\}", g)) for g in games)
    check("reversi: solved plies without visit lists", solved > 0, games[:1])


def test_progress_line(tmp):
    """On a terminal: the live line; in a pipe: nothing on stderr."""
    path = os.path.join(tmp, "progress.lrec")
    master, slave = pty.openpty()
    proc = subprocess.Popen([LEUCTRA, "selfplay", *SMALL, "--out", path], stdout=subprocess.PIPE, stderr=slave)
    os.close(slave)
    seen = b""
    while True:
        ready, _, _ = select.select([master], [], [], RUN_TIMEOUT)
        if not ready:
            break
        try:
            chunk = os.read(master, 4096)
        except OSError:     # the terminal closes when the process exits
            break
        if not chunk:
            break
        seen += chunk
    proc.wait(timeout=RUN_TIMEOUT)
    proc.stdout.close()
    os.close(master)
    text = seen.decode(errors="replace")
    check("progress line on a terminal", all(t in text for t in ("6/6 games", "games/s", "white", "draws", "ETA")),
          text)
    quiet = os.path.join(tmp, "quiet.lrec")
    rc, out, err = leuctra("selfplay", *SMALL, "--out", quiet)
    check("no progress line in a pipe; summary on stdout", rc == 0 and err == "" and "6 games" in out, err)
    rc, out, err = leuctra("selfplay", *SMALL, "--out", quiet + "2", "--quiet")
    check("--quiet: nothing at all", rc == 0 and out == "" and err == "", out + err)


def test_bad_options(tmp):
    out = os.path.join(tmp, "bad.lrec")
    cases = [
        [*SMALL],                                           # no --out
        ["--out", out],                                     # no --games
        [*SMALL, "--out", out, "--games", "0"],
        [*SMALL, "--out", out, "--games", "x"],
        [*SMALL, "--out", out, "--threads", "0"],
        [*SMALL, "--out", out, "--visits", "0"],
        [*SMALL, "--out", out, "--temperature", "-1"],
        [*SMALL, "--out", out, "--temperature", "nan"],
        [*SMALL, "--out", out, "--noise", "2"],
        [*SMALL, "--out", out, "--noise-alpha", "0"],
        [*SMALL, "--out", out, "--random-opening", "-3"],
        [*SMALL, "--out", out, "--max-plies", "1.5"],
        [*SMALL, "--out", out, "--seed", "-1"],
        [*SMALL, "--out", out, "--bogus"],
        [*SMALL, "--out", out, "--variant", "chess"],
        [*SMALL, "--out", out, "--size", "2x2"],
        [*SMALL, "--out", out, "--position", "W4/5 w"],
        [*SMALL, "--out", out, "--weights", os.path.join(tmp, "missing.txt")],
        [*SMALL, "--out"],                                  # option without its value
        [*SMALL, "--out", out, "extra"],
    ]
    for args in cases:
        rc, stdout, stderr = leuctra("selfplay", *args)
        check(f"selfplay {' '.join(args)}: exit 2, one line on stderr, nothing on stdout",
              rc == 2 and stdout == "" and stderr.count("\n") == 1 and stderr.startswith("leuctra selfplay: "),
              f"exit {rc}, stdout {stdout!r}, stderr {stderr!r}")
    check("no file made by bad options", not os.path.exists(out))
    rc, stdout, _ = leuctra("selfplay", "--help")
    check("--help: exit 0 with an example", rc == 0 and "example: leuctra selfplay" in stdout, stdout[-200:])


def main():
    tmp = tempfile.mkdtemp(prefix="selfplay_test.")
    try:
        reference, seconds = test_threads_give_one_file(tmp)
        test_settings_recorded(tmp, reference)
        test_kill_and_resume(tmp, reference, seconds)
        test_resume_extends(tmp, reference)
        test_resume_complete_and_refusals(tmp, reference)
        test_random_opening_and_missing_file(tmp)
        test_igfip(tmp)
        test_reversi_solved_endgames(tmp)
        test_progress_line(tmp)
        test_bad_options(tmp)
    except Exception as e:  # a crash of the test itself counts, and the summary line still comes
        check("the test ran to its end", False, repr(e))
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
