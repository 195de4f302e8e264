"""leuctra: the rules, the action index, the input planes and the search of the leuctra toolkit
(Epaminondas, Crossings, Igfip, Reversi), and its self-play records as arrays, from Python.

    import leuctra
    g = leuctra.Game("crossings")
    g.legal_moves(); g.play("a2-a3"); g.status(); g.planes(); g.legal_mask()
    g.analyze(visits=400)["best"]
    data = leuctra.read_records("run1.lrec")        # or leuctra.load_npz("train.npz")

Standard library only (ctypes over libleuctra.so, which `make` builds); numpy is used for arrays
where it is installed.  docs/TENSORS.md describes the action index and planes."""
from ._lib import lib as _lib, path as library_path
from .game import Game, LeuctraError, InputError, PLANE_NAMES, STATUS_NAMES
from .data import read_records, load_npz, unpack_planes, Dataset

__version__ = _lib.lt_version().decode()
__all__ = ["Game", "LeuctraError", "InputError", "PLANE_NAMES", "STATUS_NAMES", "read_records", "load_npz", "unpack_planes",
           "Dataset", "library_path"]
