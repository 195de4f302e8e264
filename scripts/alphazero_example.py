#!/usr/bin/env python3
"""alphazero_example.py - a worked AlphaZero loop on leuctra: Crossings from zero with a small
network of your own, leuctra's C search asking it for batches of leaf evaluations.

    PYTHONPATH=python /usr/bin/python3 scripts/alphazero_example.py run/          # a few seconds
    PYTHONPATH=python /usr/bin/python3 scripts/alphazero_example.py run/ --budget-seconds 1800 \\
        --games 96 --visits 64 --gate-games 40 --eval-games 100
    ... --torch            # the same network in PyTorch (python3-torch), the search unchanged

Each generation:
  1. self-play: leuctra.selfplay plays --games games at --visits visits, every move one batched
     search of all the games in play whose leaves the network judges (net.evaluate: planes and
     legal actions in, a win probability and a policy over the legal actions out), written as
     a records file run/genK.lrec (`leuctra records export` and leuctra.read_records read it);
  2. training: the network trains on the last --window generations' records (leuctra.read_records
     with each position's symmetric copies): cross-entropy against the search's visit shares
     over the legal actions, and against the game's result for the value;
  3. gating: the trained network plays the current one, --gate-games games from paired random
     openings (each opening once with either colour), both searching at --visits visits through
     leuctra.search; it becomes the current network when it scores above --gate-score.
It stops when --budget-seconds are spent (checked between steps), saves the current network as
run/best.npz, and measures it: --eval-games games each against `random`, `greedy` and leuctra's
own MCTS at the same visits (leuctra.VecGame's opponents, seeded, colours alternating), and the
network's bare policy (no search) against random, before and after training.  The last line is

    final: gen G, random R% (N games), greedy .., mcts .., policy-only random P% (untrained P0%)

scripts/net_engine.py --net run/best.npz plays it in `leuctra match` (docs/PYTHON.md).

The network: the planes flattened, one hidden layer of ReLUs, a policy head over the game's
action index (its legal entries softmaxed) and a value head (a sigmoid: the side to move's win
probability), trained with Adam.  numpy only; deterministic for a --seed and thread count."""
import argparse
import hashlib
import json
import os
import sys
import time

try:
    import numpy as np
except ImportError:
    sys.exit("alphazero_example.py needs numpy, which %s lacks: run it with the system's Python "
             "(/usr/bin/python3, with Debian's python3-numpy)" % sys.executable)

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import leuctra  # noqa: E402

VARIANT = "crossings"
SIZE = "8x8"            # --size


# --- the network ------------------------------------------------------------------------------


class Batch:
    """Positions in the export's layout: inputs x [n, planes*H*W]; row i's legal actions and their
    visit shares are legal[start[i]:start[i + 1]] and share[...]; result [n] (1, 0.5, 0 for the
    side to move); has_policy [n] (the search visited: not a random opening ply)."""

    def __init__(self, x, start, legal, share, result):
        self.x, self.start, self.legal, self.share, self.result = x, start, legal, share, result
        self.rows = np.repeat(np.arange(len(x)), np.diff(start))
        self.has_policy = np.add.reduceat(share, start[:-1]) > 0 if len(share) else np.zeros(len(x), bool)

    def take(self, index):
        counts = np.diff(self.start)[index]
        first = self.start[index]
        entries = np.repeat(first - np.concatenate([[0], np.cumsum(counts)[:-1]]), counts) + np.arange(counts.sum())
        return Batch(self.x[index], np.concatenate([[0], np.cumsum(counts)]), self.legal[entries],
                     self.share[entries], self.result[index])


def segment_softmax(z, start, rows):
    """Softmax of z within each row's segment [start[i], start[i + 1]) (no segment is empty)."""
    top = np.maximum.reduceat(z, start[:-1])
    e = np.exp(z - top[rows])
    return e / np.add.reduceat(e, start[:-1])[rows]


class NumpyNet:
    """planes -> relu(x W1 + b1) -> a policy logit per legal action (the rows of Wp's legal
    columns: no product over the whole action index) and a value logit; Adam on both heads."""

    def __init__(self, inputs, hidden, actions, seed):
        rng = np.random.default_rng(seed)
        self.shape = (inputs, hidden, actions)
        self.p = {"w1": rng.normal(0, np.sqrt(2.0 / inputs), (inputs, hidden)).astype(np.float32),
                  "b1": np.zeros(hidden, np.float32),
                  "wp": rng.normal(0, 0.01, (actions, hidden)).astype(np.float32),
                  "bp": np.zeros(actions, np.float32),
                  "wv": rng.normal(0, 0.01, hidden).astype(np.float32),
                  "bv": np.zeros(1, np.float32)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def copy(self):
        other = NumpyNet.__new__(NumpyNet)
        other.shape = self.shape
        other.p = {k: v.copy() for k, v in self.p.items()}
        other.m = {k: v.copy() for k, v in self.m.items()}
        other.v = {k: v.copy() for k, v in self.v.items()}
        other.t = self.t
        return other

    def forward(self, x, rows, legal):
        """Hidden units, the logits of the legal actions (rows[e]'s action legal[e]), value logits."""
        h = np.maximum(x @ self.p["w1"] + self.p["b1"], 0)
        z = np.einsum("ij,ij->i", h[rows], self.p["wp"][legal]) + self.p["bp"][legal]
        return h, z, h @ self.p["wv"] + self.p["bv"][0]

    def train_step(self, b, lr):
        """One Adam step on a Batch: cross-entropy against the visit shares and the result."""
        n = len(b.x)
        h, z, v = self.forward(b.x, b.rows, b.legal)
        prob = segment_softmax(z, b.start, b.rows)
        value = 1 / (1 + np.exp(-v))
        d_z = (prob - b.share) * b.has_policy[b.rows] / n
        d_v = (value - b.result) / n
        wp_rows = self.p["wp"][b.legal]
        scattered = np.zeros((n, len(self.p["bp"])), np.float32)     # a row's legal actions are distinct
        scattered[b.rows, b.legal] = d_z
        grads = {"wp": scattered.T @ h, "bp": scattered.sum(axis=0), "wv": h.T @ d_v,
                 "bv": np.array([d_v.sum()], np.float32)}
        d_h = (np.add.reduceat(d_z[:, None] * wp_rows, b.start[:-1]) + d_v[:, None] * self.p["wv"]) * (h > 0)
        grads["w1"] = b.x.T @ d_h
        grads["b1"] = d_h.sum(axis=0)
        self.t += 1
        for k, g in grads.items():
            g = g.astype(np.float32)
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            step = lr * (self.m[k] / (1 - 0.9 ** self.t)) / (np.sqrt(self.v[k] / (1 - 0.999 ** self.t)) + 1e-8)
            self.p[k] -= step.astype(np.float32)

    def scores(self, planes, legal_start, legal):
        """The logits of each leaf's legal actions and its win probability (the evaluate below)."""
        rows = np.repeat(np.arange(len(planes)), np.diff(legal_start))
        _, z, v = self.forward(planes.reshape(len(planes), -1).astype(np.float32), rows, legal)
        return z, 1 / (1 + np.exp(-v))

    def save(self, path):
        np.savez(path, shape=np.array(self.shape), **self.p)

    @classmethod
    def load(cls, path):
        with np.load(path) as f:
            net = cls(*(int(s) for s in f["shape"]), seed=0)
            for k in net.p:
                net.p[k] = f[k].astype(np.float32)
        return net

    def digest(self):
        h = hashlib.sha256()
        for k in sorted(self.p):
            h.update(self.p[k].tobytes())
        return h.hexdigest()[:12]


class TorchNet(NumpyNet):
    """The same network and training in PyTorch (on the CPU); evaluate returns numpy arrays."""

    def __init__(self, inputs, hidden, actions, seed):
        import torch
        self.torch = torch
        torch.set_num_threads(1)        # batches of a few dozen positions: threads cost more than they give
        torch.manual_seed(seed)
        self.shape = (inputs, hidden, actions)
        self.model = torch.nn.ModuleDict({"body": torch.nn.Linear(inputs, hidden),
                                          "policy": torch.nn.Linear(hidden, actions),
                                          "value": torch.nn.Linear(hidden, 1)})
        self.opt = torch.optim.Adam(self.model.parameters(), lr=1e-3)

    def copy(self):
        import copy
        other = TorchNet.__new__(TorchNet)
        other.torch, other.shape = self.torch, self.shape
        other.model = copy.deepcopy(self.model)
        other.opt = self.torch.optim.Adam(other.model.parameters(), lr=1e-3)
        other.opt.load_state_dict(self.opt.state_dict())
        return other

    def _heads(self, x):
        h = self.torch.relu(self.model["body"](x))
        return self.model["policy"](h), self.model["value"](h)[:, 0]

    def _log_policy(self, logits, rows, legal):
        """log-softmax over each row's legal actions, at those actions."""
        t = self.torch
        masked = t.full_like(logits, -1e9)
        rows_t, legal_t = t.from_numpy(rows), t.from_numpy(legal.astype(np.int64))
        masked[rows_t, legal_t] = logits[rows_t, legal_t]
        return t.log_softmax(masked, dim=1)[rows_t, legal_t]

    def train_step(self, b, lr):
        t = self.torch
        for group in self.opt.param_groups:
            group["lr"] = lr
        logits, v = self._heads(t.from_numpy(b.x))
        log_p = self._log_policy(logits, b.rows, b.legal)
        weight = t.from_numpy((b.share * b.has_policy[b.rows]).astype(np.float32))
        loss = -(weight * log_p).sum() / len(b.x) + \
            t.nn.functional.binary_cross_entropy_with_logits(v, t.from_numpy(b.result))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()

    def scores(self, planes, legal_start, legal):
        """The legal actions' logits alone: the rows of the policy layer that they pick."""
        t = self.torch
        rows = t.from_numpy(np.repeat(np.arange(len(planes)), np.diff(legal_start)))
        actions = t.from_numpy(legal.astype(np.int64))
        with t.no_grad():
            h = t.relu(self.model["body"](t.from_numpy(planes.reshape(len(planes), -1).astype(np.float32))))
            policy = self.model["policy"]
            z = (h[rows] * policy.weight[actions]).sum(dim=1) + policy.bias[actions]
            return z.numpy(), t.sigmoid(self.model["value"](h)[:, 0]).numpy()

    def save(self, path):
        p = {k.replace(".", "_"): v.detach().numpy() for k, v in self.model.state_dict().items()}
        np.savez(path, shape=np.array(self.shape), w1=p["body_weight"].T, b1=p["body_bias"], wp=p["policy_weight"],
                 bp=p["policy_bias"], wv=p["value_weight"][0], bv=p["value_bias"])

    def digest(self):
        h = hashlib.sha256()
        for v in self.model.state_dict().values():
            h.update(v.numpy().tobytes())
        return h.hexdigest()[:12]


def evaluator(net):
    """leuctra's evaluate for a network: planes and legal actions in, values and scores out."""

    def evaluate(planes, legal_start, legal):
        logits, value = net.scores(planes, legal_start, legal)
        rows = np.repeat(np.arange(len(planes)), np.diff(legal_start))
        return value, segment_softmax(logits, legal_start, rows)

    return evaluate


def load_evaluator(path):
    """The evaluate of a network this script saved (scripts/net_engine.py --net PATH)."""
    return evaluator(NumpyNet.load(path))


# --- training ---------------------------------------------------------------------------------


def training_data(paths):
    """The records' positions (with their symmetric copies) as a Batch: leuctra.read_records
    gives the export's layout, legal actions and visits per position, as it is."""
    parts = [leuctra.read_records(p, augment=True) for p in paths]
    planes = np.concatenate([d["planes"] for d in parts])
    counts = np.concatenate([d["legal_count"] for d in parts]).astype(np.int64)
    legal = np.concatenate([d["legal"] for d in parts]).astype(np.int64)
    visits = np.concatenate([d["visits"] for d in parts]).astype(np.float64)
    start = np.concatenate([[0], np.cumsum(counts)])
    rows = np.repeat(np.arange(len(planes)), counts)
    totals = np.add.reduceat(visits, start[:-1])[rows]
    share = np.divide(visits, totals, out=np.zeros_like(visits), where=totals > 0).astype(np.float32)
    result = np.concatenate([d["result"] for d in parts]).astype(np.float32)
    return Batch(planes.reshape(len(planes), -1).astype(np.float32), start, legal, share, result)


def train(net, data, epochs, batch, lr, rng):
    for _ in range(epochs):
        order = rng.permutation(len(data.x))
        for at in range(0, len(order), batch):
            net.train_step(data.take(order[at:at + batch]), lr)


# --- playing ----------------------------------------------------------------------------------


def random_openings(count, plies, rng):
    """`count` distinct-ish openings of `plies` random plies, as move lists."""
    out = []
    for _ in range(count):
        g = leuctra.Game(VARIANT, size=SIZE)
        moves = []
        for _ in range(plies):
            legal = g.legal_moves()
            if not legal or g.status() != "ongoing":
                break
            m = legal[rng.integers(len(legal))]
            g.play(m)
            if g.status() != "ongoing":
                g.undo()
                break
            moves.append(m)
        out.append(moves)
        g.close()
    return out


def play_pairs(evaluate_a, evaluate_b, openings, visits, max_plies=200):
    """Every opening played twice, a White then Black; a's score (wins + draws / 2) / games."""
    games, a_white = [], []
    for moves in openings:
        for white in (True, False):
            g = leuctra.Game(VARIANT, size=SIZE)
            for m in moves:
                g.play(m)
            games.append(g)
            a_white.append(white)
    seen = [dict() for _ in games]
    outcome = [None] * len(games)          # a's score: 1, 0.5, 0
    for ply in range(max_plies):
        live = [i for i, g in enumerate(games) if outcome[i] is None]
        if not live:
            break
        a_to_move = {i: (games[i].side_to_move() == "w") == a_white[i] for i in live}
        for evaluate, a_moves in ((evaluate_a, True), (evaluate_b, False)):
            mine = [i for i in live if a_to_move[i] == a_moves]
            if not mine:
                continue
            r = leuctra.search([games[i] for i in mine], evaluate, visits=visits, batch=len(mine), seed=ply + 1)
            for i, action in zip(mine, r.best_action):
                games[i].play(int(action))
        for i in live:
            g = games[i]
            status = g.status()
            key = g.position()
            seen[i][key] = seen[i].get(key, 0) + 1
            if status != "ongoing":
                white_won = status == "white-wins"
                outcome[i] = 0.5 if status == "draw" else float(white_won == a_white[i])
            elif seen[i][key] >= 3 or ply == max_plies - 1:
                outcome[i] = 0.5
    for g in games:
        g.close()
    return float(np.mean([0.5 if o is None else o for o in outcome])), len(games)


def against(opponent, agent, games, seed, visits):
    """The agent's score against a VecGame opponent over `games` games (its first game in each
    slot, colours alternating).  agent: ("search", evaluate) or ("policy", net)."""
    kind, who = agent
    env = leuctra.VecGame(VARIANT, games, size=SIZE, seed=seed, threads=1, opponent=opponent, random_opening=2,
                          max_plies=200)
    obs = env.reset()
    score = [None] * games
    colour = obs.side.copy()            # every observation has the agent to move
    while any(s is None for s in score):
        actions = obs.legal[obs.legal_start].copy()      # any legal action for the slots already scored
        live = [i for i in range(games) if score[i] is None]
        if kind == "search":
            r = leuctra.search([env.game(i) for i in live], who, visits=visits, batch=len(live), seed=seed)
            actions[live] = r.best_action
        else:
            starts = np.concatenate([[0], np.cumsum(obs.legal_count[live])])
            legal = np.concatenate([obs.legal[obs.legal_start[i]:obs.legal_start[i] + obs.legal_count[i]]
                                    for i in live])
            logits, _ = who.scores(obs.planes[live], starts, legal)
            for k, i in enumerate(live):
                actions[i] = legal[starts[k] + np.argmax(logits[starts[k]:starts[k + 1]])]
        obs = env.step(actions)
        for i in live:
            if obs.done[i]:
                r = obs.reward[i, colour[i]]
                score[i] = (r + 1) / 2
    env.close()
    return float(np.mean(score))


# --- the loop ---------------------------------------------------------------------------------


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0], formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("out", help="folder for the records and networks (created)")
    ap.add_argument("--budget-seconds", type=float, default=4, help="stop after this long (checked after each "
                    "generation; default 4)")
    ap.add_argument("--generations", type=int, default=0, help="stop after this many generations (0: the budget "
                    "alone decides), so that a run does not depend on the machine's speed")
    ap.add_argument("--games", type=int, default=24, help="self-play games per generation (24)")
    ap.add_argument("--visits", type=int, default=24, help="search visits per move, in self-play, gating and "
                    "measuring (24)")
    ap.add_argument("--hidden", type=int, default=64, help="hidden units (64)")
    ap.add_argument("--epochs", type=int, default=8, help="training epochs per generation (8)")
    ap.add_argument("--window", type=int, default=4, help="generations of records trained on (4)")
    ap.add_argument("--lr", type=float, default=2e-3, help="Adam's learning rate (0.002)")
    ap.add_argument("--gate-games", type=int, default=8, help="games of each gating match (8)")
    ap.add_argument("--gate-score", type=float, default=0.5, help="score the new network must exceed (0.5)")
    ap.add_argument("--eval-games", type=int, default=20, help="games against each measuring opponent (20)")
    ap.add_argument("--opponents", default="random", help="measuring opponents, comma-separated: random, greedy, "
                    "mcts (leuctra's MCTS at --visits) (random)")
    ap.add_argument("--size", default="8x8", help="the board (8x8, Crossings' own)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--torch", action="store_true", help="the network in PyTorch")
    a = ap.parse_args()
    global SIZE
    SIZE = a.size
    start = time.perf_counter()
    os.makedirs(a.out, exist_ok=True)
    with leuctra.Game(VARIANT, size=SIZE) as g:
        inputs, actions = g.num_planes * g.width * g.height, g.num_actions
    kind = TorchNet if a.torch else NumpyNet
    best = kind(inputs, a.hidden, actions, a.seed)
    untrained = best.copy()
    rng = np.random.default_rng(a.seed)
    files, gen, accepted = [], 0, 0
    log = []
    while True:
        path = os.path.join(a.out, "gen%d.lrec" % gen)
        if os.path.exists(path):
            os.remove(path)         # a run starts afresh: its generations are this run's networks
        t0 = time.perf_counter()
        run = leuctra.selfplay(VARIANT, a.games, evaluator(best), path, size=SIZE, visits=a.visits,
                               seed=a.seed * 1000 + gen,
                               random_opening=2, evaluator="alphazero_example %s" % best.digest())
        files = (files + [path])[-a.window:]
        t1 = time.perf_counter()
        candidate = best.copy()
        train(candidate, training_data(files), a.epochs, 256, a.lr, rng)
        t2 = time.perf_counter()
        openings = random_openings(max(a.gate_games // 2, 1), 2, rng)
        score, played = play_pairs(evaluator(candidate), evaluator(best), openings, a.visits)
        t3 = time.perf_counter()
        took = score > a.gate_score
        if took:
            best, accepted = candidate, accepted + 1
        log.append({"gen": gen, "selfplay": run, "gate_score": score, "gate_games": played, "accepted": took,
                    "seconds": {"selfplay": round(t1 - t0, 2), "train": round(t2 - t1, 2), "gate": round(t3 - t2, 2),
                                "total": round(t3 - start, 1)}})
        print("gen %d: %d self-play games (%.1f plies each), gate %.2f over %d games: %s  [self-play %.1f s, "
              "training %.1f s, gate %.1f s; %.0f s in all]"
              % (gen, run["played"], run["plies"] / max(run["played"], 1), score, played,
                 "accepted" if took else "kept the old", t1 - t0, t2 - t1, t3 - t2, t3 - start), flush=True)
        gen += 1
        if time.perf_counter() - start > a.budget_seconds or gen == a.generations:
            break
    best.save(os.path.join(a.out, "best.npz"))
    t3_measure = time.perf_counter()
    results = {}
    for name in a.opponents.split(","):
        spec = {"random": "random", "greedy": "greedy", "mcts": "mcts:visits=%d" % a.visits}[name]
        results[name] = against(spec, ("search", evaluator(best)), a.eval_games, a.seed + 7, a.visits)
    untrained_random = against("random", ("search", evaluator(untrained)), a.eval_games, a.seed + 7, a.visits)
    openings = random_openings(max(a.eval_games // 2, 1), 2, np.random.default_rng(a.seed + 11))
    learned, pairs = play_pairs(evaluator(best), evaluator(untrained), openings, a.visits)
    with open(os.path.join(a.out, "log.json"), "w") as f:
        json.dump({"args": vars(a), "generations": log, "against": results, "untrained_random": untrained_random,
                   "against_untrained": learned, "against_untrained_games": pairs}, f, indent=1)
    print("final: gen %d (%d accepted), %s (%d games each; the untrained network: random %.0f%%), "
          "against the untrained network %.0f%% (%d games)  [measuring %.0f s; %.0f s in all]"
          % (gen, accepted, ", ".join("%s %.0f%%" % (k, 100 * v) for k, v in results.items()), a.eval_games,
             100 * untrained_random, 100 * learned, pairs, time.perf_counter() - t3_measure,
             time.perf_counter() - start))


if __name__ == "__main__":
    main()
