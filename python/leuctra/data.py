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
(an .npz export's visits are int16 unless a count passed 32,767).  numpy is needed here.

Paths are str, bytes or os.PathLike (pathlib.Path); a file that is missing, damaged or not what
it should be raises InputError, never another exception."""
from __future__ import annotations

import ctypes
import json
import os
from typing import Any, Dict, Iterator, Mapping, Optional, Union

from . import _args
from ._errors import InputError, LeuctraError
from ._lib import INPUT, OK, lib

try:
    import numpy as np
except ImportError:
    np = None

__all__ = ["read_records", "load_npz", "unpack_planes", "Dataset"]

_ERR_LEN = 512
_LONG_MAX = 2 ** (8 * ctypes.sizeof(ctypes.c_long) - 1) - 1
ROW_FIELDS = ("legal_count", "played", "result", "value", "game", "ply", "side", "symmetry")
# The arrays of a records file, in lt_records_fetch's order, and their types.
_COLUMNS = ("planes", "legal_count", "legal", "visits", "played", "result", "value", "game", "ply", "side",
            "symmetry")
_DTYPES = {"planes": "uint8", "legal_count": "int16", "legal": "int16", "visits": "int32", "played": "int16",
           "result": "float32", "value": "float32", "game": "int64", "ply": "int32", "side": "uint8",
           "symmetry": "uint8"}

PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _need_numpy() -> None:
    if np is None:
        raise ImportError("leuctra: reading datasets into arrays needs numpy")


def _records_batch(h: int, n: int, m: int, shape: tuple) -> Dict[str, Any]:
    part = {k: np.empty((n,) + shape if k == "planes" else (m if k in ("legal", "visits") else n), _DTYPES[k])
            for k in _COLUMNS}
    lib.lt_records_fetch(h, *(part[k].ctypes.data for k in _COLUMNS))
    return part


def read_records(path: PathArg, augment: bool = False, batch_rows: int = 65536) -> Dict[str, Any]:
    """Every position of a records file as the arrays above (a dict), plus `meta`: variant,
    width, height, num_actions, copies, source.  augment adds each position's symmetric copies;
    batch_rows (1 to 2**31 - 1) is how many rows are read from the library at a time."""
    _need_numpy()
    p = _args.path(path, "path")
    aug = _args.flag(augment, "augment")
    per_read = _args.integer(batch_rows, "batch_rows", 1, min(_LONG_MAX, 2 ** 31 - 1))
    err = ctypes.create_string_buffer(_ERR_LEN)
    h = lib.lt_records_open(p, 1 if aug else 0, err, _ERR_LEN)
    if not h:
        raise InputError(err.value.decode("utf-8", "replace"))
    try:
        w, hh, a, c, copies = (ctypes.c_int() for _ in range(5))
        lib.lt_records_shape(h, *(ctypes.byref(x) for x in (w, hh, a, c, copies)))
        shape = (c.value, hh.value, w.value)
        meta = {"variant": lib.lt_records_variant(h).decode(), "width": w.value, "height": hh.value,
                "num_actions": a.value, "copies": copies.value, "source": os.fsdecode(p)}
        parts = []
        rows, entries = ctypes.c_long(), ctypes.c_long()
        while True:
            status = lib.lt_records_read(h, per_read, ctypes.byref(rows), ctypes.byref(entries), err, _ERR_LEN)
            if status != OK:
                raise (InputError if status == INPUT else LeuctraError)(err.value.decode("utf-8", "replace"))
            if rows.value == 0:
                break
            parts.append(_records_batch(h, rows.value, entries.value, shape))
    finally:
        lib.lt_records_close(h)
    out: Dict[str, Any] = {}
    for k in _COLUMNS:
        empty = np.empty((0,) + shape if k == "planes" else 0, _DTYPES[k])    # a file of no games
        out[k] = np.concatenate([p[k] for p in parts]) if parts else empty
    out["meta"] = meta
    return out


def _meta_int(meta: Mapping, key: str, least: int, most: int, what: str) -> int:
    v = meta.get(key)
    if _args._is_bool(v) or not isinstance(v, int) or not least <= v <= most:
        raise InputError("%s: meta's %s must be an integer from %d to %d, got %r" % (what, key, least, most, v))
    return v


def _planes_count(meta: Mapping, what: str) -> int:
    names = meta.get("planes", None)
    if names is None:
        return 9
    if not isinstance(names, list) or not 1 <= len(names) <= 64:
        raise InputError("%s: meta's planes must be a list of 1 to 64 names" % what)
    return len(names)


def unpack_planes(packed: Any, meta: Mapping[str, Any]) -> Any:
    """planes uint8 [N, planes, H, W] from an export's planes_packed (uint8 [N, bytes], --packed),
    with the board and planes its meta gives."""
    _need_numpy()
    if not isinstance(meta, Mapping):
        raise TypeError("meta must be a dict (an export's meta), not %s" % type(meta).__name__)
    if not isinstance(packed, np.ndarray) or packed.dtype != np.uint8 or packed.ndim != 2:
        raise InputError("planes_packed must be a uint8 array [positions, bytes], got %s"
                         % (("%s %s" % (packed.dtype, list(packed.shape))) if isinstance(packed, np.ndarray)
                            else type(packed).__name__))
    what = "planes_packed"
    shape = (_planes_count(meta, what), _meta_int(meta, "height", 1, 4096, what), _meta_int(meta, "width", 1, 4096, what))
    count = shape[0] * shape[1] * shape[2]
    if packed.shape[1] != (count + 7) // 8:
        raise InputError("planes_packed: %d bytes a position, not the %d that %d x %d x %d planes take"
                         % (packed.shape[1], (count + 7) // 8, shape[0], shape[1], shape[2]))
    return np.unpackbits(packed, axis=1, count=count, bitorder="little").reshape((len(packed),) + shape)


def _npz_meta(raw: Any, what: str) -> Dict[str, Any]:
    if raw is None:
        return {}
    try:
        if raw.shape != () or raw.dtype.kind not in "SU":
            raise ValueError("a %s array of shape %s" % (raw.dtype, raw.shape))
        item = raw.item()
        meta = json.loads(item.decode("utf-8") if isinstance(item, bytes) else item)
    except (ValueError, RecursionError) as e:      # JSONDecodeError and UnicodeDecodeError are ValueErrors
        raise InputError("%s: meta is not JSON text (%s)" % (what, str(e)[:200])) from None
    if not isinstance(meta, dict):
        raise InputError("%s: meta is not a JSON object" % what)
    return meta


def load_npz(path: PathArg, unpack: bool = True) -> Dict[str, Any]:
    """An exported .npz as a dict of arrays, with `meta` parsed from its JSON; the planes of a
    --packed export are unpacked into `planes` unless unpack is False.  A file numpy cannot
    read as an .npz (missing, damaged, a pickle, another format) raises InputError."""
    _need_numpy()
    name = os.fsdecode(_args.path(path, "path"))
    unpack = _args.flag(unpack, "unpack")
    try:
        f = np.load(name, allow_pickle=False)
    except OSError as e:
        raise InputError("%s: %s" % (name, e.strerror or e)) from None
    except MemoryError:
        raise LeuctraError("%s: out of memory" % name) from None
    except Exception as e:  # numpy and zipfile raise many kinds on a damaged file
        raise InputError("%s: not an .npz file numpy reads (%s: %s)" % (name, type(e).__name__, str(e)[:200])) from None
    if not isinstance(f, np.lib.npyio.NpzFile):
        raise InputError("%s: one .npy array, not an .npz file" % name)
    with f:
        try:
            out = {k: f[k] for k in f.files}
        except MemoryError:
            raise LeuctraError("%s: out of memory" % name) from None
        except Exception as e:
            raise InputError("%s: a damaged .npz file (%s: %s)" % (name, type(e).__name__, str(e)[:200])) from None
    out["meta"] = _npz_meta(out.get("meta"), name)
    if unpack and "planes_packed" in out:
        try:
            out["planes"] = unpack_planes(out.pop("planes_packed"), out["meta"])
        except InputError as e:
            raise InputError("%s: %s" % (name, e)) from None
    return out


def _rows(rows: Any, size: int) -> Any:
    """Row numbers (a sequence or array of integers from 0 to size - 1) as an int64 array."""
    r = np.asarray(rows)
    if r.ndim != 1:
        raise InputError("rows must be a 1-D sequence of row numbers, got %d dimensions" % r.ndim)
    if r.size == 0:
        return r.astype(np.int64)
    if r.dtype.kind not in "iu":
        raise TypeError("rows must be integers, not %s" % r.dtype)
    if int(r.min()) < 0 or int(r.max()) >= size:
        raise InputError("rows must be from 0 to %d, got %d to %d" % (size - 1, int(r.min()), int(r.max())))
    return r.astype(np.int64)


class Dataset:
    """Training batches from read_records()/load_npz() arrays, or a path to either (a path
    ending in .npz is read by load_npz, any other by read_records with `augment`).

    batch(rows) gives planes, the dense policy target (float32 [B, num_actions], the visit
    shares), the legal mask (bool [B, num_actions]), the played action, result, value and game.
    Rows are positions; a position the search did not visit has an all-zero policy row.  The
    arrays are checked once, here: inconsistent ones raise InputError."""

    def __init__(self, source: Union[PathArg, Mapping[str, Any]], augment: bool = False) -> None:
        _need_numpy()
        if isinstance(source, (str, bytes, os.PathLike)):
            p = _args.path(source, "source")
            # packed planes stay packed until a batch asks for them
            source = (load_npz(p, unpack=False) if p.endswith(b".npz") else read_records(p, augment=augment))
        elif not isinstance(source, Mapping):
            raise TypeError("source must be a path or a dict of arrays, not %s" % type(source).__name__)
        self.data: Dict[str, Any] = {k: (v if k == "meta" else np.asarray(v)) for k, v in source.items()}
        meta = self.data.get("meta")
        if not isinstance(meta, Mapping):
            raise InputError("the dataset has no meta dict")
        self.meta: Mapping[str, Any] = meta
        self.num_actions = _meta_int(meta, "num_actions", 1, 1 << 20, "the dataset")
        self.size = self._check_rows()
        self.dense = "legal_mask" in self.data
        if self.dense:          # an export with --dense
            for k in ("legal_mask", "policy"):
                self._need(k, "iufb", (self.size, self.num_actions))
        else:
            self.start = self._check_sparse()
        if "planes" in self.data:
            self._need("planes", "u", None)
            self.planes_shape = tuple(self.data["planes"].shape[1:])
        elif "planes_packed" in self.data:
            self._need("planes_packed", "u", None)
            unpack_planes(self.data["planes_packed"][:0], meta)       # the shape agrees with meta
            self.planes_shape = (_planes_count(meta, "the dataset"), meta["height"], meta["width"])
        else:
            raise InputError("the dataset has neither planes nor planes_packed")

    def _need(self, key: str, kinds: str, shape: Optional[tuple]) -> Any:
        a = self.data.get(key)
        if a is None:
            raise InputError("the dataset has no %s" % key)
        if a.dtype.kind not in kinds or a.ndim < 1 or len(a) != self.size or (shape is not None and a.shape != shape):
            raise InputError("the dataset's %s is %s %s, not %s rows of numbers%s" % (
                key, a.dtype, list(a.shape), self.size, "" if shape is None else " shaped %s" % list(shape)))
        return a

    def _check_rows(self) -> int:
        played = self.data.get("played")
        if played is None or played.ndim != 1:
            raise InputError("the dataset has no 1-D played array")
        self.size = len(played)
        for k, kinds in (("played", "iu"), ("result", "f"), ("value", "f"), ("game", "iu")):
            self._need(k, kinds, (self.size,))
        a = self.data["played"]
        if self.size and (int(a.min()) < 0 or int(a.max()) >= self.num_actions):
            raise InputError("the dataset's played actions are not all from 0 to %d" % (self.num_actions - 1))
        return self.size

    def _check_sparse(self) -> Any:
        counts = self._need("legal_count", "iu", (self.size,)).astype(np.int64)
        if self.size and int(counts.min()) < 0:
            raise InputError("the dataset's legal_count has a negative count")
        start = np.concatenate([[0], np.cumsum(counts)])
        total = int(start[-1])
        for k in ("legal", "visits"):
            a = self.data.get(k)
            if a is None or a.ndim != 1 or a.dtype.kind not in "iu" or len(a) != total:
                raise InputError("the dataset's %s must be %d integers (legal_count's sum)" % (k, total))
        legal = self.data["legal"]
        if total and (int(legal.min()) < 0 or int(legal.max()) >= self.num_actions):
            raise InputError("the dataset's legal actions are not all from 0 to %d" % (self.num_actions - 1))
        return start

    def __len__(self) -> int:
        return self.size

    def batch(self, rows: Any) -> Dict[str, Any]:
        """The batch of the given rows (a sequence or array of row numbers, 0 to len - 1)."""
        rows = _rows(rows, self.size)
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

    def batches(self, size: int, rows: Any = None, shuffle: bool = False, seed: int = 0) -> Iterator[Dict[str, Any]]:
        """Batches of `size` rows (1 or more) over `rows` (default all), in order or shuffled by
        `seed` (0 to 2**64 - 1).  The arguments are checked at the call, not at the first batch."""
        per = _args.integer(size, "size", 1, 2 ** 63 - 1)
        order = np.arange(self.size) if rows is None else _rows(rows, self.size)
        if _args.flag(shuffle, "shuffle"):
            order = np.random.default_rng(_args.integer(seed, "seed", 0, 2 ** 64 - 1)).permutation(order)
        else:
            _args.integer(seed, "seed", 0, 2 ** 64 - 1)
        return (self.batch(order[i:i + per]) for i in range(0, len(order), per))
