#!/usr/bin/env python3
"""fake_engine.py - a deliberately broken engine for tests/cli/external_engine_test.py.

    LEUCTRA=build/leuctra FAKE_ENGINE_PIDFILE=FILE python3 tests/cli/fake_engine.py MODE

It passes every line to a real `LEUCTRA engine` and relays the replies, so it plays legal moves,
until its Nth `go` (N drawn from 1..3 per process), where it misbehaves by MODE:
    crash    exits at once with status 3, no bestmove
    hang     stops answering (sleeps until it is killed)
    illegal  answers "bestmove a1-a1"
    garbage  writes bytes that are not protocol text (a NUL, control bytes) and a garbled bestmove
    cycle    the Nth process started with this PIDFILE takes mode N mod 4 of the four above, so
             one match meets them all (each start of an interpreter costs a second on a busy
             machine, so the test runs one match, not four)
and two modes that misbehave at every `go` or only the first:
    overrun  sleeps FAKE_ENGINE_SLEEP seconds (default 2) before every search, then answers as
             the real engine does: far past a short clock, so the match must forfeit it on time
    error    answers its first `go` with "error go: cannot start the search thread" (a passing
             failure), the rest as the real engine does: the match must ask once more
    old      says `id protocol 1` and refuses a `go` on a clock as an engine from before
             protocol 2 would: the match must send it `go time T` instead
At start it appends its pid to FAKE_ENGINE_PIDFILE, and a line "zombie PID" for every zombie child
of its parent (the match), which must have reaped every engine it ended before starting this one.
"""
import os
import random
import subprocess
import sys
import time

TERMINATORS = {"leuctra": "leuctraok", "isready": "readyok", "go": "bestmove"}


def zombie_siblings(parent):
    """Pids of the parent's children that are zombies (from /proc/PID/stat)."""
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit():
            continue
        try:
            with open(f"/proc/{entry}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if fields[0] == "Z" and int(fields[1]) == parent:
            found.append(int(entry))
    return found


def misbehave(mode):
    out = sys.stdout.buffer
    if mode == "crash":
        os._exit(3)
    if mode == "hang":
        while True:
            time.sleep(3600)
    if mode == "illegal":
        out.write(b"info visits 1 treevisits 1 nodes 1 winprob 0.5000 time 0.001 vps 1 pv a1-a1\n")
        out.write(b"bestmove a1-a1\n")
    else:
        out.write(b"\x00\xff garbage \x07\x1b[2J\nbestmove \x01\x02\n")
    out.flush()


def relay(real, word, old=False):
    """Copies the real engine's lines to stdout up to the one starting with `word`."""
    for line in real.stdout:
        if old and line.startswith("id protocol "):
            line = "id protocol 1\n"
        sys.stdout.write(line)
        sys.stdout.flush()
        if line.split()[:1] == [word]:
            return


def main():
    mode, leuctra, pidfile = sys.argv[1], os.environ["LEUCTRA"], os.environ["FAKE_ENGINE_PIDFILE"]
    modes = ["crash", "hang", "illegal", "garbage"]
    with open(pidfile, "a+") as f:
        f.seek(0)
        started = sum(1 for line in f if line.strip().isdigit())
        if mode == "cycle":
            mode = modes[started % len(modes)]
        f.write(f"{os.getpid()}\n")
        for pid in zombie_siblings(os.getppid()):
            f.write(f"zombie {pid}\n")
    real = subprocess.Popen([leuctra, "engine"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    fail_at = random.Random(os.getpid()).randint(1, 3)
    goes = 0
    for line in sys.stdin:
        words = line.split()
        if not words:
            continue
        if words[0] == "go":
            goes += 1
            if mode == "overrun":
                time.sleep(float(os.environ.get("FAKE_ENGINE_SLEEP", "2")))
            elif mode == "old":
                if "wtime" in words:
                    sys.stdout.write("error go: expected 'go [visits N] [time SECONDS]'\n")
                    sys.stdout.flush()
                    continue
            elif mode == "error":
                if goes == 1:
                    sys.stdout.write("error go: cannot start the search thread\n")
                    sys.stdout.flush()
                    continue
            elif goes == fail_at:
                misbehave(mode)
                continue
        real.stdin.write(line)
        real.stdin.flush()
        if words[0] == "quit":
            break
        if words[0] in TERMINATORS:
            relay(real, TERMINATORS[words[0]], mode == "old")
    real.stdin.close()
    real.wait()


if __name__ == "__main__":
    main()
