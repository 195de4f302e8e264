#!/usr/bin/env python3
"""bench_python.py - what a call through the Python package costs: positions per second of
random games played with legal_moves() + play(move) (notation strings), with legal_actions() +
play(action), and with planes() + legal_mask() besides (the network's inputs), per variant, per
CPU second of this process.

    PYTHONPATH=python python3 scripts/bench_python.py [--seconds 3]"""
import argparse
import os
import random
import sys
import time

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import leuctra  # noqa: E402


def rate(variant, seconds, step):
    rng = random.Random(1)
    positions, start = 0, time.process_time()     # CPU seconds: the machine may be shared
    while time.process_time() - start < seconds:
        g = leuctra.Game(variant)
        for _ in range(600):
            if not step(g, rng):
                break
            positions += 1
    return positions / (time.process_time() - start)


def by_moves(g, rng):
    moves = g.legal_moves()
    if not moves:
        return False
    g.play(rng.choice(moves))
    return True


def by_actions(g, rng):
    actions = g.legal_actions()
    if not actions:
        return False
    g.play(rng.choice(actions))
    return True


def with_tensors(g, rng):
    g.planes()
    g.legal_mask()
    return by_actions(g, rng)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    args = ap.parse_args()
    print("python %s, numpy %s, library %s" % (sys.version.split()[0], "yes" if leuctra.game.numpy else "no",
                                               leuctra.library_path))
    print("%-12s %22s %24s %28s" % ("variant", "legal_moves()+play()", "legal_actions()+play(a)",
                                    "+ planes() + legal_mask()"))
    for variant in ("epaminondas", "crossings", "reversi"):
        print("%-12s %17.0f pos/s %19.0f pos/s %23.0f pos/s" % (
            variant, rate(variant, args.seconds, by_moves), rate(variant, args.seconds, by_actions),
            rate(variant, args.seconds, with_tensors)), flush=True)


if __name__ == "__main__":
    main()
