"""leuctra.Game: a game and its position through the C library (rules, notation, action index,
planes, perft, search).  Errors are LeuctraError exceptions with the library's one-line message.

Threads: a Game may be shared between threads.  Each Game holds a lock (a threading.RLock)
around every call into its handle, close() and copy() included, because the C API allows one
call per handle at a time (api/leuctra_api.h: analyze keeps its weights in the handle, and a
search beside another call that swaps them read freed memory).  A call therefore waits for
another thread's call on the same Game to end; to search in parallel, give each thread its own
Game (copy()).  The library releases the GIL, so different Games run at the same time."""
from __future__ import annotations

import ctypes
import json
import os
import warnings
from typing import Any, Dict, List, Optional, Sequence, Tuple, Union

from . import _args
from ._handle import Handle
from ._errors import InputError, LeuctraError
from ._lib import INPUT, OK, PERFT_MAX_DEPTH, lib

try:
    import numpy
except ImportError:  # arrays come back as lists then
    numpy = None

__all__ = ["Game", "LeuctraError", "InputError", "PLANE_NAMES", "STATUS_NAMES"]

STATUS_NAMES = ("ongoing", "white-wins", "black-wins", "draw")
PLANE_NAMES = ("own", "opponent", "obstacle", "own_frozen", "opponent_frozen",
               "must_answer", "symmetry_rule", "white_to_move", "on_board")
_ERR_LEN = 512
_MOVES_TEXT = 8192 * 8 + 1
_MAX_ACTIONS_LISTED = 8192
_INT_MAX = 2 ** 31 - 1
THREADS_MAX = lib.lt_threads_max()


def search_options() -> List[Dict[str, Any]]:
    """The search options Game.analyze takes, from the library's one table (the engine's
    setoption, player specs and `leuctra analyze` read the same): each a dict of name, type
    (int, float, bool, path), default, min and max (numbers), range (in words) and help."""
    buf = ctypes.create_string_buffer(1 << 16)
    if lib.lt_search_options(buf, 1 << 16) != OK:
        raise LeuctraError("the library's search options do not fit in 64 KiB")
    return json.loads(buf.value.decode())


_SEARCH_OPTIONS = {o["name"]: o for o in search_options()}


def _option_text(name: str, value: Any) -> bytes:
    """A search option's value as the text the library reads, its type and range checked here
    from the library's table, so that nothing is cut to a C type on the way."""
    o = _SEARCH_OPTIONS.get(name)
    if o is None:
        raise InputError("unknown search option '%s' (options: %s)" % (name, ", ".join(_SEARCH_OPTIONS)))
    if o["type"] == "path":
        return _args.path(value, name)
    if o["type"] == "bool":
        return b"true" if _args.flag(value, name) else b"false"
    if o["type"] == "int":
        return str(_args.integer(value, name, int(o["min"]), int(o["max"]))).encode()
    return repr(_args.real(value, name, float(o["min"]), float(o["max"]))).encode()

Size = Union[str, Tuple[int, int], Sequence[int]]
PathArg = Union[str, bytes, "os.PathLike[str]", "os.PathLike[bytes]"]


def _raise(status: int, err: ctypes.Array) -> None:
    msg = err.value.decode("utf-8", "replace")
    raise (InputError if status == INPUT else LeuctraError)(msg)


def _threads(value: Any, stacklevel: int = 3) -> int:
    """A thread count: 0 to lt_threads_max(); a RuntimeWarning where it is far more than the
    processors (the library words it, and leaves the showing to its caller)."""
    n = _args.integer(value, "threads", 0, THREADS_MAX)
    note = ctypes.create_string_buffer(256)
    if lib.lt_threads_note(n, note, len(note)):
        warnings.warn(note.value.decode("utf-8", "replace"), RuntimeWarning, stacklevel=stacklevel)
    return n


def _size_text(size: Size) -> bytes:
    if isinstance(size, str):
        return _args.text(size, "size")
    if isinstance(size, (tuple, list)):
        if len(size) != 2:
            raise InputError("size must be (width, height), got %d numbers" % len(size))
        w, h = (_args.integer(v, "size", 1, _INT_MAX) for v in size)
        return ("%dx%d" % (w, h)).encode()
    raise TypeError("size must be a str 'WxH' or a (width, height) pair, not %s" % type(size).__name__)


class Game(Handle):
    """A game of one variant on one board, at a position, with the moves played since.

    variant: "epaminondas", "crossings", "igfip" or "reversi".  size: "WxH" or (width, height)
    for the phalanx games (default the variant's board, or the board of `position`).  position:
    a position string (default the start).  Bad input raises InputError.

    Attributes (read-only): variant, width, height, num_actions (the action index's size,
    docs/TENSORS.md), num_planes, planes_version, symmetries (bit s: symmetry s allowed).

    A Game holds a C handle: close() frees it at once (or use `with leuctra.Game() as g:`);
    otherwise it is freed when the Game is collected.  A closed Game raises LeuctraError on use.
    A Game may be shared between threads: its calls take turns (each Game has a lock), so a
    call waits for another thread's call on the same Game; give each thread its own copy() to
    search in parallel.  Errors: InputError (bad input, also a ValueError), LeuctraError (the
    rest), TypeError (an argument of the wrong type); docs/PYTHON.md."""

    _free = staticmethod(lambda handle: lib.lt_game_free(handle))
    _what = "leuctra.Game"

    def __init__(self, variant: str = "epaminondas", size: Optional[Size] = None,
                 position: Optional[str] = None) -> None:
        self._start_handle()
        self._err = ctypes.create_string_buffer(_ERR_LEN)
        v = _args.text(variant, "variant")
        s = None if size is None else _size_text(size)
        p = None if position is None else _args.text(position, "position")
        handle = lib.lt_game_new(v, s, p, self._err, _ERR_LEN)
        if not handle:
            _raise(INPUT, self._err)
        self._adopt(handle)

    @classmethod
    def _wrap(cls, handle: int) -> "Game":
        game = cls.__new__(cls)
        game._start_handle()
        game._err = ctypes.create_string_buffer(_ERR_LEN)
        game._adopt(handle)
        return game

    def _adopt(self, handle: int) -> None:
        self._h = handle
        w, h, a, c, v = (ctypes.c_int() for _ in range(5))
        sym = ctypes.c_uint()
        lib.lt_game_shape(handle, ctypes.byref(w), ctypes.byref(h), ctypes.byref(a), ctypes.byref(c),
                          ctypes.byref(v), ctypes.byref(sym))
        self._variant = lib.lt_game_variant(handle).decode()
        self._shape = (w.value, h.value, a.value, c.value, v.value, sym.value)
        self._moves = ctypes.create_string_buffer(_MOVES_TEXT)
        self._actions = (ctypes.c_int32 * _MAX_ACTIONS_LISTED)()

    # True while leuctra.search searches this Game (guided.py): a call on it from inside the
    # search's evaluate (the thread that holds its lock) is refused, close() included.
    _searching = False

    def _live(self) -> int:
        if self._searching:
            raise LeuctraError("this leuctra.Game is being searched: the evaluate of leuctra.search may not use it")
        return super()._live()

    def close(self) -> None:
        """Frees the C handle now.  Later calls raise LeuctraError; closing twice is harmless."""
        with self._lock:
            if self._searching:
                raise LeuctraError("this leuctra.Game is being searched: the evaluate of leuctra.search may not "
                                   "close it")
            super().close()

    def _check(self, status: int) -> None:
        if status != OK:
            _raise(status, self._err)

    def copy(self) -> "Game":
        """A new Game with this one's position and move history (undo works on it)."""
        with self._lock:
            handle = lib.lt_game_clone(self._live(), self._err, _ERR_LEN)
            if not handle:
                raise LeuctraError(self._err.value.decode("utf-8", "replace"))
        return Game._wrap(handle)

    def __copy__(self) -> "Game":
        return self.copy()

    def __deepcopy__(self, memo: Dict[int, Any]) -> "Game":
        return self.copy()

    def __repr__(self) -> str:
        if self._h is None:
            return "<leuctra.Game %s %dx%d, closed>" % (self._variant, self.width, self.height)
        return "leuctra.Game(%r, size=%r, position=%r)" % (self._variant, "%dx%d" % (self.width, self.height),
                                                          self.position())

    # --- what the game is ------------------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The variant's name: "epaminondas", "crossings", "igfip" or "reversi"."""
        return self._variant

    @property
    def width(self) -> int:
        """The board's width (files)."""
        return self._shape[0]

    @property
    def height(self) -> int:
        """The board's height (rows)."""
        return self._shape[1]

    @property
    def num_actions(self) -> int:
        """The size of the game's action index (docs/TENSORS.md)."""
        return self._shape[2]

    @property
    def num_planes(self) -> int:
        """The number of input planes (PLANE_NAMES)."""
        return self._shape[3]

    @property
    def planes_version(self) -> int:
        """The version of the planes' layout."""
        return self._shape[4]

    @property
    def symmetries(self) -> int:
        """The symmetries the game allows, as bits (bit s: symmetry s; docs/TENSORS.md)."""
        return self._shape[5]

    # --- the position ----------------------------------------------------------------------------
    def position(self) -> str:
        """The position string (the board and the side to move), as `leuctra show` reads it."""
        with self._lock:
            buf = ctypes.create_string_buffer(512)
            lib.lt_game_position(self._live(), buf, 512)
            return buf.value.decode()

    def set_position(self, position: str) -> None:
        """Sets the position (on this board; "start" for the start) and clears the history."""
        p = _args.text(position, "position")
        with self._lock:
            self._check(lib.lt_game_set_position(self._live(), p, self._err, _ERR_LEN))

    def side_to_move(self) -> str:
        """'w' or 'b'."""
        with self._lock:
            return "wb"[lib.lt_game_side(self._live())]

    def status(self) -> str:
        """'ongoing', 'white-wins', 'black-wins' or 'draw' (the rules', as `leuctra status`)."""
        with self._lock:
            return STATUS_NAMES[lib.lt_game_status(self._live())]

    def legal_moves(self) -> List[str]:
        """The legal moves in notation ("e2-e3", "d3", "pass"); [] when the game is over."""
        with self._lock:
            n = lib.lt_game_legal_moves(self._live(), self._moves, _MOVES_TEXT)
            if n < 0:
                raise LeuctraError("legal_moves: the moves do not fit the buffer")
            return self._moves.value.decode().split() if n > 0 else []

    def play(self, move: Union[str, int]) -> None:
        """Plays a legal move given in notation ("e2-e3", "d3", "pass") or as an action number
        (0 to num_actions - 1).  An illegal or unreadable move raises InputError."""
        if isinstance(move, str):
            m = _args.text(move, "move")
            with self._lock:
                self._check(lib.lt_game_play(self._live(), m, self._err, _ERR_LEN))
            return
        if _args._is_bool(move) or not hasattr(type(move), "__index__"):
            raise TypeError("move must be a str (notation) or an int (action), not %s" % type(move).__name__)
        action = _args.integer(move, "action", 0, self.num_actions - 1)
        with self._lock:
            self._check(lib.lt_game_play_action(self._live(), action, self._err, _ERR_LEN))

    def undo(self) -> None:
        """Takes back the last move played (or raises InputError when there is none)."""
        with self._lock:
            self._check(lib.lt_game_undo(self._live(), self._err, _ERR_LEN))

    def perft(self, depth: int, threads: int = 1) -> int:
        """The number of move paths `depth` plies long (0 to 30) from the position, counted with
        `threads` threads (0: one per processor; at most 1024; a RuntimeWarning where it is far
        more than the processors).  The count does not depend on threads."""
        d = _args.integer(depth, "depth", 0, PERFT_MAX_DEPTH)
        t = _threads(threads)
        count = ctypes.c_uint64()
        with self._lock:
            self._check(lib.lt_game_perft(self._live(), d, t, ctypes.byref(count), self._err, _ERR_LEN))
        return count.value

    # --- tensors ---------------------------------------------------------------------------------
    def action_of(self, move: str) -> int:
        """The action number of a legal move given in notation (docs/TENSORS.md)."""
        m = _args.text(move, "move")
        a = ctypes.c_int32()
        with self._lock:
            self._check(lib.lt_game_action_of(self._live(), m, ctypes.byref(a), self._err, _ERR_LEN))
        return a.value

    def move_of(self, action: int) -> str:
        """The notation of a legal action (0 to num_actions - 1)."""
        a = _args.integer(action, "action", 0, self.num_actions - 1)
        buf = ctypes.create_string_buffer(32)
        with self._lock:
            self._check(lib.lt_game_move_of(self._live(), a, buf, 32, self._err, _ERR_LEN))
        return buf.value.decode()

    def legal_actions(self) -> List[int]:
        """The legal actions, ascending."""
        with self._lock:
            n = lib.lt_game_legal_actions(self._live(), self._actions, _MAX_ACTIONS_LISTED)
            if n < 0:
                raise LeuctraError("legal_actions: more legal actions than %d" % _MAX_ACTIONS_LISTED)
            return list(self._actions[:n])

    def legal_mask(self) -> Any:
        """A 0/1 mask over the action index: numpy bool [num_actions] (a list without numpy)."""
        actions = self.legal_actions()
        if numpy is not None:
            mask = numpy.zeros(self.num_actions, dtype=bool)
            mask[actions] = True
            return mask
        mask = [False] * self.num_actions
        for a in actions:
            mask[a] = True
        return mask

    def planes(self) -> Any:
        """The input planes from the side to move's view: numpy uint8 [planes, height, width] (nested
        lists without numpy); PLANE_NAMES names them."""
        size = self.num_planes * self.height * self.width
        buf = (ctypes.c_uint8 * size)()
        with self._lock:
            self._check(lib.lt_game_planes(self._live(), buf, size, self._err, _ERR_LEN))
        if numpy is not None:
            return numpy.frombuffer(buf, dtype=numpy.uint8).reshape(self.num_planes, self.height, self.width).copy()
        flat, hw, w = list(buf), self.height * self.width, self.width
        return [[flat[c * hw + r * w: c * hw + (r + 1) * w] for r in range(self.height)] for c in range(self.num_planes)]

    # --- search ----------------------------------------------------------------------------------
    def analyze(self, visits: int = 1000, seconds: float = 0.0, weights: Optional[PathArg] = None, seed: int = 1,
                threads: int = 1, **options: Any) -> Dict[str, Any]:
        """Searches the game with the engine's MCTS; the positions before the current one count
        for the repetition rule, as in the engine and self-play.

        visits: 0 (none; with seconds 0 too, 1,000) or 1 to 10**12; seconds: 0 to 1e6 (0: no
        time limit); weights: a weights file's path (str, bytes or os.PathLike; None: the shipped
        weights; the Game keeps the file loaded for its next search); seed: 0 to 2**63 - 1;
        threads: 0 or 1 for one thread, at most 1024 (a RuntimeWarning where far more than the
        processors).  options: any other search option (cpuct=1.2, nodes=, fpu=, contempt=,
        playouts=True, solve=, rootsolve=, coarse=): leuctra.search_options() lists them with
        their ranges, the same as the engine's setoption and `leuctra analyze`'s flags.

        Returns docs/ENGINE.md's result object as a dict: best (move), value (the side to move's
        win probability), proven, proven_plies, visits, tree_visits, nodes, seconds, pv (moves),
        moves (each root move's move, action, visits, prior, value, proven), plus visit_counts
        {move: visits}."""
        v = _args.integer(visits, "visits", 0, int(_SEARCH_OPTIONS["visits"]["max"]))
        s = _args.real(seconds, "seconds", 0.0, float(_SEARCH_OPTIONS["time"]["max"]))
        given = {"time": s, "threads": _threads(threads) or 1, "seed": seed}
        if v or not s:
            given["visits"] = v or 1000
        if weights is not None:
            given["weights"] = weights
        for name, value in options.items():
            if name in ("visits", "time", "threads", "seed", "weights"):
                raise TypeError("analyze: give %s as its own argument" % name)
            given[name] = value
        names = (ctypes.c_char_p * len(given))(*(n.encode() for n in given))
        values = (ctypes.c_char_p * len(given))(*(_option_text(n, x) for n, x in given.items()))
        buf = ctypes.create_string_buffer(1 << 20)
        with self._lock:
            self._check(lib.lt_game_search(self._live(), len(given), names, values, buf, 1 << 20, self._err,
                                           _ERR_LEN))
        result = json.loads(buf.value.decode())
        result["visit_counts"] = {m["move"]: m["visits"] for m in result["moves"]}
        return result
