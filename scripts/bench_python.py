#!/usr/bin/env python3
"""bench_python.py - what a call through the Python package costs: positions per second of
random games played with legal_moves() + play(move) (notation strings), with legal_actions() +
play(action), and with planes() + legal_mask() besides (the network's inputs), per variant, per
CPU second of this process; then leuctra.VecGame, N games stepped per call with random legal
actions chosen by numpy from the legal lists, the planes and legal masks returned: steps per
wall second on 1 thread and on T, against the per-position path (legal_moves() + play(move));
then leuctra.search guided by a trivial numpy evaluator (every value 0.5, uniform scores) at
batches of 1, 16 and 256 leaves: leaves per wall second and the share of the time spent in
Python (inside the callback: the copies of the leaves, evaluate, the checks of its answer),
beside the same search with leuctra's own evaluation through the callback and leuctra's own C
search (Game.analyze) on one thread.

    PYTHONPATH=python python3 scripts/bench_python.py [--seconds 3] [--games 1024] [--threads 2]
        [--vec-only | --search-only] [--search-games 256] [--search-visits 64]"""
import argparse
import os
import random
import sys
import time

try:
    import numpy
except ImportError:     # the per-position figures need none; VecGame does
    numpy = None

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


def vec_rate(variant, seconds, games, threads):
    """Steps per wall second and per CPU second of VecGame: random legal actions chosen by numpy
    from the legal lists, planes and masks returned."""
    env = leuctra.VecGame(variant, games, seed=1, threads=threads)
    rng = numpy.random.default_rng(1)
    obs = env.reset()
    for _ in range(20):                 # warm: the games' histories grow, the threads start
        obs = env.step(obs.legal[obs.legal_start + (rng.random(games) * obs.legal_count).astype(numpy.int64)])
    steps, wall, cpu = 0, time.perf_counter(), time.process_time()
    while time.perf_counter() - wall < seconds:
        pick = (rng.random(games) * obs.legal_count).astype(numpy.int64)
        obs = env.step(obs.legal[obs.legal_start + pick])
        steps += games
    wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    env.close()
    return steps / wall, steps / cpu


def trivial(planes, legal_start, legal):
    """The cheapest evaluate: what remains is the search and the callback's own cost."""
    return numpy.full(len(planes), 0.5), numpy.ones(len(legal), numpy.float32)


def search_rate(variant, games, visits, batch, evaluate, seconds):
    """Leaves per wall second of leuctra.search over `games` games (each a few random plies from
    the start), and the share of the time inside the Python callback."""
    rng = random.Random(2)
    boards = []
    for _ in range(games):
        g = leuctra.Game(variant)
        for _ in range(rng.randrange(0, 6)):
            g.play(rng.choice(g.legal_actions()))
        boards.append(g)
    leaves, python, wall, seed = 0, 0.0, 0.0, 1
    while wall < seconds:
        stats = {}
        leuctra.search(boards, evaluate, visits=visits, batch=batch, seed=seed, stats=stats)
        leaves, python, wall, seed = leaves + stats["leaves"], python + stats["python_seconds"], \
            wall + stats["seconds"], seed + 1
    for g in boards:
        g.close()
    return leaves / wall, python / wall


def c_search_rate(variant, visits, seconds):
    """Visits per wall second of leuctra's own search (Game.analyze, one thread) at these visits."""
    g = leuctra.Game(variant)
    done, start = 0, time.perf_counter()
    while time.perf_counter() - start < seconds:
        done += g.analyze(visits=visits, seed=done + 1)["visits"]
    return done / (time.perf_counter() - start)


def bench_search(args):
    print("leuctra.search guided by Python, %d games x %d visits a call, one thread (leaves/s wall; share of "
          "the time in Python):" % (args.search_games, args.search_visits))
    print("%-12s %24s %24s %24s %22s %20s" % ("variant", "trivial, batch 1", "trivial, batch 16", "trivial, batch 256",
                                              "own eval., batch 256", "C search alone"))
    for variant in ("crossings", "epaminondas"):
        cells = []
        for batch, evaluate in ((1, trivial), (16, trivial), (256, trivial), (256, leuctra.own_evaluation)):
            leaves, share = search_rate(variant, args.search_games, args.search_visits, batch, evaluate, args.seconds)
            cells.append("%9.0f (%4.0f%% py)" % (leaves, 100 * share))
        print("%-12s %24s %24s %24s %22s %14.0f vis/s" % ((variant,) + tuple(cells) +
                                                          (c_search_rate(variant, args.search_visits, args.seconds),)),
              flush=True)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seconds", type=float, default=3.0)
    ap.add_argument("--games", type=int, default=1024, help="VecGame's games (default 1024)")
    ap.add_argument("--threads", type=int, default=2, help="VecGame's threads beside one (default 2)")
    ap.add_argument("--vec-only", action="store_true", help="VecGame and the legal_moves() + play() path only")
    ap.add_argument("--search-only", action="store_true", help="leuctra.search guided by Python only")
    ap.add_argument("--search-games", type=int, default=256, help="games a search covers (default 256)")
    ap.add_argument("--search-visits", type=int, default=64, help="visits of each game's search (default 64)")
    args = ap.parse_args()
    print("python %s, numpy %s, library %s" % (sys.version.split()[0], "yes" if leuctra.game.numpy else "no",
                                               leuctra.library_path))
    if args.search_only:
        return bench_search(args) if numpy is not None else print("skipped: no numpy for %s" % sys.executable)
    per_position = {}
    if not args.vec_only:
        print("%-12s %22s %24s %28s" % ("variant", "legal_moves()+play()", "legal_actions()+play(a)",
                                        "+ planes() + legal_mask()"))
    for variant in ("epaminondas", "crossings", "reversi"):
        per_position[variant] = rate(variant, args.seconds, by_moves)
        if not args.vec_only:
            print("%-12s %17.0f pos/s %19.0f pos/s %23.0f pos/s" % (
                variant, per_position[variant], rate(variant, args.seconds, by_actions),
                rate(variant, args.seconds, with_tensors)), flush=True)
    if numpy is None:
        print("skipped VecGame: no numpy for %s" % sys.executable)
        return
    print("VecGame, %d games, random legal actions by numpy, planes + masks returned (steps/s wall; per CPU s):"
          % args.games)
    print("%-12s %24s %24s %16s %22s" % ("variant", "1 thread", "%d threads" % args.threads, "vs legal_moves()",
                                         "legal_moves()+play()"))
    for variant in ("crossings", "epaminondas", "reversi"):
        one = vec_rate(variant, args.seconds, args.games, 1)
        many = vec_rate(variant, args.seconds, args.games, args.threads)
        print("%-12s %10.0f (%9.0f cpu) %10.0f (%9.0f cpu) %15.1fx %16.0f pos/s" % (
            variant, one[0], one[1], many[0], many[1], many[0] / per_position[variant], per_position[variant]),
            flush=True)
    if not args.vec_only:
        bench_search(args)


if __name__ == "__main__":
    main()
