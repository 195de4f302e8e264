#!/usr/bin/env python3
"""train_example.py - a worked example: a small policy/value network trained on an exported
dataset (`leuctra records export --format npz`, or a records file read directly), with its
held-out accuracy against the obvious baselines.

    leuctra selfplay --variant crossings --games 200 --visits 200 --out cr.lrec
    leuctra records export cr.lrec -o cr.npz --augment
    PYTHONPATH=python python3 scripts/train_example.py cr.npz            # numpy only
    PYTHONPATH=python python3 scripts/train_example.py cr.npz --torch    # the same model in PyTorch
    PYTHONPATH=python python3 scripts/train_example.py cr.npz --network cr-net.lwt   # and a file to play

python3 must have numpy: where python3 is a pyenv or venv interpreter without it, use the system's
(/usr/bin/python3 with Debian's python3-numpy) or `python3 -m pip install numpy` into it.

The network reads the planes exactly as the engine writes them (docs/TENSORS.md): the flattened
planes, one hidden layer of ReLUs, then a policy head over the game's whole action index, softmax
over the legal actions only (the legal mask), trained on the visit shares (cross-entropy), and a
value head, a sigmoid trained on the game's result for the side to move (cross-entropy).  Games,
not positions, are split into training and held-out sets (the last --holdout share of game
indices), so that no held-out position has a near-twin in training.

Reported on the held-out positions: policy top-1 (the network's best legal action is the
search's most visited) against the uniform choice among legal moves, and value accuracy (the
side of 0.5 agrees with the result, decisive games) against always guessing the side that won
more often in training.  Deterministic for a given --seed.

With --network OUT.lwt (PyTorch needed) the example ends with a file the engine plays: the
network of docs/NETWORK.md (sparse pattern and square inputs, two clipped-ReLU layers, value and
move-prior heads added to the shipped weights' own logits, its skip path) trained in PyTorch
(leuctra.net) on the positions of the records file the export came from (its meta's sources, or
--records, or the .lrec given), written through the library (lt_network_save: its
quantization and file), and the `leuctra match` command that plays it printed."""
import argparse
import os
import sys

try:
    import numpy as np
except ImportError:     # a pyenv or venv python3 without numpy, where the system's has it
    sys.exit("train_example.py needs numpy, which %s lacks: run it with the system's Python\n"
             "  (/usr/bin/python3, with Debian's python3-numpy: PYTHONPATH=python /usr/bin/python3 "
             "scripts/train_example.py ...)\nor install numpy into this one: %s -m pip install numpy"
             % (sys.executable, sys.executable))

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "python"))
import leuctra  # noqa: E402


def split_by_game(ds, holdout):
    games = ds.data["game"]
    order = np.unique(games)
    cut = order[int(len(order) * (1 - holdout))] if len(order) > 1 else order[-1] + 1
    train = np.flatnonzero(games < cut)
    test = np.flatnonzero(games >= cut)
    return train, test


def searched(batch):
    """Rows the search visited (a policy target exists)."""
    return batch["policy"].sum(axis=1) > 0


class NumpyNet:
    """x -> relu(x W1 + b1) -> (policy logits, value logit); Adam on both heads."""

    def __init__(self, inputs, hidden, actions, rng):
        scale = np.sqrt(2.0 / inputs)
        self.p = {"w1": rng.normal(0, scale, (inputs, hidden)).astype(np.float32), "b1": np.zeros(hidden, np.float32),
                  "wp": rng.normal(0, 0.01, (hidden, actions)).astype(np.float32), "bp": np.zeros(actions, np.float32),
                  "wv": rng.normal(0, 0.01, (hidden, 1)).astype(np.float32), "bv": np.zeros(1, np.float32)}
        self.m = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.v = {k: np.zeros_like(v) for k, v in self.p.items()}
        self.t = 0

    def forward(self, x, mask):
        h = np.maximum(x @ self.p["w1"] + self.p["b1"], 0)
        logits = h @ self.p["wp"] + self.p["bp"]
        logits = np.where(mask, logits, -1e9)
        logits -= logits.max(axis=1, keepdims=True)
        prob = np.exp(logits) * mask
        prob /= prob.sum(axis=1, keepdims=True)
        value = 1 / (1 + np.exp(-(h @ self.p["wv"] + self.p["bv"])[:, 0]))
        return h, prob, value

    def step(self, x, mask, target, result, rate):
        h, prob, value = self.forward(x, mask)
        n = len(x)
        has = target.sum(axis=1, keepdims=True) > 0
        d_logits = np.where(has, prob - target, 0) / n          # softmax cross-entropy
        d_value = (value - result)[:, None] / n                 # sigmoid cross-entropy
        grads = {"wp": h.T @ d_logits, "bp": d_logits.sum(0), "wv": h.T @ d_value, "bv": d_value.sum(0)}
        d_h = (d_logits @ self.p["wp"].T + d_value @ self.p["wv"].T) * (h > 0)
        grads["w1"], grads["b1"] = x.T @ d_h, d_h.sum(0)
        self.t += 1
        for k, g in grads.items():
            self.m[k] = 0.9 * self.m[k] + 0.1 * g
            self.v[k] = 0.999 * self.v[k] + 0.001 * g * g
            m_hat, v_hat = self.m[k] / (1 - 0.9 ** self.t), self.v[k] / (1 - 0.999 ** self.t)
            self.p[k] -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)
        loss = -(target * np.log(prob + 1e-12)).sum() / n
        return loss

    def predict(self, x, mask):
        _, prob, value = self.forward(x, mask)
        return prob, value


class TorchNet:
    """The same network in PyTorch (Debian's python3-torch)."""

    def __init__(self, inputs, hidden, actions, seed, rate):
        import torch
        self.torch = torch
        torch.manual_seed(seed)
        self.body = torch.nn.Sequential(torch.nn.Linear(inputs, hidden), torch.nn.ReLU())
        self.policy = torch.nn.Linear(hidden, actions)
        self.value = torch.nn.Linear(hidden, 1)
        params = list(self.body.parameters()) + list(self.policy.parameters()) + list(self.value.parameters())
        self.opt = torch.optim.Adam(params, lr=rate)

    def _heads(self, x, mask):
        t = self.torch
        h = self.body(t.from_numpy(x))
        logits = self.policy(h).masked_fill(~t.from_numpy(mask), -1e9)
        return t.log_softmax(logits, dim=1), self.value(h)[:, 0]

    def step(self, x, mask, target, result, rate):
        t = self.torch
        log_prob, value = self._heads(x, mask)
        target_t = t.from_numpy(target)
        loss = -(target_t * log_prob).sum() / len(x)
        loss = loss + t.nn.functional.binary_cross_entropy_with_logits(value, t.from_numpy(result.astype(np.float32)))
        self.opt.zero_grad()
        loss.backward()
        self.opt.step()
        return float(-(target_t * log_prob).sum() / len(x))

    def predict(self, x, mask):
        with self.torch.no_grad():
            log_prob, value = self._heads(x, mask)
            return log_prob.exp().numpy(), self.torch.sigmoid(value).numpy()


def inputs_of(batch):
    return batch["planes"].reshape(len(batch["planes"]), -1).astype(np.float32)


def evaluate(net, ds, rows, value_guess, batch_size):
    top1 = chance = decisive = value_right = guess_right = positions = 0
    for b in ds.batches(batch_size, rows):
        prob, value = net.predict(inputs_of(b), b["legal_mask"])
        ok = searched(b)
        top1 += int((prob.argmax(1) == b["policy"].argmax(1))[ok].sum())
        chance += float((1.0 / b["legal_mask"].sum(1))[ok].sum())
        positions += int(ok.sum())
        won = b["result"] != 0.5
        decisive += int(won.sum())
        value_right += int(((value > 0.5) == (b["result"] > 0.5))[won].sum())
        guess_right += int(((b["result"] > 0.5) == value_guess)[won].sum())
    return {"positions": positions, "top1": top1 / max(positions, 1), "top1_uniform": chance / max(positions, 1),
            "decisive": decisive, "value": value_right / max(decisive, 1), "value_guess": guess_right / max(decisive, 1)}


def main():
    ap = argparse.ArgumentParser(description="Train a small policy/value network on a leuctra dataset.")
    ap.add_argument("data", help="an exported .npz, or a records file (.lrec) read directly")
    ap.add_argument("--epochs", type=int, default=8)
    ap.add_argument("--hidden", type=int, default=64)
    ap.add_argument("--batch", type=int, default=256)
    ap.add_argument("--rate", type=float, default=0.003)
    ap.add_argument("--holdout", type=float, default=0.2, help="the share of games held out (default 0.2)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--torch", action="store_true", help="the same model in PyTorch")
    ap.add_argument("--network", metavar="OUT.lwt", help="then train docs/NETWORK.md's network (PyTorch) on the "
                    "records and write it as a weights file the engine plays")
    ap.add_argument("--records", nargs="+", metavar="FILE", help="--network's records files (default: the export's "
                    "sources, or the .lrec given)")
    ap.add_argument("--base", metavar="WEIGHTS", help="--network's base weights, its skip path (default: the shipped)")
    ap.add_argument("--inputs", default="both", choices=("patterns", "squares", "both"), help="--network's inputs")
    ap.add_argument("--net-hidden", type=int, default=32, help="--network's first layer width (16-256, by 16)")
    args = ap.parse_args()
    ds = leuctra.Dataset(args.data)
    train, test = split_by_game(ds, args.holdout)
    if len(train) == 0 or len(test) == 0:
        sys.exit("train_example: need games for both training and held-out sets (%d positions)" % len(ds))
    inputs = int(np.prod(ds.planes_shape))
    rng = np.random.default_rng(args.seed)
    if args.torch:
        try:
            net = TorchNet(inputs, args.hidden, ds.num_actions, args.seed, args.rate)
        except ImportError:
            print("skip: PyTorch is not installed (apt-get install python3-torch)")
            return 0
    else:
        net = NumpyNet(inputs, args.hidden, ds.num_actions, rng)
    print("%s %dx%d: %d positions (%d training, %d held out), %d actions, %s" % (
        ds.meta["variant"], ds.meta["width"], ds.meta["height"], len(ds), len(train), len(test), ds.num_actions,
        "PyTorch" if args.torch else "numpy"))
    wins = float((ds.data["result"][train] > 0.5).mean())
    for epoch in range(args.epochs):
        losses = []
        for b in ds.batches(args.batch, train, shuffle=True, seed=args.seed + epoch):
            losses.append(net.step(inputs_of(b), b["legal_mask"], b["policy"], b["result"], args.rate))
        print("epoch %d: policy loss %.4f" % (epoch + 1, float(np.mean(losses))), flush=True)
    r = evaluate(net, ds, test, wins >= 0.5, args.batch)
    print("held out: policy top-1 %.3f (uniform over legal moves %.3f) on %d positions; "
          "value %.3f (always the likelier side %.3f) on %d decisive positions" % (
              r["top1"], r["top1_uniform"], r["positions"], r["value"], r["value_guess"], r["decisive"]))
    return train_network(args, ds) if args.network else 0


def network_records(args, ds):
    """The records files --network reads: --records, the export's sources, or the .lrec given."""
    if args.records:
        return args.records
    if not args.data.endswith(".npz"):
        return [args.data]
    sources = ds.meta.get("sources") or []
    missing = [s for s in sources if not os.path.exists(s)]
    if not sources or missing:
        sys.exit("train_example: --network reads records files, and the export's (%s) are not here: give --records"
                 % (", ".join(missing) or "none named"))
    return sources


def train_network(args, ds):
    """docs/NETWORK.md's network trained in PyTorch on the records, written through the library."""
    try:
        import torch  # noqa: F401
    except ImportError:
        sys.exit("train_example: --network needs PyTorch (apt-get install python3-torch)")
    import leuctra.net as net
    records = network_records(args, ds)
    try:
        data = leuctra.network_data(records, weights=args.base, inputs=args.inputs,
                                    validation=min(max(args.holdout, 0.0), 0.9))
        model = net.NetworkModel(data["meta"], hidden=args.net_hidden, seed=args.seed)
    except leuctra.LeuctraError as e:
        sys.exit("train_example: %s" % e)
    meta = data["meta"]
    print("network: %s inputs (%d), H %d, on %d training and %d validation positions of %d games" % (
        meta["inputs"], meta["num_inputs"], args.net_hidden, meta["positions_train"], meta["positions_validation"],
        meta["games"]), flush=True)

    def show(e):
        print("network epoch %d: value loss %.4f, policy loss %.4f (validation %.4f, %.4f)%s" % (
            e["epoch"], e["train"]["value"], e["train"]["policy"], e["validation"]["value"],
            e["validation"]["policy"], "" if e["best"] else ", not kept"), flush=True)

    net.train(model, data, epochs=args.epochs, batch=args.batch, learning_rate=args.rate, seed=args.seed,
              on_epoch=show)
    try:
        net.save(args.network, model, sample=data, note="scripts/train_example.py: %d epochs on %s" % (
            args.epochs, ", ".join(records)))
    except leuctra.LeuctraError as e:
        sys.exit("train_example: %s" % e)
    print("wrote %s; play it against the shipped weights with\n  leuctra match 'mcts:visits=400,weights=%s' "
          "mcts:visits=400 --variant %s --size %dx%d --games 20" % (
              args.network, args.network, meta["variant"], meta["width"], meta["height"]))
    return 0


if __name__ == "__main__":
    sys.exit(main())
