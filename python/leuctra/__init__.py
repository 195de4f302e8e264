"""leuctra: the rules, the action index, the input planes and the search of the leuctra toolkit
(Epaminondas, Crossings, Igfip, Reversi), and its self-play records as arrays, from Python.

    import leuctra
    with leuctra.Game("crossings") as g:
        g.legal_moves(); g.play("a2-a3"); g.status(); g.planes(); g.legal_mask()
        g.analyze(visits=400)["best"]
    data = leuctra.read_records("run1.lrec")        # or leuctra.load_npz("train.npz")
    env = leuctra.VecGame("crossings", 1024, seed=1)   # 1,024 games stepped per call (numpy)
    obs = env.step(actions)                          # planes, masks, legal lists, rewards, done
    nd = leuctra.network_data("run1.lrec")          # docs/NETWORK.md's inputs and targets (leuctra.net)
    r = leuctra.search(games, evaluate, visits=200)  # MCTS whose leaves your network judges
    leuctra.selfplay("crossings", 100, evaluate, "run.lrec")   # ... and self-play records of it

Standard library only (ctypes over libleuctra.so, which `make` builds); numpy is used for arrays
where it is installed.  Every failure is an exception: InputError (also a ValueError) for bad
input, LeuctraError for the rest, TypeError for an argument of the wrong type.  A Game may be
shared between threads (its calls take turns).  docs/PYTHON.md describes the package,
docs/TENSORS.md the action index and planes.

__version__ is the library's version (lt_version(), the Makefile's VERSION), which the
package's own metadata carries too."""
from ._lib import lib as _lib, path as library_path
from ._errors import LeuctraError, InputError
from .game import Game, PLANE_NAMES, STATUS_NAMES, THREADS_MAX, search_options
from .data import read_records, load_npz, unpack_planes, Dataset
from .vec import VecGame, VecStep, END_REASONS
# The network of docs/NETWORK.md trained in PyTorch (leuctra.net: PyTorch imported when used).
from . import net
from .net import network_data

__version__: str = _lib.lt_version().decode()
__all__ = ["Game", "VecGame", "VecStep", "END_REASONS", "LeuctraError", "InputError", "PLANE_NAMES", "STATUS_NAMES", "THREADS_MAX", "search_options", "read_records",
           "load_npz", "unpack_planes", "Dataset", "library_path", "__version__"]
__all__ += ["net", "network_data"]
# --- searches and self-play guided by a Python evaluator (guided.py)
from .guided import search, selfplay, own_evaluation, leaf_positions, SearchResult
__all__ += ["search", "selfplay", "own_evaluation", "leaf_positions", "SearchResult"]
