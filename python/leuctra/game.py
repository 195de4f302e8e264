"""leuctra.Game: a game and its position through the C library (rules, notation, action index,
planes, perft, search).  Errors are LeuctraError exceptions with the library's one-line message."""
import ctypes
import json

from ._lib import lib, OK, INPUT

try:
    import numpy
except ImportError:  # arrays come back as lists then
    numpy = None

STATUS_NAMES = ("ongoing", "white-wins", "black-wins", "draw")
PLANE_NAMES = ("own", "opponent", "obstacle", "own_frozen", "opponent_frozen",
               "must_answer", "symmetry_rule", "white_to_move", "on_board")
_ERR_LEN = 512
_MOVES_TEXT = 8192 * 8 + 1


class LeuctraError(Exception):
    """A call the library refused or could not do; str() is its one-line message."""


class InputError(LeuctraError, ValueError):
    """Bad input: a variant, board size, position, move, action, path or weights file."""


def _raise(status, err):
    msg = err.value.decode("utf-8", "replace")
    raise (InputError if status == INPUT else LeuctraError)(msg)


def _text(s, what):
    if not isinstance(s, str):
        raise TypeError("%s must be a str, not %s" % (what, type(s).__name__))
    if "\0" in s:
        raise InputError("%s contains a NUL character" % what)
    return s.encode("utf-8")


class Game:
    """Game(variant="epaminondas", size=None, position=None)

    size: "WxH" or (W, H) for the phalanx games (default the variant's board, or the board of
    `position`); position: a position string (default the start)."""

    def __init__(self, variant="epaminondas", size=None, position=None, _handle=None):
        err = ctypes.create_string_buffer(_ERR_LEN)
        if _handle is None:
            if isinstance(size, (tuple, list)):
                size = "%dx%d" % tuple(size)
            _handle = lib.lt_game_new(_text(variant, "variant"), None if size is None else _text(size, "size"),
                                      None if position is None else _text(position, "position"), err, _ERR_LEN)
            if not _handle:
                raise InputError(err.value.decode("utf-8", "replace"))
        self._h = _handle
        w, h, a, c, v, s = (ctypes.c_int() for _ in range(6))
        sym = ctypes.c_uint()
        lib.lt_game_shape(self._h, ctypes.byref(w), ctypes.byref(h), ctypes.byref(a), ctypes.byref(c),
                          ctypes.byref(v), ctypes.byref(sym))
        self.variant = lib.lt_game_variant(self._h).decode()
        self.width, self.height, self.num_actions = w.value, h.value, a.value
        self.num_planes, self.planes_version, self.symmetries = c.value, v.value, sym.value
        self._moves = ctypes.create_string_buffer(_MOVES_TEXT)
        self._actions = (ctypes.c_int32 * 8192)()
        self._err = err

    def __del__(self):
        h = getattr(self, "_h", None)
        if h:
            lib.lt_game_free(h)
            self._h = None

    def _check(self, status):
        if status != OK:
            _raise(status, self._err)

    def copy(self):
        """A copy with its own position and move history."""
        h = lib.lt_game_clone(self._h, self._err, _ERR_LEN)
        if not h:
            raise LeuctraError(self._err.value.decode("utf-8", "replace"))
        return Game(_handle=h)

    def __repr__(self):
        return "leuctra.Game(%r, size=%r, position=%r)" % (self.variant, "%dx%d" % (self.width, self.height),
                                                          self.position())

    # --- the position -----------------------------------------------------------------------
    def position(self):
        buf = ctypes.create_string_buffer(512)
        lib.lt_game_position(self._h, buf, 512)
        return buf.value.decode()

    def set_position(self, position):
        self._check(lib.lt_game_set_position(self._h, _text(position, "position"), self._err, _ERR_LEN))

    def side_to_move(self):
        """'w' or 'b'."""
        return "wb"[lib.lt_game_side(self._h)]

    def status(self):
        """'ongoing', 'white-wins', 'black-wins' or 'draw' (the rules', as `leuctra status`)."""
        return STATUS_NAMES[lib.lt_game_status(self._h)]

    def legal_moves(self):
        n = lib.lt_game_legal_moves(self._h, self._moves, _MOVES_TEXT)
        return self._moves.value.decode().split() if n > 0 else []

    def play(self, move):
        """Plays a move given in notation ("e2-e3", "d3", "pass") or as an action number."""
        if isinstance(move, int) and not isinstance(move, bool):
            self._check(lib.lt_game_play_action(self._h, move, self._err, _ERR_LEN))
        else:
            self._check(lib.lt_game_play(self._h, _text(move, "move"), self._err, _ERR_LEN))

    def undo(self):
        self._check(lib.lt_game_undo(self._h, self._err, _ERR_LEN))

    def perft(self, depth, threads=1):
        count = ctypes.c_uint64()
        self._check(lib.lt_game_perft(self._h, int(depth), int(threads), ctypes.byref(count), self._err, _ERR_LEN))
        return count.value

    # --- tensors ------------------------------------------------------------------------------
    def action_of(self, move):
        """The action number of a legal move (docs/TENSORS.md)."""
        a = ctypes.c_int32()
        self._check(lib.lt_game_action_of(self._h, _text(move, "move"), ctypes.byref(a), self._err, _ERR_LEN))
        return a.value

    def move_of(self, action):
        """The notation of a legal action."""
        if not isinstance(action, int) or isinstance(action, bool):
            raise TypeError("action must be an int")
        buf = ctypes.create_string_buffer(32)
        if not -2**31 <= action < 2**31:
            raise InputError("action %d out of range (this game has actions 0-%d)" % (action, self.num_actions - 1))
        self._check(lib.lt_game_move_of(self._h, action, buf, 32, self._err, _ERR_LEN))
        return buf.value.decode()

    def legal_actions(self):
        """The legal actions, ascending."""
        n = lib.lt_game_legal_actions(self._h, self._actions, 8192)
        return list(self._actions[:n])

    def legal_mask(self):
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

    def planes(self):
        """The input planes from the side to move's view: numpy uint8 [planes, height, width] (nested
        lists without numpy); PLANE_NAMES names them."""
        size = self.num_planes * self.height * self.width
        buf = (ctypes.c_uint8 * size)()
        self._check(lib.lt_game_planes(self._h, buf, size, self._err, _ERR_LEN))
        if numpy is not None:
            return numpy.frombuffer(buf, dtype=numpy.uint8).reshape(self.num_planes, self.height, self.width).copy()
        flat, hw, w = list(buf), self.height * self.width, self.width
        return [[flat[c * hw + r * w: c * hw + (r + 1) * w] for r in range(self.height)] for c in range(self.num_planes)]

    # --- search -------------------------------------------------------------------------------
    def analyze(self, visits=1000, seconds=0.0, weights=None, seed=1, threads=1):
        """Searches the position with the engine's MCTS.  Returns a dict: best (move), value (the
        side to move's win probability), proven, visits, seconds, pv (moves), moves (each root
        move's move, action, visits, prior, value), and visit_counts {move: visits}."""
        buf = ctypes.create_string_buffer(1 << 20)
        w = None if weights is None else _text(str(weights), "weights")
        self._check(lib.lt_game_analyze(self._h, int(visits), float(seconds), w, int(seed), int(threads), buf,
                                        1 << 20, self._err, _ERR_LEN))
        result = json.loads(buf.value.decode())
        result["visit_counts"] = {m["move"]: m["visits"] for m in result["moves"]}
        return result
