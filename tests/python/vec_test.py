#!/usr/bin/env python3
"""vec_test.py - leuctra.VecGame, the batched games (python/leuctra/vec.py over the lt_vec_*
calls of api/leuctra_api.h).

Random play through VecGame against the same moves through leuctra.Game, position by position:
planes, legal masks and lists, side to move; every game's end (the rules, a third occurrence,
the ply limit) against an independent replay of the self-play driver's adjudication, with its
result, reward and length; the automatic reset.  Then an illegal action refused with nothing
played, the same games on 1, 2 and 3 threads, opponents (random, greedy, MCTS) that move inside
the step and only legally, random openings, reset(seed), the arrays' life, and refused arguments.

    LEUCTRA_LIB=$PWD/build/libleuctra.so python3 tests/python/vec_test.py

Needs numpy (says "skip" without it).  Ends with "N passed, N failed" (tests/run.sh adds it up)."""
import os
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # tests/checks.py
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):  # tests/python/venv_test.sh: the installed package
    sys.path.insert(0, os.path.join(ROOT, "python"))
from checks import check, summary  # noqa: E402

try:
    import numpy as np
    import leuctra
except ImportError as e:
    print("skip: %s" % e)
    sys.exit(summary())

RESULT = {"white-wins": 1, "black-wins": 2, "draw": 3}


def random_actions(obs, rng):
    pick = (rng.random(len(obs.legal_count)) * obs.legal_count).astype(np.int64)
    return obs.legal[obs.legal_start + pick]


def raised(f, *args, **kw):
    try:
        f(*args, **kw)
    except Exception as e:
        return type(e).__name__, str(e)
    return None, ""


class Replay:
    """One game replayed through leuctra.Game, with the driver's adjudication done here again
    (selfplay/driver.c): the rules once the mover has no move, a position's third occurrence,
    the ply limit."""

    def __init__(self, variant, size, max_plies, repetition):
        self.variant, self.size, self.max_plies, self.repetition = variant, size, max_plies, repetition
        self.begin()

    def begin(self):
        self.g = leuctra.Game(self.variant, size=self.size)
        self.seen = [self.g.position()]

    def play(self, action):
        """Plays the action; the game's end as (result, reason) codes, or (0, 0)."""
        self.g.play(int(action))
        self.seen.append(self.g.position())
        plies = len(self.seen) - 1
        if not self.g.legal_actions():
            return RESULT[self.g.status()], 1
        if self.repetition and self.seen.count(self.seen[-1]) >= 3:
            return 3, 2
        if plies >= self.max_plies:
            return 3, 3
        return 0, 0


def same_observation(obs, i, game, plies):
    g = game
    legal = obs.legal[obs.legal_start[i]:obs.legal_start[i] + obs.legal_count[i]]
    return (np.array_equal(obs.planes[i], g.planes()) and np.array_equal(obs.mask[i], g.legal_mask()) and
            legal.tolist() == g.legal_actions() and obs.side[i] == "wb".index(g.side_to_move()) and
            obs.plies[i] == plies)


def test_agreement(variant, size, n, steps, max_plies, repetition=True, seed=1):
    env = leuctra.VecGame(variant, n, size=size, seed=seed, threads=2, max_plies=max_plies, repetition=repetition)
    replays = [Replay(variant, size, max_plies, repetition) for _ in range(n)]
    rng = np.random.default_rng(seed)
    obs = env.observe()
    bad, ends, reasons = [], 0, set()
    for step in range(steps):
        for i, r in enumerate(replays):
            if not same_observation(obs, i, r.g, len(r.seen) - 1):
                bad.append("step %d game %d: observation differs from Game at %s" % (step, i, r.g.position()))
        actions = random_actions(obs, rng)
        obs = env.step(actions)
        for i, r in enumerate(replays):
            result, reason = r.play(actions[i])
            white = {1: 1.0, 2: -1.0}.get(result, 0.0)
            got = (bool(obs.done[i]), int(obs.result[i]), int(obs.reason[i]), obs.reward[i].tolist())
            want = (reason != 0, result, reason, [white, -white if white else 0.0])
            if got != want or obs.length[i] != (len(r.seen) - 1 if reason else 0):
                bad.append("step %d game %d: end %s, Game's %s (length %d, %d)" % (step, i, got, want, obs.length[i],
                                                                                  len(r.seen) - 1))
            if reason:
                ends += 1
                reasons.add(reason)
                r.begin()
        if len(bad) > 3:
            break
    check("%s %s: %d games, %d steps through VecGame agree with Game (planes, mask, legal list, side, plies, "
          "each end, result, reward, the new game after it)" % (variant, size or "default", n, steps), not bad, bad[:3])
    env.close()
    return ends, reasons


def test_agreements():
    ends, reasons = test_agreement("crossings", "5x5", 12, 120, max_plies=40)
    check("crossings 5x5: games ended by the rules and by the ply limit", ends > 12 and {1, 3} <= reasons,
          (ends, reasons))
    ends, reasons = test_agreement("reversi", None, 6, 130, max_plies=600)
    check("reversi: games ended by the rules (passes included)", ends >= 6 and reasons == {1}, (ends, reasons))
    test_agreement("epaminondas", None, 3, 60, max_plies=600)       # ~190 legal actions: the legal list grows
    test_agreement("epaminondas", "6x6", 8, 100, max_plies=50)
    test_agreement("igfip", "6x7", 8, 100, max_plies=50)
    test_agreement("crossings", None, 4, 80, max_plies=600, repetition=False)


def test_repetition():
    """A stone to and fro on each side: the start comes a third time at ply 8, a draw by
    repetition; with repetition=False the game goes on."""
    g = leuctra.Game("crossings")
    cycle = []
    for m in ("a2-a3", "a7-a6", "a3-a2", "a6-a7"):
        cycle.append(g.action_of(m))
        g.play(m)
    for repetition in (True, False):
        env = leuctra.VecGame("crossings", 2, repetition=repetition)
        ended = []
        for k in range(8):
            obs = env.step(np.array([cycle[k % 4]] * 2))
            ended.append(bool(obs.done[0]))
        if repetition:
            check("a third occurrence of the start at ply 8 ends the game: a draw by repetition, rewards 0",
                  ended == [False] * 7 + [True] and obs.reason.tolist() == [2, 2] and obs.result.tolist() == [3, 3]
                  and obs.length.tolist() == [8, 8] and not obs.reward.any() and leuctra.END_REASONS[2] == "repetition",
                  (ended, obs.reason, obs.length))
            check("after the repetition the games begin again", obs.plies.tolist() == [0, 0] and
                  env.position(0) == leuctra.Game("crossings").position(), (obs.plies, env.position(0)))
        else:
            check("repetition=False: the game goes on past the third occurrence", not any(ended) and
                  obs.plies.tolist() == [8, 8], (ended, obs.plies))


def test_illegal_action():
    env = leuctra.VecGame("crossings", 5, seed=3)
    rng = np.random.default_rng(3)
    obs = env.step(random_actions(env.observe(), rng))
    positions = [env.position(i) for i in range(5)]
    arrays = [a.copy() for a in obs if a is not None]
    actions = random_actions(obs, rng)
    illegal = int(np.flatnonzero(~obs.mask[3])[0])
    actions[3] = illegal
    kind, msg = raised(env.step, actions)
    check("an illegal action is an InputError naming its game and the action",
          kind == "InputError" and "game 3" in msg and "action %d" % illegal in msg, (kind, msg))
    same = positions == [env.position(i) for i in range(5)] and \
        all(np.array_equal(a, b) for a, b in zip(arrays, [a for a in env.observe() if a is not None]))
    check("after a refused step nothing was played in any game, and the arrays are as they were", same)
    for bad, what in ((np.array([0, 0, 0, 0, 2048], np.int64), "out of range"), (np.full(5, -1), "out of range"),
                      (np.full(5, 2 ** 32 + 48, np.int64), "out of range")):
        kind, msg = raised(env.step, bad)
        check("action %r: InputError, %s" % (bad[-1], what), kind == "InputError" and what in msg, (kind, msg))
    for bad in (np.zeros(5, np.float64), np.zeros(5, bool), ["a"] * 5, [[1, 2], [3]], None):
        kind, _ = raised(env.step, bad)
        check("actions %r: TypeError" % (bad,), kind == "TypeError", kind)
    kind, msg = raised(env.step, np.zeros(4, np.int32))
    check("four actions for five games: InputError", kind == "InputError" and "shape" in msg, (kind, msg))
    check("a legal step after the refusals plays", env.step(random_actions(env.observe(), rng)).plies.min() == 2)


def run_same(threads, variant, n, steps, seed=11, **kw):
    env = leuctra.VecGame(variant, n, seed=seed, threads=threads, **kw)
    rng = np.random.default_rng(seed)
    obs = env.reset()
    trace = []
    for _ in range(steps):
        obs = env.step(random_actions(obs, rng))
        trace.append([a.copy() for a in obs if a is not None])
    env.close()
    return trace


def same_trace(a, b):
    return len(a) == len(b) and all(all(np.array_equal(x, y) for x, y in zip(p, q)) for p, q in zip(a, b))


def test_threads():
    runs = [run_same(t, "crossings", 150, 60, max_plies=30, random_opening=3) for t in (1, 2, 3)]
    check("the same games on 1, 2 and 3 threads (150 games, random openings, ends and restarts)",
          same_trace(runs[0], runs[1]) and same_trace(runs[0], runs[2]))
    check("and they did end and restart", sum(int(s[7].sum()) for s in runs[0]) > 150)    # done
    for spec in ("random", "mcts:visits=8"):
        a = run_same(1, "reversi", 70, 12, opponent=spec)
        b = run_same(2, "reversi", 70, 12, opponent=spec)
        check("opponent %s: the same games on 1 and 2 threads" % spec, same_trace(a, b))
    other = run_same(1, "crossings", 150, 5, seed=12, max_plies=30, random_opening=3)
    check("another seed plays other games", not same_trace(runs[0][:5], other))


def test_opponent(spec, variant, agent_colour=None, steps=80):
    kw = {} if agent_colour is None else {"agent_colour": agent_colour}
    n = 6
    env = leuctra.VecGame(variant, n, seed=5, threads=2, opponent=spec, max_plies=80, **kw)
    rng = np.random.default_rng(5)
    obs = env.observe()
    games = [0] * n
    bad = []
    colour = {"white": lambda i, k: 0, "black": lambda i, k: 1, None: lambda i, k: (i + k) % 2}[agent_colour]
    for step in range(steps):
        for i in range(n):
            if obs.side[i] != colour(i, games[i]):
                bad.append("step %d game %d: side %d to move, not the agent's" % (step, i, obs.side[i]))
        plies = obs.plies.copy()
        actions = random_actions(obs, rng)
        obs = env.step(actions)
        for i in range(n):
            if obs.done[i]:
                games[i] += 1
                r = obs.reward[i].tolist()
                want = {1: [1.0, -1.0], 2: [-1.0, 1.0], 3: [0.0, 0.0]}[int(obs.result[i])]
                if r != want:
                    bad.append("game %d: result %d, reward %s" % (i, obs.result[i], r))
            elif obs.plies[i] != plies[i] + 2:
                bad.append("step %d game %d: %d plies after %d: the opponent did not reply" % (step, i, obs.plies[i],
                                                                                              plies[i]))
        for i in range(n):     # Game replays each game's moves and refuses an illegal one
            g = env.game(i)
            if g.position() != env.position(i) or g.legal_actions() != \
                    obs.legal[obs.legal_start[i]:obs.legal_start[i] + obs.legal_count[i]].tolist():
                bad.append("game %d: Game's replay differs" % i)
        if len(bad) > 3:
            break
    check("opponent %s in %s (agent %s): the agent to move in every observation, the opponent's replies legal, "
          "rewards by the result" % (spec, variant, agent_colour or "alternating"), not bad and sum(games) > 0,
          (bad[:3], games))


def test_opponents():
    test_opponent("random", "crossings")
    test_opponent("greedy", "reversi", "white")
    test_opponent("mcts:visits=5", "crossings", "black", steps=40)
    test_opponent("random", "reversi", "black")


def test_openings_and_reset():
    env = leuctra.VecGame("crossings", 40, seed=9, random_opening=6)
    obs = env.observe()
    check("random_opening=6: each game begins 6 plies in", (obs.plies == 6).all(), obs.plies)
    positions = {env.position(i) for i in range(40)}
    check("and the openings differ", len(positions) > 30, len(positions))
    first = [env.position(i) for i in range(40)]
    env.reset()
    check("reset() begins other games", [env.position(i) for i in range(40)] != first)
    env.reset(seed=9)
    check("reset(seed=9) begins the games of a new VecGame(seed=9)", [env.position(i) for i in range(40)] == first)
    obs = env.observe()
    check("after a reset no game is done", not obs.done.any() and not obs.reward.any())


def test_arrays_and_life():
    env = leuctra.VecGame("reversi", 4, seed=1, masks=False)
    obs = env.observe()
    check("masks=False: no mask; planes [4, 9, 8, 8]", obs.mask is None and obs.planes.shape == (4, 9, 8, 8))
    kind, _ = raised(obs.planes.__setitem__, (0, 0, 0, 0), 1)
    check("the returned arrays are read-only", kind == "ValueError", kind)
    check("shape and len", (len(env), env.n, env.num_actions, env.num_planes, env.width, env.height, env.symmetries,
                            env.variant, env.planes_version) == (4, 4, 65, 9, 8, 8, 255, "reversi", 1))
    g = env.game(2)
    check("game(i) is a Game at game i's position", g.position() == env.position(2) and g.variant == "reversi")
    kept = obs.planes.copy()
    with env:
        pass
    check("closed: a call raises LeuctraError, the arrays stay readable",
          raised(env.step, np.zeros(4, np.int32))[0] == "LeuctraError" and env.closed and
          np.array_equal(obs.planes, kept))
    env.close()
    check("closing twice is harmless", raised(env.close)[0] is None)
    kind, _ = raised(__import__("pickle").dumps, leuctra.VecGame("crossings", 1))
    check("a VecGame cannot be pickled", kind == "TypeError", kind)


def test_refused_arguments():
    cases = [
        ({"n": 0}, "InputError"), ({"n": 2 ** 20 + 1}, "InputError"), ({"n": 2.0}, "TypeError"),
        ({"seed": -1}, "InputError"), ({"seed": 2 ** 64}, "InputError"), ({"threads": 1025}, "InputError"),
        ({"max_plies": 0}, "InputError"), ({"random_opening": 600}, "InputError"),
        ({"opponent": "engine:/bin/sh"}, "InputError"), ({"opponent": "mcts:threads=2"}, "InputError"),
        ({"opponent": "mcts:time=0.01"}, "InputError"), ({"opponent": 5}, "TypeError"),
        ({"agent_colour": "white"}, "InputError"), ({"opponent": "random", "agent_colour": "red"}, "InputError"),
        ({"size": "2x2"}, "InputError"), ({"variant": "chess"}, "InputError"), ({"repetition": "no"}, "TypeError"),
        ({"opponent": "greedy:weights=/nonexistent.lwt"}, "InputError"), ({"opponent": "a\0b"}, "InputError"),
    ]
    for kw, want in cases:
        args = {"variant": "crossings", "n": 2}
        args.update(kw)
        kind, msg = raised(leuctra.VecGame, **args)
        check("VecGame(%s): %s" % (", ".join("%s=%r" % x for x in kw.items()), want), kind == want and
              "\n" not in msg, (kind, msg))
    env = leuctra.VecGame("crossings", 3)
    for i, want in ((3, "InputError"), (-1, "InputError"), (True, "TypeError"), ("0", "TypeError")):
        check("position(%r): %s" % (i, want), raised(env.position, i)[0] == want)
        check("game(%r): %s" % (i, want), raised(env.game, i)[0] == want)
    check("reset(seed=-1): InputError", raised(env.reset, -1)[0] == "InputError")


def main():
    test_agreements()
    test_repetition()
    test_illegal_action()
    test_threads()
    test_opponents()
    test_openings_and_reset()
    test_arrays_and_life()
    test_refused_arguments()
    return summary()


if __name__ == "__main__":
    sys.exit(main())
