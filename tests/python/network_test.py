#!/usr/bin/env python3
"""network_test.py - a network trained outside the library (python/leuctra/net.py, in PyTorch)
and written and evaluated by the library (api/api_network*.c; docs/NETWORK.md, "Training in
PyTorch").

For each game (Epaminondas, Crossings, Igfip, Reversi): a NetworkModel initialised at random
(its heads too, so that every layer counts) is saved through lt_network_save, quantized over
10,000 positions of random games, and the library's evaluation of that file on those positions
(the integers the search reads, lt_network_eval_*) is compared with PyTorch:

  - with the model's integers (model.quantized(): the library's roundings, emulated on the very
    code path of the float forward pass): equal, to 1e-9 for the value logits (both double) and
    1e-4 for the prior logits (the library adds them in float32).  This is the sharp check: a
    model that sums its inputs differently, reads another bucket or action, or a file whose
    arrays are out of order, differs by far more, and a changed model is shown to be caught;
  - with the float forward pass: within quantization_bounds(), the quantization's rigorous
    per-position bound (each int16/int8 rounding and each floor of the clipped ReLUs followed
    through the layers); the largest difference of each game is printed.

Besides: network_data's sets against the evaluation of their sample positions (inputs, bucket,
skip logits, actions, skip priors: what PyTorch learns from is what the library evaluates), a
short training run whose losses fall, save refusing another base's weights, bad arguments
refused with one line, and the module importing and saying what it needs without PyTorch.
Without numpy or PyTorch: "skip: ..." lines and no failures.

    LEUCTRA=build/leuctra LEUCTRA_LIB=$PWD/build/libleuctra.so python3 tests/python/network_test.py

Ends with "N passed, N failed" (tests/run.sh adds it up)."""
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.dirname(HERE))  # tests/checks.py
if not os.environ.get("LEUCTRA_TEST_INSTALLED"):  # tests/python/venv_test.sh: the installed package
    sys.path.insert(0, os.path.join(ROOT, "python"))
from checks import check, summary  # noqa: E402

try:
    import leuctra
except ImportError as e:
    if "libleuctra.so not found" in str(e):
        print("skip: %s" % e)
        sys.exit(summary())
    raise

LEUCTRA = os.environ.get("LEUCTRA", os.path.join(ROOT, "build", "leuctra"))
VARIANTS = ("epaminondas", "crossings", "igfip", "reversi")
POSITIONS = 10000


def random_positions(variant, count, seed, max_plies=120):
    """Positions of random games from the start (each cut after max_plies), count in all."""
    rng = random.Random(seed)
    out = []
    with leuctra.Game(variant) as g:
        while len(out) < count:
            g.set_position("start")
            for _ in range(max_plies):
                if g.status() != "ongoing" or len(out) >= count:
                    break
                out.append(g.position())
                g.play(rng.choice(g.legal_actions()))
    return out


def test_without_torch():
    """The module imports without PyTorch, its numpy calls work, and a call that needs PyTorch
    says so in one line."""
    path = "" if os.environ.get("LEUCTRA_TEST_INSTALLED") else "sys.path.insert(0, %r)" % os.path.join(ROOT, "python")
    code = ("import sys; sys.modules['torch'] = None; %s\n" % path +
            "import leuctra, leuctra.net as n\n"
            "print(n.describe('crossings', inputs='squares')['num_inputs'])\n"
            "try:\n    n.NetworkModel\nexcept ImportError as e:\n    print(e)\n")
    p = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
    lines = p.stdout.splitlines()
    check("leuctra.net imports without PyTorch and says what it needs", p.returncode == 0 and
          lines[:1] == ["323"] and len(lines) == 2 and "needs PyTorch (apt-get install python3-torch)" in lines[1],
          (p.stdout, p.stderr[-300:]))


def compare(np, net, model, ev, tolerance_note=""):
    """(exact value diff, exact prior diff, float value diffs, float prior diffs, bounds) of a
    model against the library's evaluation ev."""
    qv, qp = net.predict(model, ev, model.quantized(ev["meta"]))
    fv, fp = net.predict(model, ev)
    bv, bp = net.quantization_bounds(model, ev, ev["meta"])
    exact_v = np.abs(qv - ev["value"]) / (1 + np.abs(ev["value"]))
    exact_p = np.abs(qp - ev["prior"]) / (1 + np.abs(ev["prior"]))
    return exact_v, exact_p, np.abs(fv - ev["value"]), np.abs(fp - ev["prior"]), bv, bp


def test_agreement(np, torch, net, tmp):
    for k, variant in enumerate(VARIANTS):
        t0 = time.monotonic()
        positions = random_positions(variant, POSITIONS, 44 + k)
        meta = net.describe(variant, inputs="both")
        model = net.NetworkModel(meta, hidden=32, seed=7 + k, heads=True)
        path = os.path.join(tmp, variant + ".lwt")
        net.save(path, model, sample=positions, note="tests/python/network_test.py")
        ev = net.evaluate(path, positions, variant)
        exact_v, exact_p, dv, dp, bv, bp = compare(np, net, model, ev)
        check("%s: the library's integers equal the model's (value)" % variant,
              len(ev["value"]) == POSITIONS and exact_v.max() <= 1e-9, exact_v.max())
        check("%s: the library's integers equal the model's (priors)" % variant,
              len(ev["prior"]) > POSITIONS and exact_p.max() <= 1e-4, exact_p.max())
        check("%s: the float model is within the quantization's bound (value)" % variant, (dv <= bv).all(),
              (dv.max(), int((dv > bv).sum())))
        check("%s: the float model is within the quantization's bound (priors)" % variant, (dp <= bp).all(),
              (dp.max(), int((dp > bp).sum())))
        info = ev["meta"]
        print("%-11s %d positions, %d moves, %d inputs, shift1 %d, shift2 %d: max |C - PyTorch float| value %.4f "
              "(bound median %.3f), priors %.4f (bound median %.3f); integers %.1e, %.1e; %.1fs" % (
                  variant, len(ev["value"]), len(ev["prior"]), info["num_inputs"], info["shift1"], info["shift2"],
                  dv.max(), float(np.median(bv)), dp.max(), float(np.median(bp)), exact_v.max(), exact_p.max(),
                  time.monotonic() - t0), flush=True)
        if variant == "crossings":
            test_changes_caught(np, torch, net, model, ev)


def test_changes_caught(np, torch, net, model, ev):
    """The exact check fails for a model that is not the saved one, or reads its inputs otherwise:
    the check can fail."""
    import copy
    changed = copy.deepcopy(model)
    with torch.no_grad():
        changed.b1.add_(1 / 64)
    v, _, _, _, _, _ = compare(np, net, changed, ev)
    check("a changed first-layer bias is caught by the exact check", v.max() > 1e-3, v.max())
    once = dict(ev)         # every input counted once, where the model must count a repeat twice
    rows = [np.unique(ev["input"][ev["input_start"][i]:ev["input_start"][i + 1]]) for i in range(len(ev["value"]))]
    once["input"] = np.concatenate(rows).astype(np.int32)
    once["input_start"] = np.concatenate([[0], np.cumsum([len(r) for r in rows])]).astype(np.int64)
    qv, _ = net.predict(model, once, model.quantized(ev["meta"]))
    check("repeated pattern inputs exist and counting them once is caught",
          len(once["input"]) < len(ev["input"]) and np.abs(qv - ev["value"]).max() > 1e-3)


def test_data(np, torch, net, tmp):
    """network_data against the evaluation of its own sample positions, a short fit, save's
    checks."""
    lrec = os.path.join(tmp, "cr.lrec")
    p = subprocess.run([LEUCTRA, "selfplay", "--variant", "crossings", "--games", "24", "--visits", "60",
                        "--threads", "2", "--quiet", "--out", lrec], capture_output=True, text=True)
    check("selfplay for the network's data", p.returncode == 0, p.stderr)
    data = leuctra.network_data(lrec, inputs="both", validation=0.25)
    meta, train = data["meta"], data["train"]
    check("network_data: the counts add up", meta["games"] == 24 and meta["positions_train"] == len(train["bucket"]) and
          meta["positions_validation"] == len(data["validation"]["bucket"]) and
          meta["policy_train"] == int((np.diff(train["move_start"]) > 0).sum()) > 0, meta)
    model = net.NetworkModel(meta, hidden=16, seed=3, heads=True)
    path = os.path.join(tmp, "data.lwt")
    net.save(path, model, sample=data)
    ev = net.evaluate(path, train["sample"], "crossings")
    rows = train["sample_row"]
    same_inputs = all(np.array_equal(train["input"][train["input_start"][r]:train["input_start"][r + 1]],
                                     ev["input"][ev["input_start"][k]:ev["input_start"][k + 1]])
                      for k, r in enumerate(rows))
    check("network_data's inputs, buckets and skip values are the library's evaluation's", same_inputs and
          np.array_equal(train["bucket"][rows], ev["bucket"]) and
          np.array_equal(train["skip_value"][rows], ev["skip_value"]), len(rows))
    moves_ok = True
    for k, r in enumerate(rows):
        lo, hi = train["move_start"][r], train["move_start"][r + 1]
        if hi > lo:
            elo, ehi = ev["move_start"][k], ev["move_start"][k + 1]
            moves_ok &= (np.array_equal(train["action"][lo:hi], ev["action"][elo:ehi]) and
                         np.array_equal(train["skip_prior"][lo:hi], ev["skip_prior"][elo:ehi]))
    check("network_data's actions and skip priors are the library's evaluation's", moves_ok)
    fresh = net.NetworkModel(meta, hidden=16, seed=3)
    history = net.train(fresh, data, epochs=2, batch=128)
    check("a short fit lowers the training loss", history[-1]["train"]["total"] < history[0]["train"]["total"],
          [h["train"]["total"] for h in history])
    other = net.describe("crossings", inputs="both", shapes="base")
    try:
        net.save(os.path.join(tmp, "x.lwt"), net.NetworkModel(other, hidden=16), weights=path)
        refused = ""
    except leuctra.InputError as e:
        refused = str(e)
    check("save refuses base weights other than the model's", "not those the model was made for" in refused, refused)
    return data


def test_refusals(np, net, tmp):
    meta = net.describe("reversi", inputs="squares")
    model = net.NetworkModel(meta, hidden=16)
    cases = [
        ("an unknown input set", lambda: net.describe("reversi", inputs="planes"), leuctra.InputError, "inputs"),
        ("unknown shapes", lambda: net.describe("crossings", shapes="hexagons"), leuctra.InputError, "hexagons"),
        ("a .txt output", lambda: net.save(os.path.join(tmp, "n.txt"), model), leuctra.InputError, ".lwt"),
        ("a position of another game", lambda: net.save(os.path.join(tmp, "n.lwt"), model, sample=["start"]),
         leuctra.InputError, "position 0"),
        ("weights without a network", lambda: net.evaluate(None, ["start"], "reversi"), leuctra.InputError,
         "has no network"),
        ("a missing records file", lambda: leuctra.network_data(os.path.join(tmp, "none.lrec")), leuctra.InputError,
         "none.lrec"),
        ("validation out of range", lambda: leuctra.network_data("x.lrec", validation=1.5), leuctra.InputError,
         "validation"),
        ("hidden not a multiple of 16", lambda: net.NetworkModel(meta, hidden=40), leuctra.InputError, "multiple"),
    ]
    for what, call, kind, word in cases:
        try:
            call()
            got = "no exception"
        except kind as e:
            got = str(e)
        except Exception as e:      # noqa: BLE001 (the wrong kind is the failure reported)
            got = "%s: %s" % (type(e).__name__, e)
        check("refused with one line: %s" % what, word in got and "\n" not in got, got)
    with torch_nan(model):
        try:
            net.save(os.path.join(tmp, "nan.lwt"), model)
            got = ""
        except leuctra.InputError as e:
            got = str(e)
    check("a weight that is not a number is refused, naming its array", got.startswith("w2[0] is nan"), got)
    base = os.path.join(tmp, "base.lwt")
    shutil.copy(os.path.join(ROOT, "data", "weights", "reversi.lwt"), base)
    before = open(base, "rb").read()
    mine = net.NetworkModel(net.describe("reversi", inputs="squares", weights=base), hidden=16)
    try:
        net.save(base, mine)
        got = ""
    except leuctra.InputError as e:
        got = str(e)
    check("save refuses to write over its own base weights", "is the base weights file" in got and
          open(base, "rb").read() == before, got)
    os.remove(base)
    check("no file is left by the refusals", not any(n.startswith(("n.", "nan.")) for n in os.listdir(tmp)),
          os.listdir(tmp))


class torch_nan:
    """A model with w2[0] NaN for the block."""

    def __init__(self, model):
        self.model = model

    def __enter__(self):
        import torch
        with torch.no_grad():
            self.old = float(self.model.w2[0, 0])
            self.model.w2[0, 0] = float("nan")

    def __exit__(self, *exc):
        import torch
        with torch.no_grad():
            self.model.w2[0, 0] = self.old


def main():
    test_without_torch()
    try:
        import numpy as np
    except ImportError:
        print("skip: numpy not installed for %s (apt-get install python3-numpy), so no network tests" % sys.executable)
        return summary()
    try:
        import torch
    except ImportError:
        print("skip: PyTorch not installed for %s (apt-get install python3-torch), so no network tests"
              % sys.executable)
        return summary()
    import leuctra.net as net
    torch.manual_seed(0)
    tmp = tempfile.mkdtemp(prefix="leuctra-network-")
    try:
        test_refusals(np, net, tmp)
        test_data(np, torch, net, tmp)
        test_agreement(np, torch, net, tmp)
    finally:
        shutil.rmtree(tmp, ignore_errors=True)
    return summary()


if __name__ == "__main__":
    sys.exit(main())
