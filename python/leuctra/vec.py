"""leuctra.VecGame: many games held in the C library and stepped together, one action per game
per call, the observations written straight into numpy arrays (the lt_vec_* calls of
api/leuctra_api.h; docs/PYTHON.md, "VecGame").

    with leuctra.VecGame("crossings", 1024, seed=1) as env:
        obs = env.reset()
        rng = numpy.random.default_rng(1)
        for _ in range(100):
            pick = (rng.random(env.n) * obs.legal_count).astype(numpy.int64)
            obs = env.step(obs.legal[obs.legal_start + pick])     # random legal actions

The arrays a step returns are the VecGame's own, read-only, and the next step overwrites them:
copy what is kept (a rollout buffer does).  numpy is required."""
from __future__ import annotations

import ctypes
from typing import Any, NamedTuple, Optional

from . import _args
from ._handle import Handle
from ._errors import InputError, LeuctraError
from ._lib import INPUT, OK, VEC_MAX_GAMES, lib
from .game import Game, Size, _size_text, _threads

try:
    import numpy
except ImportError:
    numpy = None

__all__ = ["VecGame", "VecStep", "END_REASONS"]

_ERR_LEN = 512
_UINT64_MAX = 2 ** 64 - 1
_MAX_PLIES = 1000000
_COLOURS = ("white", "black", "alternate")
# Why a game ended, by the "reason" array's value (api/leuctra_api.h's LT_END_*).
END_REASONS = ("", "rules", "repetition", "ply-limit")


class VecStep(NamedTuple):
    """What reset() and step() return: the n games' observations after the call, and the ends of
    the games that ended in it.  Every array is the VecGame's own, read-only, overwritten by the
    next call: copy what you keep.

    planes: uint8 [n, planes, height, width] (None with planes=False): each game's input planes
    from the side to move's view (docs/TENSORS.md).  mask: bool [n, num_actions] (None with
    masks=False): the legal actions.  legal, legal_count, legal_start: the same as lists, the
    export's layout: game i's legal actions, ascending, are legal[legal_start[i]:legal_start[i] +
    legal_count[i]] (int32 [total], int32 [n], int64 [n]).  side: int8 [n], the side to move,
    0 White, 1 Black.  plies: int32 [n], the plies played in each game.

    For a game that ended in the call (done[i], bool [n]) the observation is already the next
    game's first position (automatic reset); reward: float32 [n, 2], for White and for Black:
    +1 a win, -1 a loss, 0 a draw (0 for games that did not end); result: uint8 [n], 1 White
    won, 2 Black won, 3 a draw (as STATUS_NAMES); reason: uint8 [n], 1 the rules, 2 a
    repetition, 3 the ply limit (END_REASONS names them); length: int32 [n], the ended game's
    length in plies.  For the games that did not end, all of these are 0."""
    planes: Any
    mask: Any
    legal: Any
    legal_count: Any
    legal_start: Any
    side: Any
    reward: Any
    done: Any
    result: Any
    reason: Any
    plies: Any
    length: Any


def _raise(status: int, err: ctypes.Array) -> None:
    msg = err.value.decode("utf-8", "replace")
    raise (InputError if status == INPUT else LeuctraError)(msg)


def _readonly(array: Any) -> Any:
    view = array.view()
    view.flags.writeable = False
    return view


class VecGame(Handle):
    """n games of one variant on one board, held in the C library and stepped together: step()
    plays one action in each game (and the opponent's reply, with an opponent) and returns every
    game's planes, legal mask and legal lists, with the rewards and ends of the games that ended,
    which begin again at once.  The games end as self-play's do: by the rules, on the third
    occurrence of a position (repetition=True), or as a draw after max_plies plies.

    variant, size: as Game.  n: 1 to 2**20 games.  seed: 0 to 2**64 - 1; game i's k-th game
    is seeded from (seed, i, k), so the games never depend on threads.  threads: 0 to 1024
    (0: one per processor); games are stepped on threads where n is 64 or more (or with an
    opponent).  max_plies: 1 to 1,000,000 (600, as self-play); repetition: True (as
    self-play); random_opening: plies of uniformly random moves that begin each game (0; a ply
    that would end the game is taken back and the opening stops).  opponent: None (the agent
    plays both sides), "random", "greedy[:weights=FILE]" or "mcts[:visits=N,...]" (player specs,
    on one thread, no time limits): it moves inside step(), so every observation has the agent
    to move; agent_colour: "white", "black" or "alternate" (the default: game i's k-th game has
    the agent White when i + k is even).  planes, masks: False leaves that array out (None).

    An action that is no legal move of its game raises InputError naming the game and the
    action, and nothing is played.  close() (or `with`) frees the games; a closed VecGame raises
    LeuctraError.  A VecGame may be shared between threads: its calls take turns."""

    _free = staticmethod(lambda handle: lib.lt_vec_free(handle))
    _what = "leuctra.VecGame"

    def __init__(self, variant: str = "epaminondas", n: int = 1, size: Optional[Size] = None, seed: int = 0, *,
                 threads: int = 0, max_plies: int = 600, repetition: bool = True, random_opening: int = 0,
                 opponent: Optional[str] = None, agent_colour: Optional[str] = None, planes: bool = True,
                 masks: bool = True) -> None:
        self._start_handle()
        self._err = ctypes.create_string_buffer(_ERR_LEN)
        if numpy is None:
            raise ImportError("leuctra.VecGame needs numpy")
        v = _args.text(variant, "variant")
        count = _args.integer(n, "n", 1, VEC_MAX_GAMES)
        s = None if size is None else _size_text(size)
        self._seed = _args.integer(seed, "seed", 0, _UINT64_MAX)
        options = {"threads": str(_threads(threads)),
                   "max_plies": str(_args.integer(max_plies, "max_plies", 1, _MAX_PLIES)),
                   "repetition": "true" if _args.flag(repetition, "repetition") else "false",
                   "random_opening": str(_args.integer(random_opening, "random_opening", 0, _MAX_PLIES))}
        if opponent is not None:
            options["opponent"] = opponent
        if agent_colour is not None:
            options["agent_colour"] = agent_colour
        names = (ctypes.c_char_p * len(options))(*(k.encode() for k in options))
        values = (ctypes.c_char_p * len(options))(*(_args.text(x, k) for k, x in options.items()))
        want_planes, want_masks = _args.flag(planes, "planes"), _args.flag(masks, "masks")
        handle = lib.lt_vec_new(v, s, count, self._seed, len(options), names, values, self._err, _ERR_LEN)
        if not handle:
            _raise(INPUT, self._err)
        self._h = handle
        self._describe(handle)
        self._bind_all(want_planes, want_masks)

    def _describe(self, handle: int) -> None:
        n, w, h, a, c, version = (ctypes.c_int() for _ in range(6))
        sym = ctypes.c_uint()
        lib.lt_vec_shape(handle, *(ctypes.byref(x) for x in (n, w, h, a, c, version, sym)))
        self._variant = lib.lt_vec_variant(handle).decode()
        self._shape = (n.value, w.value, h.value, a.value, c.value, version.value, sym.value)

    def _bind(self, name: str, array: Any) -> Any:
        status = lib.lt_vec_bind(self._h, name.encode(), array.ctypes.data, array.nbytes, self._err, _ERR_LEN)
        if status != OK:
            _raise(status, self._err)
        return array

    def _bind_all(self, want_planes: bool, want_masks: bool) -> None:
        n, w, h, a, c = self._shape[:5]
        z = numpy.zeros
        self._arrays = {"legal_count": z(n, numpy.int32), "legal_start": z(n, numpy.int64), "side": z(n, numpy.int8),
                        "reward": z((n, 2), numpy.float32), "done": z(n, numpy.bool_), "result": z(n, numpy.uint8),
                        "reason": z(n, numpy.uint8), "plies": z(n, numpy.int32), "length": z(n, numpy.int32)}
        if want_planes:
            self._arrays["planes"] = z((n, c, h, w), numpy.uint8)
        if want_masks:
            self._arrays["mask"] = z((n, a), numpy.bool_)
        for name, array in self._arrays.items():
            self._bind(name, array)
        self._views = {name: _readonly(array) for name, array in self._arrays.items()}
        self._legal = numpy.zeros(0, numpy.int32)
        self._grow_legal(64 * n)

    def _grow_legal(self, total: int) -> None:
        """A flat legal list of room for `total` actions (or more), bound (which writes it)."""
        if total <= len(self._legal) and len(self._legal):
            return
        self._legal = self._bind("legal", numpy.zeros(max(total + total // 2, 1), numpy.int32))
        self._legal_view = _readonly(self._legal)

    def _step_of(self, total: int) -> VecStep:
        if total > len(self._legal):
            self._grow_legal(total)
        views = self._views
        return VecStep(views.get("planes"), views.get("mask"), self._legal_view[:total], views["legal_count"],
                       views["legal_start"], views["side"], views["reward"], views["done"], views["result"],
                       views["reason"], views["plies"], views["length"])

    def __len__(self) -> int:
        return self.n

    def __repr__(self) -> str:
        return "<leuctra.VecGame %s %dx%d, %d games%s>" % (self._variant, self.width, self.height, self.n,
                                                          ", closed" if self._h is None else "")

    # --- what the games are ----------------------------------------------------------------------
    @property
    def variant(self) -> str:
        """The variant's name."""
        return self._variant

    @property
    def n(self) -> int:
        """The number of games."""
        return self._shape[0]

    @property
    def width(self) -> int:
        return self._shape[1]

    @property
    def height(self) -> int:
        return self._shape[2]

    @property
    def num_actions(self) -> int:
        """The size of the action index (docs/TENSORS.md)."""
        return self._shape[3]

    @property
    def num_planes(self) -> int:
        return self._shape[4]

    @property
    def planes_version(self) -> int:
        return self._shape[5]

    @property
    def symmetries(self) -> int:
        """The symmetries the game allows, as bits (docs/TENSORS.md)."""
        return self._shape[6]

    # --- stepping --------------------------------------------------------------------------------
    def reset(self, seed: Optional[int] = None) -> VecStep:
        """Begins a new game in every slot: with seed (0 to 2**64 - 1), the games a new VecGame of
        that seed begins; without, each slot's next game.  Returns the observations (no game
        is done)."""
        reseed = seed is not None
        s = _args.integer(seed, "seed", 0, _UINT64_MAX) if reseed else 0
        total = ctypes.c_int64()
        with self._lock:
            status = lib.lt_vec_reset(self._live(), int(reseed), s, ctypes.byref(total), self._err, _ERR_LEN)
            if status != OK:
                _raise(status, self._err)
            return self._step_of(total.value)

    def observe(self) -> VecStep:
        """The observations as the last call left them, without playing."""
        with self._lock:
            self._live()
            return self._step_of(int(self._views["legal_count"].sum()))

    def _actions(self, actions: Any) -> Any:
        """actions as a C-contiguous int32 array of n entries, integers past int32 refused (a cast
        would cut them)."""
        if isinstance(actions, numpy.ndarray):
            a = actions
        else:
            try:
                a = numpy.asarray(actions)
            except (ValueError, TypeError, OverflowError) as e:
                raise TypeError("actions must be an array of %d integers: %s" % (self.n, e)) from None
        if a.dtype.kind not in "iu":
            raise TypeError("actions must be integers, not %s" % a.dtype)
        if a.shape != (self.n,):
            raise InputError("actions must have shape (%d,), got %s" % (self.n, a.shape))
        if a.dtype == numpy.int32 and a.flags.c_contiguous:
            return a
        bad = numpy.flatnonzero((a < 0) | (a >= self.num_actions))
        if len(bad):
            raise InputError("step: game %d: action %d is out of range (0 to %d; nothing was played)"
                             % (bad[0], a[bad[0]], self.num_actions - 1))
        return numpy.ascontiguousarray(a, dtype=numpy.int32)

    def step(self, actions: Any) -> VecStep:
        """Plays actions[i] (an integer array of n action numbers) in game i, then the opponent's
        reply where there is one; games that end begin again.  An action that is no legal move of
        its game raises InputError naming the game and the action, and nothing is played."""
        a = self._actions(actions)
        total = ctypes.c_int64()
        with self._lock:
            status = lib.lt_vec_step(self._live(), a.ctypes.data, self.n, ctypes.byref(total), self._err, _ERR_LEN)
            if status != OK:
                _raise(status, self._err)
            return self._step_of(total.value)

    # --- one game --------------------------------------------------------------------------------
    def _index(self, i: Any) -> int:
        return _args.integer(i, "game index", 0, self.n - 1)

    def position(self, i: int) -> str:
        """Game i's position string."""
        k = self._index(i)
        buf = ctypes.create_string_buffer(512)
        with self._lock:
            status = lib.lt_vec_position(self._live(), k, buf, 512, self._err, _ERR_LEN)
            if status != OK:
                _raise(status, self._err)
        return buf.value.decode()

    def game(self, i: int) -> Game:
        """Game i as a leuctra.Game: its start and every move played since (undo works)."""
        k = self._index(i)
        with self._lock:
            handle = lib.lt_vec_game(self._live(), k, self._err, _ERR_LEN)
            if not handle:
                raise LeuctraError(self._err.value.decode("utf-8", "replace"))
        return Game._wrap(handle)
