"""Searches and self-play guided by your network: leuctra's MCTS (C) asks a Python function for
batches of leaf evaluations (lt_search_batched and lt_selfplay of api/leuctra_api.h;
docs/PYTHON.md, "Searches guided by your network").

    def evaluate(planes, legal_start, legal):
        # planes uint8 [n, 9, H, W]; leaf i's legal actions, ascending, are
        # legal[legal_start[i]:legal_start[i + 1]]
        return values, policy     # float [n]: the side to move's win probability, 0 to 1;
                                  # float [len(legal)]: a score >= 0 per legal action (or
                                  # [n, num_actions] over the whole action index)
    r = leuctra.search(games, evaluate, visits=200, batch=64)   # visit counts ready to train on
    leuctra.selfplay("crossings", 100, evaluate, "run.lrec", visits=200)   # .lrec records

numpy is required.  An exception raised inside evaluate stops the search and is raised again
from the call, and an answer of the wrong shape or out of range is an InputError."""
from __future__ import annotations

import ctypes
import json
import threading
import time
from typing import Any, Callable, Dict, List, NamedTuple, Optional, Sequence, Tuple, Union

from . import _args
from ._errors import InputError, LeuctraError
from ._lib import INPUT, OK, SEARCH_MAX_BATCH, SEARCH_MAX_GAMES, lib
from .game import Game, Size, _option_text, _size_text

try:
    import numpy
except ImportError:
    numpy = None

__all__ = ["search", "selfplay", "own_evaluation", "leaf_positions", "SearchResult"]

_ERR_LEN = 512
_MAX_GAMES_PLAYED = 100000000
_MAX_PLIES = 100000
# The C evaluator's type (LtEvaluateFn).
_EVALUATE_FN = ctypes.CFUNCTYPE(ctypes.c_int, ctypes.c_void_p, ctypes.c_int, ctypes.c_void_p, ctypes.c_void_p,
                                ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)
Evaluate = Callable[[Any, Any, Any], Tuple[Any, Any]]

# The batch being evaluated on this thread, for own_evaluation and leaf_positions.
_current = threading.local()


class SearchResult(NamedTuple):
    """What leuctra.search returns, for n games, in the dataset export's layout (docs/TENSORS.md):
    game i's legal actions, ascending, are legal[legal_start[i]:legal_start[i] + legal_count[i]]
    and visits[...] the same slice's root visit counts (int32 [total], int32 [n], int64 [n],
    int32 [total]).  value: float64 [n], the side to move's win probability at the root.
    best_action: int32 [n], the most visited move's action (-1 where the game is over); best:
    its notation (None there).  details: with details=True, each game's search as a dict
    (Game.analyze's: pv, every root move's visits, prior and value), else None.  policy():
    the visits as a distribution per game, float32 [total] (the training target)."""
    legal: Any
    legal_count: Any
    legal_start: Any
    visits: Any
    value: Any
    best_action: Any
    best: List[Optional[str]]
    details: Optional[List[Dict[str, Any]]]

    def policy(self) -> Any:
        """The visit counts divided by each game's total: float32 [total]."""
        totals = numpy.add.reduceat(self.visits, self.legal_start) if len(self.visits) else numpy.zeros(0)
        if len(self.visits) and (self.legal_count == 0).any():     # reduceat repeats a value for empty slices
            totals = numpy.where(self.legal_count > 0, totals, 0)
        per_entry = numpy.repeat(totals, self.legal_count).astype(numpy.float64)
        return (self.visits / numpy.maximum(per_entry, 1)).astype(numpy.float32)


def _raise(status: int, err: ctypes.Array) -> None:
    msg = err.value.decode("utf-8", "replace")
    raise (InputError if status == INPUT else LeuctraError)(msg)


class _Bridge:
    """The C evaluator over the caller's evaluate.  The search's inputs are copied into arrays the
    bridge keeps and hands out read-only (the search frees its own buffers when it ends, and an
    evaluate that kept a view of them would read freed memory; a batch's planes are a few hundred
    bytes a leaf, so the copy is cheap beside any network), evaluate's answer is checked for
    shape and copied into the search's outputs, and an exception is kept (the C call returns
    nonzero, which stops the search) to be raised again when the call returns."""

    def __init__(self, evaluate: Evaluate, shape: Tuple[int, int, int], num_actions: int) -> None:
        if not callable(evaluate):
            raise TypeError("evaluate must be a callable (planes, legal_start, legal) -> (values, policy), not %s"
                            % type(evaluate).__name__)
        self.evaluate = evaluate
        self.shape = shape
        self.plane_size = shape[0] * shape[1] * shape[2]
        self.num_actions = num_actions
        self.error: Optional[BaseException] = None
        self.calls = self.leaves = 0
        self.python_seconds = 0.0       # inside the callback: the copies, evaluate, the checks
        self.planes = numpy.zeros(0, numpy.uint8)
        self.legal_start = numpy.zeros(0, numpy.int32)
        self.legal = numpy.zeros(0, numpy.int32)
        self.c_function = _EVALUATE_FN(self._call)

    @staticmethod
    def _room(array: Any, count: int) -> Any:
        """array, or a larger one of its dtype where it holds fewer than count."""
        return array if len(array) >= count else numpy.zeros(max(count, 2 * len(array)), array.dtype)

    @staticmethod
    def _read_only(array: Any) -> Any:
        view = array.view()
        view.flags.writeable = False
        return view

    def _inputs(self, n: int, planes: int, legal_start: int, legal: int) -> Tuple[Any, Any, Any, int]:
        self.legal_start = self._room(self.legal_start, n + 1)
        ctypes.memmove(self.legal_start.ctypes.data, legal_start, 4 * (n + 1))
        total = int(self.legal_start[n])
        self.planes = self._room(self.planes, n * self.plane_size)
        ctypes.memmove(self.planes.ctypes.data, planes, n * self.plane_size)
        self.legal = self._room(self.legal, total)
        ctypes.memmove(self.legal.ctypes.data, legal, 4 * total)
        return (self._read_only(self.planes[:n * self.plane_size].reshape((n,) + self.shape)),
                self._read_only(self.legal_start[:n + 1]), self._read_only(self.legal[:total]), total)

    def _call(self, ctx: Any, n: int, planes: int, legal_start: int, legal: int, values_out: int, policy_out: int,
              leaves: int) -> int:
        began = time.perf_counter()
        try:
            self.calls += 1
            self.leaves += n
            p, start, actions, total = self._inputs(n, planes, legal_start, legal)
            outer = getattr(_current, "batch", None)      # an evaluate may search other games itself
            _current.batch = (leaves, n, total)
            try:
                answer = self.evaluate(p, start, actions)
            finally:
                _current.batch = outer
            values, policy = self._answer(answer, n, total, start, actions)
            ctypes.memmove(values_out, values.ctypes.data, 8 * n)
            ctypes.memmove(policy_out, policy.ctypes.data, 4 * total)
            return 0
        except BaseException as e:      # KeyboardInterrupt too: the search stops, the caller sees it
            self.error = e
            return 1
        finally:
            self.python_seconds += time.perf_counter() - began

    def report(self, stats: Optional[Dict[str, Any]], began: float) -> None:
        """The call's figures into stats (a dict the caller gave), if any."""
        if stats is not None:
            stats.update(calls=self.calls, leaves=self.leaves, python_seconds=self.python_seconds,
                         seconds=time.perf_counter() - began)

    def _answer(self, answer: Any, n: int, total: int, legal_start: Any, legal: Any) -> Tuple[Any, Any]:
        """(values float64 [n], policy float32 [total]), contiguous, from evaluate's answer, or an
        InputError saying what is wrong."""
        if not isinstance(answer, (tuple, list)) or len(answer) != 2:
            raise InputError("evaluate must return (values, policy), got %s" % type(answer).__name__)
        try:
            values = numpy.ascontiguousarray(answer[0], dtype=numpy.float64)
            policy = numpy.asarray(answer[1], dtype=numpy.float32)
        except (TypeError, ValueError) as e:
            raise InputError("evaluate returned values or a policy that are not arrays of numbers (%s)" % e) from None
        if values.shape not in ((n,), (n, 1)):
            raise InputError("evaluate returned values of shape %s for %d leaves (want (%d,))" % (values.shape, n, n))
        if policy.shape == (n, self.num_actions):     # over the whole action index: the legal entries
            rows = numpy.repeat(numpy.arange(n), numpy.diff(legal_start))
            policy = policy[rows, legal]
        elif policy.shape != (total,):
            raise InputError("evaluate returned a policy of shape %s; want (%d,), a score per legal action of the "
                             "%d leaves, or (%d, %d) over the action index" % (policy.shape, total, n, n,
                                                                               self.num_actions))
        return values, numpy.ascontiguousarray(policy)

    def raise_kept(self) -> None:
        if self.error is not None:
            error, self.error = self.error, None
            raise error


def own_evaluation(planes: Any, legal_start: Any, legal: Any) -> Tuple[Any, Any]:
    """leuctra's own evaluation of the batch being evaluated (the weights of the search's
    `weights` option), as an evaluate answers: (values float64 [n], policy float32 [total]).
    Only inside an evaluate that leuctra.search or leuctra.selfplay is calling, with the arrays
    it was given: to mix into a network's answer, or to check a pipeline (passed as evaluate, it
    makes the search leuctra's own, visit for visit)."""
    batch = getattr(_current, "batch", None)
    if batch is None:
        raise LeuctraError("own_evaluation: only inside an evaluate that a leuctra search is calling")
    leaves, n, total = batch
    if len(planes) != n or len(legal_start) != n + 1 or len(legal) != total:
        raise InputError("own_evaluation: pass the planes, legal_start and legal of the batch being evaluated")
    values = numpy.empty(n, dtype=numpy.float64)
    policy = numpy.empty(total, dtype=numpy.float32)
    err = ctypes.create_string_buffer(_ERR_LEN)
    status = lib.lt_leaves_evaluate(leaves, values.ctypes.data, policy.ctypes.data, err, _ERR_LEN)
    if status != OK:
        _raise(status, err)
    return values, policy


def leaf_positions() -> List[str]:
    """The position strings of the leaves being evaluated (inside an evaluate only)."""
    batch = getattr(_current, "batch", None)
    if batch is None:
        raise LeuctraError("leaf_positions: only inside an evaluate that a leuctra search is calling")
    leaves, n, _ = batch
    buf, err = ctypes.create_string_buffer(512), ctypes.create_string_buffer(_ERR_LEN)
    out = []
    for i in range(n):
        if lib.lt_leaves_position(leaves, i, buf, 512, err, _ERR_LEN) != OK:
            raise LeuctraError(err.value.decode("utf-8", "replace"))
        out.append(buf.value.decode())
    return out


def _options(given: Dict[str, Any]) -> Tuple[Any, Any, int]:
    names = (ctypes.c_char_p * max(len(given), 1))(*(k.encode() for k in given))
    values = (ctypes.c_char_p * max(len(given), 1))(*given.values())
    return names, values, len(given)


def _games_of(games: Any) -> List[Game]:
    if isinstance(games, Game):
        return [games]
    try:
        out = list(games)
    except TypeError:
        raise TypeError("games must be a leuctra.Game or a sequence of them, not %s" % type(games).__name__) from None
    for i, g in enumerate(out):
        if not isinstance(g, Game):
            raise TypeError("games[%d] must be a leuctra.Game, not %s" % (i, type(g).__name__))
    if not 1 <= len(out) <= SEARCH_MAX_GAMES:
        raise InputError("search: the number of games must be from 1 to %d, got %d" % (SEARCH_MAX_GAMES, len(out)))
    return out


class _Holding:
    """Every game's lock held, in one order (no two searches deadlock)."""

    def __init__(self, games: List[Game]) -> None:
        self.games = sorted({id(g): g for g in games}.values(), key=id)

    def __enter__(self) -> "_Holding":
        taken = []
        try:
            for g in self.games:
                g._lock.acquire()
                taken.append(g)
                g._live()
        except BaseException:
            for g in taken:
                g._lock.release()
            raise
        return self

    def __exit__(self, *exc: Any) -> None:
        for g in self.games:
            g._lock.release()

    def searching(self, on: bool) -> None:
        """Marks the games as being searched: a call on one from inside evaluate (the same thread,
        which their locks let through) raises LeuctraError instead of changing the position or
        swapping the weights under the search."""
        for g in self.games:
            g._searching = on


def search(games: Union[Game, Sequence[Game]], evaluate: Evaluate, visits: int = 800, batch: int = 64,
           seed: int = 1, weights: Optional[Any] = None, details: bool = False,
           stats: Optional[Dict[str, Any]] = None, **options: Any) -> SearchResult:
    """Searches each game (a leuctra.Game, or a sequence of up to 1,024 of one variant and board)
    from its position, its earlier positions counting for the repetition rule, with leuctra's
    MCTS on this thread, asking evaluate for batches of leaf evaluations: up to `batch` (1 to
    1,024) leaves per call, spread over the games (at most ceil(batch / n) of one game's visits
    in flight, apart by a virtual loss).  With batch 1, or batch n for n games, each search is
    the one a search without a batch makes, visit for visit.

    evaluate(planes, legal_start, legal) -> (values, policy): planes uint8 [n, planes, H, W]
    (read-only; the search's own arrays, overwritten at the next call: copy what you keep),
    legal_start int32 [n + 1], legal int32 [total] (leaf i's
    legal actions, ascending: legal[legal_start[i]:legal_start[i + 1]]).  values: n numbers,
    the side to move's win probability (0 to 1); policy: a score >= 0 for each legal action
    ([total], the search normalises each leaf's; all 0: uniform), or [n, num_actions] over the
    whole action index (its legal entries are taken: a masked policy).  An exception inside
    evaluate stops the search and is raised from here; a wrong shape, or a value or score out of
    range, is an InputError naming the leaf.  evaluate must not use the games being searched.

    visits: 1 to 10**12 per game (the search's visits; no time limit); seed, weights (the weights
    own_evaluation uses) and options: any search option but threads, time and playouts
    (leuctra.search_options(): cpuct=, fpu=, nodes=, contempt=, solve=, rootsolve=, coarse=).
    The evaluator's priors count as learned ones: cpuct defaults to 0.7.  stats: a dict to
    fill with the call's figures: calls (of evaluate), leaves, python_seconds (inside the
    callback: the copies, evaluate and the checks of its answer), seconds (the whole call).
    Returns a SearchResult (visit counts per legal action, root values, best moves)."""
    began = time.perf_counter()
    if numpy is None:
        raise ImportError("leuctra.search needs numpy")
    if stats is not None and not isinstance(stats, dict):
        raise TypeError("stats must be a dict, not %s" % type(stats).__name__)
    game_list = _games_of(games)
    b = _args.integer(batch, "batch", 1, SEARCH_MAX_BATCH)
    given = {"visits": _option_text("visits", visits), "seed": _option_text("seed", seed)}
    if weights is not None:
        given["weights"] = _option_text("weights", weights)
    for name, value in options.items():
        if name in ("visits", "seed", "weights", "batch", "details", "stats"):
            raise TypeError("search: give %s as its own argument" % name)
        given[name] = _option_text(name, value)
    want_details = _args.flag(details, "details")
    first = game_list[0]
    bridge = _Bridge(evaluate, (first.num_planes, first.height, first.width), first.num_actions)
    names, values, count = _options(given)
    n = len(game_list)
    handles = (ctypes.c_void_p * n)()
    err = ctypes.create_string_buffer(_ERR_LEN)
    with _Holding(game_list) as holding:
        capacity = 0
        for i, g in enumerate(game_list):
            handles[i] = g._h
            capacity += lib.lt_game_legal_actions(g._h, g._actions, len(g._actions))
        legal_start = numpy.zeros(n + 1, dtype=numpy.int32)
        legal = numpy.zeros(max(capacity, 1), dtype=numpy.int32)
        visit_counts = numpy.zeros(max(capacity, 1), dtype=numpy.int32)
        root_values = numpy.zeros(n, dtype=numpy.float64)
        best = numpy.zeros(n, dtype=numpy.int32)
        json_len = (4096 + 256 * capacity) if want_details else 0
        json_buf = ctypes.create_string_buffer(json_len) if want_details else None
        holding.searching(True)
        try:
            status = lib.lt_search_batched(handles, n, count, names, values, b, bridge.c_function, None,
                                           legal_start.ctypes.data, legal.ctypes.data, visit_counts.ctypes.data,
                                           max(capacity, 1), root_values.ctypes.data, best.ctypes.data, json_buf,
                                           json_len, err, _ERR_LEN)
        finally:
            holding.searching(False)
        bridge.report(stats, began)
        bridge.raise_kept()
        if status != OK:
            _raise(status, err)
        moves = [g.move_of(int(a)) if a >= 0 else None for g, a in zip(game_list, best)]
    detail = json.loads(json_buf.value.decode()) if want_details else None
    total = int(legal_start[n])
    return SearchResult(legal[:total], numpy.diff(legal_start).astype(numpy.int32),
                        legal_start[:n].astype(numpy.int64), visit_counts[:total], root_values, best, moves, detail)


def selfplay(variant: str, games: int, evaluate: Evaluate, out: Any, visits: int = 800, seed: int = 1, *,
             size: Optional[Size] = None, position: Optional[str] = None, games_at_once: Optional[int] = None,
             batch: Optional[int] = None, evaluator: Optional[str] = None, resume: bool = False,
             weights: Optional[Any] = None, cpuct: Optional[float] = None, temperature: Optional[float] = None,
             temperature_plies: Optional[int] = None, noise: Optional[float] = None,
             noise_alpha: Optional[float] = None, random_opening: Optional[int] = None,
             max_plies: Optional[int] = None, repetition: bool = True,
             stats: Optional[Dict[str, Any]] = None) -> Dict[str, Any]:
    """Plays `games` self-play games (1 to 10**8) of variant (size, position: as Game) as
    `leuctra selfplay` plays them, every move one batched search of the games in play whose
    leaves evaluate judges (as leuctra.search's), and writes them to the records file `out`
    (docs/FORMAT.md: `leuctra records export`, leuctra.read_records and Dataset read it), each
    game appended as it ends (crash-safe; resume=True completes a file begun with the same
    settings), the file canonical at the end.

    games_at_once: games played in step (1 to 1,024; default min(games, 64)); batch: leaves per
    call of evaluate (1 to 1,024; default games_at_once: one leaf of each game per call).  With
    a batch no larger than games_at_once, each game's visits go one after another and each game
    is a function of its seed and evaluate alone; beyond, a game depends on those beside it.
    evaluator: a one-line name for evaluate in the file's settings (default "external"): a
    network's file and generation, so that a resumed run with another network is refused.
    The rest as selfplay's flags: visits (800), seed (1), cpuct (1.5), temperature (1),
    temperature_plies, noise (0.25), noise_alpha (0.3), random_opening (0), max_plies (600),
    repetition (True), weights (those own_evaluation uses).  Returns the run's counts: total,
    present (games the file held already), played, white_wins, black_wins, draws, plies,
    seconds.  An exception inside evaluate stops the run and is raised from here; the games
    finished before it stay in the file, ready for resume=True.  stats: as search's."""
    began = time.perf_counter()
    if stats is not None and not isinstance(stats, dict):
        raise TypeError("stats must be a dict, not %s" % type(stats).__name__)
    if numpy is None:
        raise ImportError("leuctra.selfplay needs numpy")
    v = _args.text(variant, "variant")
    count_games = _args.integer(games, "games", 1, _MAX_GAMES_PLAYED)
    s = None if size is None else _size_text(size)
    p = None if position is None else _args.text(position, "position")
    path = _args.path(out, "out")
    given: Dict[str, bytes] = {"visits": _option_text("visits", visits), "seed": _option_text("seed", seed),
                               "repetition": b"true" if _args.flag(repetition, "repetition") else b"false",
                               "resume": b"true" if _args.flag(resume, "resume") else b"false"}
    numbers = {"games_at_once": (games_at_once, 1, SEARCH_MAX_GAMES), "batch": (batch, 1, SEARCH_MAX_BATCH),
               "temperature_plies": (temperature_plies, 0, _MAX_PLIES),
               "random_opening": (random_opening, 0, _MAX_PLIES), "max_plies": (max_plies, 0, _MAX_PLIES)}
    for name, (value, least, most) in numbers.items():
        if value is not None:
            given[name] = str(_args.integer(value, name, least, most)).encode()
    reals = {"temperature": (temperature, 0.0, 100.0), "noise": (noise, 0.0, 1.0),
             "noise_alpha": (noise_alpha, 0.001, 100.0)}
    for name, (value, low, high) in reals.items():
        if value is not None:
            given[name] = repr(_args.real(value, name, low, high)).encode()
    if cpuct is not None:
        given["cpuct"] = _option_text("cpuct", cpuct)
    if weights is not None:
        given["weights"] = _option_text("weights", weights)
    if evaluator is not None:
        given["evaluator"] = _args.text(evaluator, "evaluator")
    with Game(variant, size=size, position=position) as shape:
        bridge = _Bridge(evaluate, (shape.num_planes, shape.height, shape.width), shape.num_actions)
    names, values, count = _options(given)
    err = ctypes.create_string_buffer(_ERR_LEN)
    summary = ctypes.create_string_buffer(1024)
    status = lib.lt_selfplay(v, s, p, path, count_games, count, names, values, bridge.c_function, None, summary,
                             1024, err, _ERR_LEN)
    bridge.report(stats, began)
    bridge.raise_kept()
    if status != OK:
        _raise(status, err)
    return json.loads(summary.value.decode())
