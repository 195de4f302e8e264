"""leuctra.net: the network of docs/NETWORK.md trained in PyTorch, from the same positions the C
fit reads, and written and evaluated by the library, so that a file has one format and one
quantization whoever trained it.

    data = leuctra.network_data("run1.lrec", inputs="both")     # numpy arrays, as the C fit's
    model = leuctra.net.NetworkModel(data["meta"], hidden=64)    # a torch.nn.Module
    leuctra.net.train(model, data, epochs=20)                   # Adam, value + policy, early stop
    leuctra.net.save("net.lwt", model, sample=data)             # through lt_network_save
    # leuctra match 'mcts:visits=400,weights=net.lwt' mcts:visits=400 --variant crossings

network_data, describe and evaluate need numpy only; NetworkModel, train, losses, save and
quantization_bounds need PyTorch as well (Debian's python3-torch), imported when first used, so
that the package imports without it and says "needs PyTorch (apt-get install python3-torch)"
when a call needs it.

The model, exactly the float model of docs/NETWORK.md: a = b1 + the sum of W1's rows of the
position's active inputs (an input listed twice counts twice: EmbeddingBag in "sum" mode); h1 =
clamp(a, 0, 1); h2 = clamp(b2 + h1 W2, 0, 1) (32 wide); value logit = the base weights' own logit
(skip_value) + bv[b] + wv[b] . h2 for the position's phase bucket b; each legal move's prior
logit = the log of the base weights' prior (skip_prior) + be[a] + we[a] . h2 for its action a,
a softmax over the position's legal moves only.  The base weights' linear weights, tables and
priors are the network's skip path: save writes them into the file beside the network, and the
network learns the correction to them (with zero heads it changes nothing)."""
from __future__ import annotations

import copy
import ctypes
import json
import math
import os
import time
from typing import Any, Callable, Dict, List, Optional, Sequence, Union

from . import _args
from ._errors import InputError, LeuctraError
from ._lib import FAILED, INPUT, OK, lib

try:
    import numpy as np
except ImportError:
    np = None

__all__ = ["network_data", "describe", "evaluate", "NetworkModel", "make_batch", "train", "losses", "save",
           "predict", "quantization_bounds", "INPUTS", "ARRAY_NAMES"]

# api/leuctra_api.h's LT_NETWORK_*: the input sets, the arrays of a file in their order, the
# second layer's width and the limits of a call.
INPUTS = {"patterns": 1, "squares": 2, "both": 3}
ARRAY_NAMES = ("w1", "b1", "w2", "b2", "wv", "bv", "we", "be")
L2 = 32
MAX_POSITIONS = 1 << 22
MAX_FILES = 4096
MIN_HIDDEN, MAX_HIDDEN = 16, 256
# tuner/tune_network_data.h's TUNE_NETWORK_LOG_PRIOR_FLOOR: the log prior of a move the base
# weights give no chance.
LOG_PRIOR_FLOOR = -69.0

_ERR_LEN = 512
_JSON_LEN = 4096
_INT_MAX = 2 ** 31 - 1
PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]
# A set's arrays as lt_network_data_fetch gives them, and the dtypes they come in (the starts and
# the indices are the C arrays' bytes read as signed: every value is far below 2^31).
_SET_FIELDS = ("input_start", "input", "bucket", "skip_value", "target", "result", "move_start", "action",
               "skip_prior", "share")
_EVAL_FIELDS = ("input_start", "input", "bucket", "value", "skip_value", "move_start", "action", "prior",
                "skip_prior")
_DTYPES = {"input_start": "int64", "input": "int32", "bucket": "uint8", "skip_value": "float64", "target": "float64",
           "result": "float32", "move_start": "int64", "action": "int32", "skip_prior": "float32", "share": "float32",
           "value": "float64", "prior": "float32"}


def _need_numpy() -> None:
    if np is None:
        raise ImportError("leuctra.net needs numpy (apt-get install python3-numpy)")


def _torch() -> Any:
    """torch, or ImportError in one line saying how to get it."""
    try:
        import torch
    except ImportError:
        raise ImportError("leuctra.net: this needs PyTorch (apt-get install python3-torch)") from None
    return torch


def _raise(status: int, err: ctypes.Array) -> None:
    msg = err.value.decode("utf-8", "replace")
    raise (InputError if status == INPUT else LeuctraError)(msg)


def _raise_new(err: ctypes.Array) -> None:
    """The failure of a call that returns a handle (NULL): memory is the library's failure, the
    rest bad input."""
    _raise(FAILED if b"out of memory" in err.value else INPUT, err)


def _inputs(value: Any) -> int:
    if not isinstance(value, str):
        raise TypeError("inputs must be a str (%s), not %s" % (", ".join(INPUTS), type(value).__name__))
    if value not in INPUTS:
        raise InputError("inputs must be patterns, squares or both, got %r" % value[:40])
    return INPUTS[value]


def _optional_text(value: Any, name: str) -> Optional[bytes]:
    return None if value is None else _args.text(value, name)


def _size_text(size: Any) -> Optional[bytes]:
    """A board size as lt_game_new reads it: None, "WxH", or (w, h)."""
    if size is None:
        return None
    if isinstance(size, str):
        return _args.text(size, "size")
    if isinstance(size, (tuple, list)) and len(size) == 2:
        w, h = (_args.integer(v, "size", 1, 4096) for v in size)
        return b"%dx%d" % (w, h)
    raise TypeError("size must be None, a str such as '8x8' or a pair of integers, not %s" % type(size).__name__)


def _positions_array(positions: Sequence[str], name: str) -> Any:
    """A list of position strings as a C array of char * (the list keeps the bytes alive)."""
    if isinstance(positions, (str, bytes)) or not isinstance(positions, Sequence):
        raise TypeError("%s must be a sequence of position strings, not %s" % (name, type(positions).__name__))
    if len(positions) > MAX_POSITIONS:
        raise InputError("%s: %d positions, more than %d a call" % (name, len(positions), MAX_POSITIONS))
    encoded = [_args.text(p, "%s[%d]" % (name, i)) for i, p in enumerate(positions)]
    return (ctypes.c_char_p * max(len(encoded), 1))(*encoded), len(encoded)


def _json(call: Callable[[ctypes.Array, int], int]) -> Dict[str, Any]:
    buf = ctypes.create_string_buffer(_JSON_LEN)
    status = call(buf, _JSON_LEN)
    if status != OK:
        raise LeuctraError("the library's description does not fit in %d bytes" % _JSON_LEN)
    return json.loads(buf.value.decode())


# --------------------------------------------------------------------------- numpy only

def describe(variant: str = "epaminondas", size: Any = None, inputs: str = "both", shapes: Optional[str] = None,
             weights: Optional[PathArg] = None) -> Dict[str, Any]:
    """The network's architecture for a game on top of the base weights `weights` (None: the
    shipped ones): variant, width, height, inputs, shapes, families, num_inputs, num_actions,
    buckets and weights_id (the base weights' id), plus "weights" (the path given, or None).
    shapes is the pattern inputs' shape families as `leuctra tune --shapes` reads them
    ("base,2x4"; None: the base weights' tables' shapes, or base)."""
    v, s, i = _args.text(variant, "variant"), _size_text(size), _inputs(inputs)
    sh, w = _optional_text(shapes, "shapes"), _args.optional_path(weights, "weights")
    err = ctypes.create_string_buffer(_ERR_LEN)
    buf = ctypes.create_string_buffer(_JSON_LEN)
    status = lib.lt_network_describe(v, s, w, i, sh, buf, _JSON_LEN, err, _ERR_LEN)
    if status != OK:
        _raise(status, err)
    meta = json.loads(buf.value.decode())
    meta["weights"] = None if w is None else os.fsdecode(w)
    return meta


def _fetch_set(h: int, which: int, err: ctypes.Array) -> Dict[str, Any]:
    counts = [ctypes.c_int64() for _ in range(4)]
    status = lib.lt_network_data_size(h, which, *(ctypes.byref(c) for c in counts), err, _ERR_LEN)
    if status != OK:
        _raise(status, err)
    n, inputs, moves, samples = (c.value for c in counts)
    length = {"input_start": n + 1, "move_start": n + 1, "input": inputs, "action": moves, "skip_prior": moves,
              "share": moves}
    out = {k: np.empty(length.get(k, n), _DTYPES[k]) for k in _SET_FIELDS}
    status = lib.lt_network_data_fetch(h, which, *(out[k].ctypes.data for k in _SET_FIELDS), err, _ERR_LEN)
    if status != OK:
        _raise(status, err)
    text = ctypes.create_string_buffer(1024)
    row = ctypes.c_int64()
    sample, rows = [], np.empty(samples, np.int64)
    for k in range(samples):
        status = lib.lt_network_data_sample(h, which, k, ctypes.byref(row), text, 1024, err, _ERR_LEN)
        if status != OK:
            _raise(status, err)
        sample.append(text.value.decode())
        rows[k] = row.value
    out["sample"], out["sample_row"] = sample, rows
    return out


def network_data(records: Union[PathArg, Sequence[PathArg]], weights: Optional[PathArg] = None, inputs: str = "both",
                 shapes: Optional[str] = None, skip_opening: int = 0, validation: float = 0.1, lambda_: float = 0.5,
                 min_visits: int = 50, threads: int = 0) -> Dict[str, Any]:
    """The positions a network fit learns from, exactly as the C fit reads them
    (tuner/tune_network_data.h): every position of the records files (a path or a list of paths,
    one game and board) past skip_opening plies (0 to 100,000), each repeat kept where it first
    appears, whole games held out by the hash every fit uses (validation: 0 to 0.9), for a network
    of `inputs` ("patterns", "squares", "both") and `shapes` on top of the base weights `weights`
    (None: the shipped ones).  lambda_ (0 to 1) is the result's share of the value target, the
    search's root value the rest; a ply's visits must sum to min_visits (1 to 2**30) for a policy
    target; threads 0 to leuctra.THREADS_MAX (0: OpenMP's default).

    Returns {"train": set, "validation": set, "meta": ...}.  A set is a dict of numpy arrays,
    compressed rows: position i's active inputs are input[input_start[i]:input_start[i + 1]]
    (int32, ascending, an input two pattern instances read listed twice), its moves (those of the
    positions with visit shares, in the order the rules generate them) action, skip_prior (the log
    of the base weights' prior, at least -69) and share (of the visits) [move_start[i]:move_start[i
    + 1]]; bucket (uint8), skip_value (the base weights' value logit), target (the blended value
    target) and result per position; "sample" (up to 20,000 positions kept whole, as position
    strings: for save's quantization) and "sample_row" (their rows).  meta is describe()'s, with
    the counts (games, games_train, games_validation, positions_read, positions_train,
    positions_validation, policy_train, policy_validation), the options and "records"."""
    _need_numpy()
    paths = [records] if isinstance(records, (str, bytes, os.PathLike)) else records
    if not isinstance(paths, Sequence):
        raise TypeError("records must be a path or a sequence of paths, not %s" % type(records).__name__)
    if not 1 <= len(paths) <= MAX_FILES:
        raise InputError("records: from 1 to %d files, got %d" % (MAX_FILES, len(paths)))
    encoded = [_args.path(p, "records[%d]" % k) for k, p in enumerate(paths)]
    w, i = _args.optional_path(weights, "weights"), _inputs(inputs)
    sh = _optional_text(shapes, "shapes")
    skip = _args.integer(skip_opening, "skip_opening", 0, 100000)
    held = _args.real(validation, "validation", 0, 0.9)
    lam = _args.real(lambda_, "lambda_", 0, 1)
    visits = _args.integer(min_visits, "min_visits", 1, 1 << 30)
    from .game import _threads
    n_threads = _threads(threads)
    err = ctypes.create_string_buffer(_ERR_LEN)
    array = (ctypes.c_char_p * len(encoded))(*encoded)
    h = lib.lt_network_data_new(array, len(encoded), w, i, sh, skip, held, lam, visits, n_threads, err, _ERR_LEN)
    if not h:
        _raise_new(err)
    try:
        meta = _json(lambda buf, n: lib.lt_network_data_info(h, buf, n))
        sets = {"train": _fetch_set(h, 0, err), "validation": _fetch_set(h, 1, err)}
    finally:
        lib.lt_network_data_free(h)
    meta["weights"] = None if w is None else os.fsdecode(w)
    meta["records"] = [os.fsdecode(p) for p in encoded]
    sets["meta"] = meta
    return sets


def evaluate(weights: Optional[PathArg], positions: Sequence[str], variant: str = "epaminondas",
             size: Any = None) -> Dict[str, Any]:
    """The weights file's network (it must have one; None: the shipped weights) evaluated by the
    library's integer path, as the search reads it, on the position strings given (up to 2**22):
    the arrays of a network_data set for these positions (input_start, input, bucket, skip_value,
    move_start, and every legal move's action and skip_prior), plus value (the whole value
    logit, the network's correction included) per position and prior (skip_prior + the network's
    correction: the logit the search's softmax reads) per move; "meta" is describe()'s for the
    file's network, with hidden and its quantization (shift1, shift2, scale_v, scale_e)."""
    _need_numpy()
    v, s, w = _args.text(variant, "variant"), _size_text(size), _args.optional_path(weights, "weights")
    array, n = _positions_array(positions, "positions")
    err = ctypes.create_string_buffer(_ERR_LEN)
    h = lib.lt_network_eval_new(v, s, w, err, _ERR_LEN)
    if not h:
        _raise_new(err)
    try:
        meta = _json(lambda buf, k: lib.lt_network_eval_info(h, buf, k))
        inputs, moves = ctypes.c_int64(), ctypes.c_int64()
        status = lib.lt_network_eval_run(h, array, n, ctypes.byref(inputs), ctypes.byref(moves), err, _ERR_LEN)
        if status != OK:
            _raise(status, err)
        length = {"input_start": n + 1, "move_start": n + 1, "input": inputs.value, "action": moves.value,
                  "prior": moves.value, "skip_prior": moves.value}
        out = {k: np.empty(length.get(k, n), _DTYPES[k]) for k in _EVAL_FIELDS}
        lib.lt_network_eval_fetch(h, *(out[k].ctypes.data for k in _EVAL_FIELDS))
    finally:
        lib.lt_network_eval_free(h)
    meta["weights"] = None if w is None else os.fsdecode(w)
    out["meta"] = meta
    return out


# --------------------------------------------------------------------------- PyTorch

_classes: Dict[str, Any] = {}


def _check_meta(meta: Any) -> Dict[str, Any]:
    if not isinstance(meta, dict):
        raise TypeError("meta must be a dict (network_data()['meta'] or describe()), not %s" % type(meta).__name__)
    for key in ("variant", "width", "height", "inputs", "shapes", "num_inputs", "num_actions", "buckets",
                "weights_id"):
        if key not in meta:
            raise InputError("meta has no %s: give network_data()['meta'] or describe()" % key)
    for key, most in (("num_inputs", 1 << 24), ("num_actions", 1 << 24), ("buckets", 64)):
        _args.integer(meta[key], "meta's " + key, 1, most)
    return meta


def _model_class() -> Any:
    """NetworkModel, made on first use (it subclasses torch.nn.Module)."""
    if "NetworkModel" in _classes:
        return _classes["NetworkModel"]
    torch = _torch()

    class NetworkModel(torch.nn.Module):
        """docs/NETWORK.md's float model as a torch.nn.Module, for the architecture of `meta`
        (network_data()["meta"] or describe()), H `hidden` (16 to 256, a multiple of 16).
        Initialised as the C fit starts (network_randomize): W1 uniform in +-0.02, b1 in 0.5 +-
        0.1, W2 in +-0.3, b2 in 0.5 +- 0.1, and the heads zero (a network that changes nothing
        until trained) or, with heads=True, uniform in +-1 (biases +-0.2); from `seed`.

        W1 and the action embeddings (we, be) are read through sparse lookups: their gradients
        touch only the rows a batch uses, and train steps them with SparseAdam, as the C fit's
        lazy Adam.  forward(batch) takes make_batch()'s dict and gives (value logits [B], prior
        logits [M]); forward(batch, model.quantized(info)) runs the same code on the integers
        the library makes of the saved model (docs/NETWORK.md, "Integers"), which equal the C
        evaluation's."""

        def __init__(self, meta: Dict[str, Any], hidden: int = 64, seed: int = 1, heads: bool = False) -> None:
            super().__init__()
            self.meta = dict(_check_meta(meta))
            self.hidden = _args.integer(hidden, "hidden", MIN_HIDDEN, MAX_HIDDEN)
            if self.hidden % 16:
                raise InputError("hidden must be a multiple of 16, got %d" % self.hidden)
            inputs, actions, buckets = self.meta["num_inputs"], self.meta["num_actions"], self.meta["buckets"]
            shapes = {"w1": (inputs, self.hidden), "b1": (self.hidden,), "w2": (self.hidden, L2), "b2": (L2,),
                      "wv": (buckets, L2), "bv": (buckets,), "we": (actions, L2), "be": (actions, 1)}
            for name in ARRAY_NAMES:
                setattr(self, name, torch.nn.Parameter(torch.zeros(shapes[name])))
            self.randomize(_args.integer(seed, "seed", 0, 2 ** 63 - 1), _args.flag(heads, "heads"))

        def arrays(self) -> List[Any]:
            """The eight parameters in the file's order (w1, b1, w2, b2, wv, bv, we, be)."""
            return [getattr(self, name) for name in ARRAY_NAMES]

        def randomize(self, seed: int, heads: bool) -> None:
            """The start of a fit (see the class): hidden layers at random, heads random or zero."""
            g = torch.Generator().manual_seed(seed)
            ranges = (0.02, 0.1, 0.3, 0.1, 1.0, 0.2, 1.0, 0.2)
            centres = (0, 0.5, 0, 0.5, 0, 0, 0, 0)
            with torch.no_grad():
                for k, p in enumerate(self.arrays()):
                    if k >= 4 and not heads:
                        p.zero_()
                    else:
                        p.copy_(centres[k] + (torch.rand(p.shape, generator=g) * 2 - 1) * ranges[k])

        def _float_layers(self) -> Dict[str, Any]:
            clip = lambda x: x.clamp(0, 1)      # noqa: E731
            layers = {name: getattr(self, name) for name in ARRAY_NAMES}
            layers.update(act1=clip, act2=clip, value_unit=1.0, prior_unit=1.0, sparse=True)
            return layers

        def quantized(self, info: Dict[str, Any]) -> Dict[str, Any]:
            """The integers the library makes of this model for a file whose quantization `info`
            gives (evaluate()'s meta: shift1, shift2, scale_v, scale_e), as core/network.c makes
            them (the same roundings, in the same float and double arithmetic), for forward."""
            s1, s2 = _args.integer(info["shift1"], "shift1", 0, 10), _args.integer(info["shift2"], "shift2", 0, 10)
            sv32 = torch.tensor(float(info["scale_v"]), dtype=torch.float32)
            se32 = torch.tensor(float(info["scale_e"]), dtype=torch.float32)

            def q(x: Any, limit: float) -> Any:
                return x.double().round().clamp(-limit, limit)      # nearbyint, then to_int*'s clamp

            def floor_shift(x: Any, shift: int) -> Any:
                return torch.floor(x / 2 ** shift).clamp(0, 127)    # (x <= 0 ? 0 : x >> shift), at most 127

            with torch.no_grad():
                d = {name: getattr(self, name).detach() for name in ARRAY_NAMES}
                layers = {"w1": q(d["w1"].double() * (127.0 * 2 ** s1), 32767),
                          "b1": q(d["b1"].double() * (127.0 * 2 ** s1), 32767),
                          "w2": q(d["w2"].double() * 2 ** s2, 127),
                          "b2": q(d["b2"].double() * 127.0 * 2 ** s2, 2147483647),
                          "wv": q(d["wv"].float() * sv32, 127),     # float x float, as in C
                          "bv": q(d["bv"].double() * 127.0 * sv32.double(), 2147483647),
                          "we": q(d["we"].float() * se32, 127),
                          "be": q(d["be"].double() * 127.0 * se32.double(), 2147483647)}
            wrap = lambda a: torch.remainder(a + 32768, 65536) - 32768     # noqa: E731 (int16 adds wrap)
            layers.update(act1=lambda a: floor_shift(wrap(a), s1), act2=lambda z: floor_shift(z, s2),
                          value_unit=127.0 * float(sv32), prior_unit=127.0 * float(se32), sparse=False)
            return layers

        def forward(self, batch: Dict[str, Any], quantized: Optional[Dict[str, Any]] = None) -> Any:
            f = torch.nn.functional
            p = self._float_layers() if quantized is None else quantized
            a = f.embedding_bag(batch["input"], p["w1"], batch["offsets"], mode="sum", sparse=p["sparse"]) + p["b1"]
            h1 = p["act1"](a)
            h2 = p["act2"](h1 @ p["w2"] + p["b2"])
            b, act = batch["bucket"], batch["action"]
            value = batch["skip_value"] + (p["bv"][b] + (p["wv"][b] * h2).sum(1)) / p["value_unit"]
            we = f.embedding(act, p["we"], sparse=p["sparse"])
            be = f.embedding(act, p["be"], sparse=p["sparse"])[:, 0]
            prior = batch["skip_prior"] + (be + (we * h2[batch["move_position"]]).sum(1)) / p["prior_unit"]
            return value, prior

    NetworkModel.__module__ = __name__
    NetworkModel.__qualname__ = "NetworkModel"
    _classes["NetworkModel"] = NetworkModel
    return NetworkModel


def __getattr__(name: str) -> Any:
    # NetworkModel subclasses torch.nn.Module, so it is made when first asked for (PEP 562): the
    # module imports without PyTorch.
    if name == "NetworkModel":
        return _model_class()
    raise AttributeError("module %r has no attribute %r" % (__name__, name))


_BATCH_NEEDS = ("input_start", "input", "bucket", "skip_value", "move_start", "action", "skip_prior")


def _check_arrays(arrays: Any) -> None:
    """A network_data set or an evaluate() result: its arrays are there and are numpy's."""
    if not isinstance(arrays, dict):
        raise TypeError("the arrays must be a dict (a network_data set or an evaluate() result), not %s"
                        % type(arrays).__name__)
    for key in _BATCH_NEEDS:
        if not isinstance(arrays.get(key), np.ndarray) or arrays[key].ndim != 1:
            raise InputError("the arrays have no 1-D %s: give a network_data set (data['train']) or an evaluate() "
                             "result" % key)
    n = len(arrays["bucket"])
    if len(arrays["input_start"]) != n + 1 or len(arrays["move_start"]) != n + 1:
        raise InputError("the arrays' starts do not have one entry more than their %d positions" % n)


def _check_model(model: Any) -> None:
    if not isinstance(model, _model_class()):
        raise TypeError("model must be a leuctra.net.NetworkModel, not %s" % type(model).__name__)


def _rows_of(arrays: Dict[str, Any], rows: Any) -> Any:
    _check_arrays(arrays)
    n = len(arrays["input_start"]) - 1
    r = np.arange(n) if rows is None else np.asarray(rows, dtype=np.int64)
    if r.ndim != 1 or (r.size and (int(r.min()) < 0 or int(r.max()) >= n)):
        raise InputError("rows must be a 1-D array of row numbers from 0 to %d" % (n - 1))
    return r


def _gather(start: Any, rows: Any) -> Any:
    """For CSR starts and rows: the indices of the rows' entries, in order, and their lengths."""
    lo, hi = start[rows], start[rows + 1]
    lengths = hi - lo
    first = np.cumsum(lengths) - lengths
    idx = np.repeat(lo - first, lengths) + np.arange(int(lengths.sum()), dtype=np.int64)
    return idx, lengths


def make_batch(arrays: Dict[str, Any], rows: Any = None, double: bool = False) -> Dict[str, Any]:
    """The torch tensors of the given rows (None: all) of a network_data set or an evaluate()
    result: input and offsets (the EmbeddingBag's), bucket, skip_value, target and result where
    the arrays have them; move_position (the batch row of each move), action, skip_prior and share
    (where the arrays have it) of the rows' moves.  Real numbers as float32, or float64 where
    `double` (skip_value as the library computed it, for the integers' exact comparison)."""
    torch = _torch()
    real = np.float64 if double else np.float32
    r = _rows_of(arrays, rows)
    idx, lengths = _gather(arrays["input_start"], r)
    midx, mlengths = _gather(arrays["move_start"], r)
    out = {"input": torch.from_numpy(arrays["input"][idx].astype(np.int64)),
           "offsets": torch.from_numpy((np.cumsum(lengths) - lengths).astype(np.int64)),
           "bucket": torch.from_numpy(arrays["bucket"][r].astype(np.int64)),
           "skip_value": torch.from_numpy(arrays["skip_value"][r].astype(real)),
           "move_position": torch.from_numpy(np.repeat(np.arange(len(r), dtype=np.int64), mlengths)),
           "action": torch.from_numpy(arrays["action"][midx].astype(np.int64)),
           "skip_prior": torch.from_numpy(arrays["skip_prior"][midx].astype(real))}
    for k in ("target", "result"):
        if k in arrays:
            out[k] = torch.from_numpy(arrays[k][r].astype(np.float32))
    if "share" in arrays:
        out["share"] = torch.from_numpy(arrays["share"][midx].astype(np.float32))
    return out


def _objective(model: Any, batch: Dict[str, Any]) -> Any:
    """(value loss sum, policy loss sum, positions with a policy target) of a batch: the value's
    cross-entropy against the blended target, the priors' against the visit shares."""
    torch = _torch()
    value, prior = model(batch)
    value_sum = torch.nn.functional.binary_cross_entropy_with_logits(value, batch["target"], reduction="sum")
    seg, count = batch["move_position"], len(batch["bucket"])
    if len(seg) == 0:
        return value_sum, value_sum * 0, 0
    # each position's moves in a row of a padded matrix (far below any logit where there is no
    # move: a finite fill, so that a row of none has a finite gradient), then log-softmax by row
    moves = torch.bincount(seg, minlength=count)
    slot = torch.arange(len(seg)) - (torch.cumsum(moves, 0) - moves)[seg]
    padded = torch.full((count, int(moves.max())), -1e30, dtype=prior.dtype)
    padded[seg, slot] = prior
    log_prob = prior - torch.logsumexp(padded, 1)[seg]
    policy_sum = -(batch["share"] * log_prob).sum()
    return value_sum, policy_sum, int((moves > 0).sum())


def losses(model: Any, arrays: Dict[str, Any], policy_weight: float = 1.0, batch: int = 4096) -> Dict[str, float]:
    """The float model's losses on a set, as the C fit reports them: value (mean cross-entropy per
    position), policy (mean per position with a policy target) and total (value + policy_weight x
    the policy's sum, per position); NaN for none."""
    torch = _torch()
    _check_model(model)
    _check_arrays(arrays)
    n = len(arrays["input_start"]) - 1
    value = policy = 0.0
    with_policy = 0
    with torch.no_grad():
        for lo in range(0, n, batch):
            v, p, k = _objective(model, make_batch(arrays, np.arange(lo, min(n, lo + batch))))
            value, policy, with_policy = value + float(v), policy + float(p), with_policy + k
    if n == 0:
        return {"value": math.nan, "policy": math.nan, "total": math.nan}
    return {"value": value / n, "policy": policy / with_policy if with_policy else math.nan,
            "total": (value + policy_weight * policy) / n}


def _penalty(model: Any, batch: Dict[str, Any]) -> Any:
    """The squares of the weights a batch touches (not the biases): the W1 rows and action
    embeddings it reads (as the C fit's lazy penalty), W2 and the value head."""
    torch = _torch()
    f = torch.nn.functional
    rows = f.embedding(torch.unique(batch["input"]), model.w1, sparse=True)
    acts = f.embedding(torch.unique(batch["action"]), model.we, sparse=True)
    return (rows ** 2).sum() + (acts ** 2).sum() + (model.w2 ** 2).sum() + (model.wv ** 2).sum()


def train(model: Any, data: Dict[str, Any], epochs: int = 20, batch: int = 256, learning_rate: float = 0.002,
          policy_weight: float = 1.0, l2: float = 1e-6, patience: int = 2, seed: int = 1,
          on_epoch: Optional[Callable[[Dict[str, Any]], None]] = None) -> List[Dict[str, Any]]:
    """Fits model to network_data()'s training set as the C fit does (tuner/tune_network.h):
    mini-batches of `batch` positions in a seeded order, the objective the mean value
    cross-entropy + policy_weight x the policy cross-entropy's sum per position + l2/2 x the
    squares of the weights the batch touches; Adam (SparseAdam on W1 and the action embeddings)
    at learning_rate; after each epoch the validation set's loss decides: a better one keeps the
    weights, a worse one restores the best and halves the step, and more than `patience` halvings
    end the fit (no validation set: every epoch is kept).  The model is left with the best
    epoch's weights.  Returns one dict an epoch (epoch 0 the start): epoch, train and validation
    losses (losses()'s), learning_rate, seconds, best; on_epoch gets each as it comes."""
    torch = _torch()
    _check_model(model)
    if not isinstance(data, dict) or "train" not in data or "validation" not in data:
        raise InputError("data must be network_data()'s result (its train and validation sets)")
    for name in ("train", "validation"):
        _check_arrays(data[name])
        for key in ("target", "share"):
            if not isinstance(data[name].get(key), np.ndarray):
                raise InputError("data's %s set has no %s: give network_data()'s result" % (name, key))
    epochs = _args.integer(epochs, "epochs", 0, 1000)
    per = _args.integer(batch, "batch", 1, 1 << 26)
    rate = _args.real(learning_rate, "learning_rate", 1e-9, 10)
    pw = _args.real(policy_weight, "policy_weight", 0, 100)
    l2 = _args.real(l2, "l2", 0, 1e6)
    patience = _args.integer(patience, "patience", 0, 100)
    rng = np.random.default_rng(_args.integer(seed, "seed", 0, 2 ** 64 - 1))
    train_set, valid_set = data["train"], data["validation"]
    n = len(train_set["input_start"]) - 1
    if n == 0:
        raise InputError("no training positions")
    judged = len(valid_set["input_start"]) > 1
    sparse = [model.w1, model.we, model.be]
    dense = [model.b1, model.w2, model.b2, model.wv, model.bv]
    optimizers = [torch.optim.Adam(dense, lr=rate), torch.optim.SparseAdam(sparse, lr=rate)]
    start = time.monotonic()

    def measure(epoch: int, train_loss: Dict[str, float], best: bool) -> Dict[str, Any]:
        e = {"epoch": epoch, "train": train_loss, "validation": losses(model, valid_set, pw) if judged else
             {"value": math.nan, "policy": math.nan, "total": math.nan}, "learning_rate": rate,
             "seconds": time.monotonic() - start, "best": best}
        return e

    history = [measure(0, losses(model, train_set, pw), True)]
    if on_epoch:
        on_epoch(history[0])
    best_loss = history[0]["validation"]["total"] if judged else math.inf
    best_state = copy.deepcopy(model.state_dict())
    halvings = 0
    for epoch in range(1, epochs + 1):
        if halvings > patience:
            break
        order = rng.permutation(n)
        sums = [0.0, 0.0, 0]
        for lo in range(0, n, per):
            b = make_batch(train_set, order[lo:lo + per])
            v, p, k = _objective(model, b)
            count = len(b["bucket"])
            loss = (v + pw * p) / count + (l2 / 2) * _penalty(model, b) if l2 else (v + pw * p) / count
            for o in optimizers:
                o.zero_grad()
            loss.backward()
            for o in optimizers:
                o.step()
            sums = [sums[0] + float(v), sums[1] + float(p), sums[2] + k]
        train_loss = {"value": sums[0] / n, "policy": sums[1] / sums[2] if sums[2] else math.nan,
                      "total": (sums[0] + pw * sums[1]) / n}
        e = measure(epoch, train_loss, False)
        e["best"] = not judged or e["validation"]["total"] < best_loss - 1e-7 * abs(best_loss)
        if e["best"]:
            best_loss = e["validation"]["total"] if judged else best_loss
            best_state = copy.deepcopy(model.state_dict())
        else:
            model.load_state_dict(best_state)
            rate /= 2
            for o in optimizers:
                for group in o.param_groups:
                    group["lr"] = rate
            halvings += 1
        history.append(e)
        if on_epoch:
            on_epoch(e)
    model.load_state_dict(best_state)
    return history


def _sample_of(sample: Any) -> Sequence[str]:
    if sample is None:
        return []
    if isinstance(sample, dict):
        train = sample.get("train")
        if not isinstance(train, dict) or not isinstance(train.get("sample"), list):
            raise InputError("sample: a dict must be network_data()'s result, with data['train']['sample']")
        return train["sample"]
    return sample


_FROM_META = object()     # save's default weights: the model's meta's


def save(path: PathArg, model: Any, weights: Any = _FROM_META, sample: Any = None, note: Optional[str] = None) -> None:
    """Writes model as a weights file (a table file, .lwt) through the library (lt_network_save):
    the base weights `weights` (by default those the model's meta names: network_data's, or
    None for the shipped ones) with the model's network beside them as their skip path's
    correction, quantized by the library's one quantization over `sample` (network_data()'s
    result: its training set's sample; or a sequence of position strings; None: the weights'
    worst case, a coarser first layer), written atomically with provenance comments and `note`.
    The base weights must be those the model was made for (the same id): a network learns the
    correction to one skip path.  `leuctra match 'mcts:weights=PATH' ...` then plays it."""
    torch = _torch()
    _check_model(model)
    meta = model.meta
    out = _args.path(path, "path")
    base = meta.get("weights") if weights is _FROM_META else weights
    w = _args.optional_path(base, "weights")
    size = "%dx%d" % (meta["width"], meta["height"])
    found = describe(meta["variant"], size, meta["inputs"], meta["shapes"], w)
    if found["weights_id"] != meta["weights_id"] or found["num_inputs"] != meta["num_inputs"]:
        raise InputError("the base weights %s (id %s) are not those the model was made for (id %s): a network "
                         "learns the correction to one skip path" % (
                             "shipped" if w is None else os.fsdecode(w), found["weights_id"], meta["weights_id"]))
    with torch.no_grad():
        arrays = [np.ascontiguousarray(p.detach().cpu().numpy(), dtype=np.float32) for p in model.arrays()]
    pointers = (ctypes.c_void_p * len(arrays))(*(a.ctypes.data for a in arrays))
    lengths = (ctypes.c_int64 * len(arrays))(*(a.size for a in arrays))
    positions, n = _positions_array(list(_sample_of(sample)), "sample")
    err = ctypes.create_string_buffer(_ERR_LEN)
    status = lib.lt_network_save(out, _args.text(meta["variant"], "variant"), size.encode(), w,
                                 INPUTS[meta["inputs"]], _args.text(meta["shapes"], "shapes"), model.hidden, pointers,
                                 lengths, positions, n, _optional_text(note, "note"), err, _ERR_LEN)
    if status != OK:
        _raise(status, err)


def predict(model: Any, arrays: Dict[str, Any], quantized: Optional[Dict[str, Any]] = None,
            batch: int = 1024) -> Any:
    """model's value logits [positions] and prior logits [moves] (numpy float64) on all of a
    network_data set or an evaluate() result, `batch` positions at a time, without gradients:
    the float model, or with quantized (model.quantized(info)) the library's integers, in float64
    (skip logits as the library computed them)."""
    torch = _torch()
    _check_model(model)
    _check_arrays(arrays)
    per = _args.integer(batch, "batch", 1, 1 << 26)
    n = len(arrays["input_start"]) - 1
    values, priors = [], []
    with torch.no_grad():
        for lo in range(0, n, per):
            v, p = model(make_batch(arrays, np.arange(lo, min(n, lo + per)), double=quantized is not None), quantized)
            values.append(v.double().numpy())
            priors.append(p.double().numpy())
    empty = np.empty(0, np.float64)
    return (np.concatenate(values) if values else empty), (np.concatenate(priors) if priors else empty)


def quantization_bounds(model: Any, arrays: Dict[str, Any], info: Dict[str, Any], batch: int = 1024) -> Any:
    """How far the library's integer evaluation of the saved model may be from the model's float
    forward pass, position by position (value [positions]) and move by move (prior [moves]), on
    evaluate()'s arrays, with info its meta (the file's shifts and scales).  The bound follows
    each rounding of docs/NETWORK.md's integers through the layers (a rigorous bound, not an
    estimate):

      layer 1: b1 and each of the n active W1 rows are rounded to 1/(127 2^s1), so the sum a is
        off by at most d1 = (n + 1) / (2 x 127 x 2^s1); the shift then floors, which takes off
        less than 1/127: |h1q - h1| <= d1 + 1/127, and exactly 0 where a <= -d1 or a >= 1 + d1
        (both clamps hold);
      layer 2: W2 is rounded to 1/2^s2 and b2 to 1/(127 2^s2): |zq - z| <= 1/(2 x 127 x 2^s2) +
        sum_j |h1q_j - h1_j| (|w2_jk| + 1/2^(s2+1)) + sum_j h1_j / 2^(s2+1) =: d2_k, and h2 as h1;
      heads: weights rounded to 1/scale, biases to 1/(127 scale): |vq - v| <= 1/(2 x 127 x
        scale_v) + sum_k |h2q_k - h2_k| (|wv_k| + 1/(2 scale_v)) + sum_k h2_k / (2 scale_v), and
        the same for each move's prior with we, be, scale_e;

    plus 1e-4 for float32 arithmetic.  It assumes no int16 weight was clipped and no accumulator
    wrapped, which the quantization's range over these positions ensures (save with them as the
    sample)."""
    torch = _torch()
    _check_model(model)
    _check_arrays(arrays)
    per = _args.integer(batch, "batch", 1, 1 << 26)
    s1, s2 = int(info["shift1"]), int(info["shift2"])
    sv, se = float(info["scale_v"]), float(info["scale_e"])
    n = len(arrays["input_start"]) - 1
    f = torch.nn.functional
    values, priors = [], []
    with torch.no_grad():
        w1, b1, w2, b2 = (getattr(model, k).double() for k in ("w1", "b1", "w2", "b2"))
        wv_all, we_all = model.wv.double(), model.we.double()
        half2 = 1 / 2 ** (s2 + 1)
        for lo in range(0, n, per):
            rows = np.arange(lo, min(n, lo + per))
            b = make_batch(arrays, rows)
            counts = torch.from_numpy(np.diff(arrays["input_start"])[rows].astype(np.float64))
            a = f.embedding_bag(b["input"], w1, b["offsets"], mode="sum") + b1
            d1 = ((counts + 1) / (2 * 127 * 2 ** s1))[:, None]
            e1 = torch.where((a <= -d1) | (a >= 1 + d1), torch.zeros_like(a), d1 + 1 / 127)
            h1 = a.clamp(0, 1)
            z = h1 @ w2 + b2
            d2 = 1 / (2 * 127 * 2 ** s2) + e1 @ (w2.abs() + half2) + h1.sum(1, keepdim=True) * half2
            e2 = torch.where((z <= -d2) | (z >= 1 + d2), torch.zeros_like(z), d2 + 1 / 127)
            h2 = z.clamp(0, 1)
            wv = wv_all[b["bucket"]]
            values.append((1 / (2 * 127 * sv) + (e2 * (wv.abs() + 1 / (2 * sv))).sum(1) + h2.sum(1) / (2 * sv)
                           + 1e-4).numpy())
            we, m = we_all[b["action"]], b["move_position"]
            priors.append((1 / (2 * 127 * se) + (e2[m] * (we.abs() + 1 / (2 * se))).sum(1) + h2[m].sum(1) / (2 * se)
                           + 1e-4).numpy())
    empty = np.empty(0, np.float64)
    return (np.concatenate(values) if values else empty), (np.concatenate(priors) if priors else empty)
