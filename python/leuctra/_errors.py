"""The package's exceptions: every failure of a call is one of these (or a TypeError for an
argument of the wrong type), with the library's one-line message."""


class LeuctraError(Exception):
    """A call the library refused or could not do (I/O, a damaged file, memory, a closed Game);
    str() is its one-line message."""


class InputError(LeuctraError, ValueError):
    """Bad input: a variant, board size, position, move, action, number out of its range, path,
    records, weights or .npz file.  Also a ValueError."""
