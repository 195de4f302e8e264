#!/usr/bin/env python3
"""time_pairs.py - times a command against a baseline in alternating pairs, the way every speed
ratio in docs/BENCHMARKS.md is taken on a noisy machine: N rounds, each running B (the baseline)
then A, wall and CPU seconds of each whole process; it prints the medians, the minimum and maximum
of each, and the median of the rounds' ratios A/B (pair by pair, so a slow minute of the machine
falls on both sides of one ratio rather than on one side of the medians).

    scripts/time_pairs.py [-n N] [--timeout S] --vs 'BASELINE COMMAND' -- COMMAND [ARG...]

example: scripts/time_pairs.py -n 5 --vs '/tmp/old/leuctra perft 12 --variant reversi' -- \\
             build/leuctra perft 12 --variant reversi
"""
import argparse
import os
import shlex
import statistics
import subprocess
import sys
import time


def run_once(argv, timeout):
    """Runs argv with its output thrown away; returns (wall, cpu) seconds of the child."""
    before = os.times()
    start = time.monotonic()
    done = subprocess.run(argv, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL,
                          timeout=timeout, check=False)
    wall = time.monotonic() - start
    after = os.times()
    if done.returncode != 0:
        sys.exit(f"time_pairs: '{shlex.join(argv)}' exited with {done.returncode}")
    cpu = (after.children_user - before.children_user) + \
          (after.children_system - before.children_system)
    return wall, cpu


def summary(label, values):
    return (f"{label} median {statistics.median(values):.3f} "
            f"min {min(values):.3f} max {max(values):.3f}")


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                     formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("-n", type=int, default=5, help="rounds (default 5)")
    parser.add_argument("--timeout", type=float, default=3600, help="seconds a run at most")
    parser.add_argument("--vs", required=True, help="the baseline command, one shell-quoted string")
    parser.add_argument("command", nargs=argparse.REMAINDER)
    args = parser.parse_args()
    command = args.command[1:] if args.command[:1] == ["--"] else args.command
    if not command or args.n < 1:
        parser.error("a command after '--' and -n of at least 1 are needed")
    baseline = shlex.split(args.vs)
    times = {"A": {"wall": [], "cpu": []}, "B": {"wall": [], "cpu": []}}
    for _ in range(args.n):
        for side, argv in (("B", baseline), ("A", command)):
            wall, cpu = run_once(argv, args.timeout)
            times[side]["wall"].append(wall)
            times[side]["cpu"].append(cpu)
    for side in ("A", "B"):
        for kind in ("wall", "cpu"):
            print(summary(f"{side} {kind} s", times[side][kind]))
    for kind in ("wall", "cpu"):
        ratios = [a / b for a, b in zip(times["A"][kind], times["B"][kind]) if b > 0]
        if ratios:
            print(summary(f"A/B {kind}", ratios))


if __name__ == "__main__":
    main()
