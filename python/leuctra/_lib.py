"""Finding and describing libleuctra.so (the C API of api/leuctra_api.h) through ctypes.

Looked for, in order: $LEUCTRA_LIB; beside this file (an installed wheel carries it); build/
of the source tree this package sits in (PYTHONPATH=python); the system's library path (after
`make install`)."""
import ctypes
import ctypes.util
import os

API_VERSION = 6            # 4: the lt_vec_* calls (VecGame); 5: lt_network_* (leuctra.net);
                           # 6: lt_search_batched, lt_selfplay (a Python evaluator: guided.py)
OK, FAILED, INPUT = 0, 1, 2
# api/leuctra_api.h's LT_PERFT_MAX_DEPTH: checked here first, so that no number is cut to its C
# type, and by the library again.  The search's ranges come from the library's one table
# (lt_search_options; game.py).
PERFT_MAX_DEPTH = 30
# LT_VEC_MAX_GAMES, and the reasons a game of a VecGame ends (LT_END_*).
VEC_MAX_GAMES = 1 << 20
# --- guided.py: LT_SEARCH_MAX_GAMES, LT_SEARCH_MAX_BATCH
SEARCH_MAX_GAMES = 1024
SEARCH_MAX_BATCH = 1024


def _candidates():
    env = os.environ.get("LEUCTRA_LIB")
    if env:
        yield env
        return
    here = os.path.dirname(os.path.abspath(__file__))
    yield os.path.join(here, "libleuctra.so")
    yield os.path.join(here, "..", "..", "build", "libleuctra.so")
    found = ctypes.util.find_library("leuctra")
    if found:
        yield found
    for prefix in ("/usr/local/lib", "/usr/lib"):
        yield os.path.join(prefix, "libleuctra.so")


def _declare(lib):
    c = ctypes
    P, S, I, L, D, U64 = c.c_void_p, c.c_char_p, c.c_int, c.c_long, c.c_double, c.c_uint64
    SZ, PI, PU = c.c_size_t, c.POINTER(c.c_int), c.POINTER(c.c_uint)
    table = {
        "lt_api_version": (I, []),
        "lt_version": (S, []),
        "lt_threads_max": (I, []),
        "lt_threads_note": (I, [I, S, SZ]),
        "lt_game_new": (P, [S, S, S, S, SZ]),
        "lt_game_clone": (P, [P, S, SZ]),
        "lt_game_free": (None, [P]),
        "lt_game_variant": (S, [P]),
        "lt_game_shape": (None, [P, PI, PI, PI, PI, PI, PU]),
        "lt_game_position": (I, [P, S, SZ]),
        "lt_game_set_position": (I, [P, S, S, SZ]),
        "lt_game_side": (I, [P]),
        "lt_game_status": (I, [P]),
        "lt_game_legal_moves": (I, [P, S, SZ]),
        "lt_game_legal_actions": (I, [P, c.POINTER(c.c_int32), I]),
        "lt_game_play": (I, [P, S, S, SZ]),
        "lt_game_play_action": (I, [P, I, S, SZ]),
        "lt_game_undo": (I, [P, S, SZ]),
        "lt_game_action_of": (I, [P, S, c.POINTER(c.c_int32), S, SZ]),
        "lt_game_move_of": (I, [P, I, S, SZ, S, SZ]),
        "lt_game_planes": (I, [P, P, SZ, S, SZ]),
        "lt_game_perft": (I, [P, I, I, c.POINTER(U64), S, SZ]),
        "lt_game_analyze": (I, [P, L, D, S, U64, I, S, SZ, S, SZ]),
        "lt_game_search": (I, [P, I, c.POINTER(S), c.POINTER(S), S, SZ, S, SZ]),
        "lt_search_options": (I, [S, SZ]),
        "lt_vec_new": (P, [S, S, I, U64, I, c.POINTER(S), c.POINTER(S), S, SZ]),
        "lt_vec_free": (None, [P]),
        "lt_vec_variant": (S, [P]),
        "lt_vec_shape": (None, [P, PI, PI, PI, PI, PI, PI, PU]),
        "lt_vec_bind": (I, [P, S, P, SZ, S, SZ]),
        "lt_vec_reset": (I, [P, I, U64, c.POINTER(c.c_int64), S, SZ]),
        "lt_vec_step": (I, [P, P, SZ, c.POINTER(c.c_int64), S, SZ]),
        "lt_vec_position": (I, [P, I, S, SZ, S, SZ]),
        "lt_vec_game": (P, [P, I, S, SZ]),
        # --- guided.py: searches and self-play whose leaves a Python evaluator judges (the
        # evaluator is a CFUNCTYPE, passed as a void pointer's worth: its own type is guided.py's)
        "lt_search_batched": (I, [c.POINTER(P), I, I, c.POINTER(S), c.POINTER(S), I, c.c_void_p, P,
                                  P, P, P, SZ, P, P, S, SZ, S, SZ]),
        "lt_selfplay": (I, [S, S, S, S, L, I, c.POINTER(S), c.POINTER(S), c.c_void_p, P, S, SZ, S, SZ]),
        "lt_leaves_position": (I, [P, I, S, SZ, S, SZ]),
        "lt_leaves_evaluate": (I, [P, P, P, S, SZ]),
        "lt_records_open": (P, [S, I, S, SZ]),
        "lt_records_variant": (S, [P]),
        "lt_records_shape": (None, [P, PI, PI, PI, PI, PI]),
        "lt_records_read": (I, [P, L, c.POINTER(L), c.POINTER(L), S, SZ]),
        "lt_records_fetch": (None, [P] + [P] * 11),
        "lt_records_close": (None, [P]),
    }
    table.update(_network_table())
    for name, (restype, argtypes) in table.items():
        f = getattr(lib, name)
        f.restype = restype
        f.argtypes = argtypes
    return lib


def _network_table():
    """The lt_network_* calls (api/leuctra_api.h, "the network, trained elsewhere"; leuctra.net)."""
    c = ctypes
    P, S, I, D, SZ, I64 = c.c_void_p, c.c_char_p, c.c_int, c.c_double, c.c_size_t, c.c_int64
    PI64, PS = c.POINTER(I64), c.POINTER(S)
    return {
        "lt_network_describe": (I, [S, S, S, I, S, S, SZ, S, SZ]),
        "lt_network_data_new": (P, [PS, I, S, I, S, I, D, D, I, I, S, SZ]),
        "lt_network_data_free": (None, [P]),
        "lt_network_data_info": (I, [P, S, SZ]),
        "lt_network_data_size": (I, [P, I, PI64, PI64, PI64, PI64, S, SZ]),
        "lt_network_data_fetch": (I, [P, I] + [P] * 10 + [S, SZ]),
        "lt_network_data_sample": (I, [P, I, I64, PI64, S, SZ, S, SZ]),
        "lt_network_save": (I, [S, S, S, S, I, S, I, c.POINTER(c.c_void_p), PI64, PS, I, S, S, SZ]),
        "lt_network_eval_new": (P, [S, S, S, S, SZ]),
        "lt_network_eval_free": (None, [P]),
        "lt_network_eval_info": (I, [P, S, SZ]),
        "lt_network_eval_run": (I, [P, PS, I, PI64, PI64, S, SZ]),
        "lt_network_eval_fetch": (None, [P] + [P] * 9),
    }


def load():
    tried = []
    for path in _candidates():
        path = os.path.normpath(path) if os.sep in path else path
        if os.sep in path and not os.path.exists(path):
            tried.append(path)
            continue
        try:
            lib = ctypes.CDLL(path)
        except OSError as e:
            tried.append("%s (%s)" % (path, e))
            continue
        if lib.lt_api_version() < API_VERSION:
            tried.append("%s (API version %d, this package needs %d)" % (path, lib.lt_api_version(), API_VERSION))
            continue
        return _declare(lib), path
    raise ImportError("leuctra: libleuctra.so not found (run make, or set LEUCTRA_LIB); tried: " + ", ".join(tried))


lib, path = load()
