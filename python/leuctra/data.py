"""Datasets: records files (.lrec) read straight into arrays through the C library, and the .npz
files of `leuctra records export --format npz`, with the dense targets a network trains on.

Both give the same arrays (docs/TENSORS.md):
  planes       uint8 [N, planes, H, W]   the input planes, from the side to move's view
  legal_count  int16 [N]                 legal actions per position
  legal        int16 [M]                 each position's legal actions, ascending, one after the other
  visits       int32 [M]                 the search's visits of each (policy = visits / their sum)
  played       int16 [N]                 the action played
  result       float32 [N]               the game's result for the side to move: 1, 0.5, 0
  value        float32 [N]               the search's root value for the side to move, NaN if none
  game int64, ply int32, side uint8 (0 White), symmetry uint8 [N]
numpy is needed here."""
import ctypes
import json

from ._lib import lib, OK, INPUT
from .game import LeuctraError, InputError

try:
    import numpy as np
except ImportError:
    np = None

_ERR_LEN = 512
ROW_FIELDS = ("legal_count", "played", "result", "value", "game", "ply", "side", "symmetry")


def _need_numpy():
    if np is None:
        raise ImportError("leuctra: reading datasets into arrays needs numpy")


def read_records(path, augment=False, batch_rows=65536):
    """Every position of a records file as the arrays above (a dict), plus `meta`: variant,
    width, height, num_actions.  augment adds each position's symmetric copies."""
    _need_numpy()
    err = ctypes.create_string_buffer(_ERR_LEN)
    if not isinstance(path, str):
        path = str(path)
    h = lib.lt_records_open(path.encode(), 1 if augment else 0, err, _ERR_LEN)
    if not h:
        raise InputError(err.value.decode("utf-8", "replace"))
    try:
        w, hh, a, c, copies = (ctypes.c_int() for _ in range(5))
        lib.lt_records_shape(h, *(ctypes.byref(x) for x in (w, hh, a, c, copies)))
        meta = {"variant": lib.lt_records_variant(h).decode(), "width": w.value, "height": hh.value,
                "num_actions": a.value, "copies": copies.value, "source": path}
        parts = []
        rows, entries = ctypes.c_long(), ctypes.c_long()
        while True:
            status = lib.lt_records_read(h, batch_rows, ctypes.byref(rows), ctypes.byref(entries), err, _ERR_LEN)
            if status != OK:
                raise (InputError if status == INPUT else LeuctraError)(err.value.decode("utf-8", "replace"))
            n, m = rows.value, entries.value
            if n == 0:
                break
            part = {"planes": np.empty((n, c.value, hh.value, w.value), np.uint8),
                    "legal_count": np.empty(n, np.int16), "legal": np.empty(m, np.int16),
                    "visits": np.empty(m, np.int32), "played": np.empty(n, np.int16),
                    "result": np.empty(n, np.float32), "value": np.empty(n, np.float32),
                    "game": np.empty(n, np.int64), "ply": np.empty(n, np.int32),
                    "side": np.empty(n, np.uint8), "symmetry": np.empty(n, np.uint8)}
            order = ("planes", "legal_count", "legal", "visits", "played", "result", "value", "game", "ply",
                     "side", "symmetry")
            lib.lt_records_fetch(h, *(part[k].ctypes.data for k in order))
            parts.append(part)
    finally:
        lib.lt_records_close(h)
    out = {}
    empty = {"planes": np.empty((0, c.value, hh.value, w.value), np.uint8)}
    for k in ("planes", "legal_count", "legal", "visits", "played", "result", "value", "game", "ply", "side",
              "symmetry"):
        out[k] = np.concatenate([p[k] for p in parts]) if parts else empty.get(k, np.empty(0))
    out["meta"] = meta
    return out


def unpack_planes(packed, meta):
    """planes uint8 [N, planes, H, W] from an export's planes_packed (--packed)."""
    shape = (len(meta.get("planes", [])) or 9, meta["height"], meta["width"])
    count = shape[0] * shape[1] * shape[2]
    return np.unpackbits(packed, axis=1, count=count, bitorder="little").reshape((len(packed),) + shape)


def load_npz(path, unpack=True):
    """An exported .npz as a dict of arrays, with `meta` parsed from its JSON; the planes of a
    --packed export are unpacked into `planes` unless unpack is False."""
    _need_numpy()
    with np.load(path, allow_pickle=False) as f:
        out = {k: f[k] for k in f.files}
    out["meta"] = json.loads(out["meta"].item().decode()) if "meta" in out else {}
    if unpack and "planes_packed" in out:
        out["planes"] = unpack_planes(out.pop("planes_packed"), out["meta"])
    return out


class Dataset:
    """Training batches from read_records()/load_npz() arrays, or a path to either:
    batch(rows) gives planes, the dense policy target (float32 [B, num_actions], the visit
    shares), the legal mask (bool [B, num_actions]), the played action, result and value.
    Rows are positions; a position the search did not visit has an all-zero policy row."""

    def __init__(self, source, augment=False):
        _need_numpy()
        if isinstance(source, str):     # packed planes stay packed until a batch asks for them
            source = load_npz(source, unpack=False) if source.endswith(".npz") else read_records(source, augment=augment)
        self.data = source
        self.meta = source["meta"]
        self.num_actions = int(self.meta["num_actions"])
        if "legal_mask" in source:          # an export with --dense
            self.dense = True
        else:
            self.dense = False
            counts = source["legal_count"].astype(np.int64)
            self.start = np.concatenate([[0], np.cumsum(counts)])
        self.size = len(source["played"])
        self.planes_shape = tuple(source["planes"].shape[1:]) if "planes" in source else (
            len(self.meta["planes"]), self.meta["height"], self.meta["width"])

    def __len__(self):
        return self.size

    def batch(self, rows):
        rows = np.asarray(rows, dtype=np.int64)
        d = self.data
        if self.dense:
            policy = d["policy"][rows].astype(np.float32)
            mask = d["legal_mask"][rows].astype(bool)
        else:
            policy = np.zeros((len(rows), self.num_actions), np.float32)
            mask = np.zeros((len(rows), self.num_actions), bool)
            lo, hi = self.start[rows], self.start[rows + 1]
            lengths = hi - lo
            which = np.repeat(np.arange(len(rows)), lengths)
            first = np.cumsum(lengths) - lengths          # where each row's entries start in idx
            idx = np.repeat(lo - first, lengths) + np.arange(int(lengths.sum()))
            actions = d["legal"][idx].astype(np.int64)
            visits = d["visits"][idx].astype(np.float64)
            mask[which, actions] = True
            sums = np.bincount(which, weights=visits, minlength=len(rows))
            share = np.divide(visits, sums[which], out=np.zeros_like(visits), where=sums[which] > 0)
            policy[which, actions] = share
        planes = d["planes"][rows] if "planes" in d else unpack_planes(d["planes_packed"][rows], self.meta)
        return {"planes": planes, "policy": policy, "legal_mask": mask, "played": d["played"][rows],
                "result": d["result"][rows], "value": d["value"][rows], "game": d["game"][rows]}

    def batches(self, size, rows=None, shuffle=False, seed=0):
        rows = np.arange(self.size) if rows is None else np.asarray(rows)
        if shuffle:
            rows = np.random.default_rng(seed).permutation(rows)
        for i in range(0, len(rows), size):
            yield self.batch(rows[i:i + size])
