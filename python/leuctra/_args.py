"""Checking the arguments of the package's calls before they reach ctypes, which would cut a
Python integer to the C type silently (play(2**32 + 5) would play action 5) and encode any object
as text: integers are refused past their range, with an InputError that names the argument and
the range; bools, floats and strings where an integer belongs are a TypeError; texts and paths
with a NUL, or that cannot be encoded, are an InputError; objects that are neither are a
TypeError.  numpy's integers and floats are accepted where Python's are."""
import math
import numbers
import operator
import os
from typing import Any, Optional

from ._errors import InputError


def _is_bool(value: Any) -> bool:
    # numpy.bool_ is no bool subclass, and operator.index() takes it on older numpy
    return isinstance(value, bool) or type(value).__name__ in ("bool_", "bool8")


def _show(v: int) -> str:
    """An integer for a message: a 10**5000 is not printed in full (nor can it be, past Python's
    4,300-digit limit)."""
    return str(v) if v.bit_length() <= 128 else "an integer of %d bits" % v.bit_length()


def integer(value: Any, name: str, least: int, most: int) -> int:
    """value as an int from least to most."""
    if _is_bool(value):
        raise TypeError("%s must be an integer, not a bool" % name)
    try:
        v = operator.index(value)
    except TypeError:
        raise TypeError("%s must be an integer, not %s" % (name, type(value).__name__)) from None
    if not least <= v <= most:
        raise InputError("%s must be an integer from %d to %d, got %s" % (name, least, most, _show(v)))
    return v


def real(value: Any, name: str, least: float, most: float) -> float:
    """value (an int or a float) as a float from least to most; NaN is refused."""
    if _is_bool(value) or not isinstance(value, numbers.Real):
        raise TypeError("%s must be a number, not %s" % (name, type(value).__name__))
    try:
        v = float(value)
    except OverflowError:       # an int past a double's range
        v = math.inf if value > 0 else -math.inf
    if not least <= v <= most:  # NaN fails both comparisons
        raise InputError("%s must be a number from %g to %g, got %r" % (name, least, most, v))
    return v


def flag(value: Any, name: str) -> bool:
    """A yes/no argument: a bool (or numpy's), or the integers 0 and 1."""
    if _is_bool(value):
        return bool(value)
    if isinstance(value, numbers.Integral) and int(value) in (0, 1):
        return bool(value)
    raise TypeError("%s must be True or False, not %r" % (name, type(value).__name__))


def text(value: Any, name: str) -> bytes:
    """A str for the library (a variant, size, position, move) as UTF-8 bytes."""
    if not isinstance(value, str):
        raise TypeError("%s must be a str, not %s" % (name, type(value).__name__))
    if "\0" in value:
        raise InputError("%s contains a NUL character" % name)
    try:
        return value.encode("utf-8")
    except UnicodeEncodeError:
        raise InputError("%s is not valid text (a lone surrogate: %r)" % (name, value[:40])) from None


def path(value: Any, name: str) -> bytes:
    """A file's path (a str, bytes or os.PathLike such as pathlib.Path) as the bytes the system
    knows it by: os.fsencode, so a name that is not UTF-8 (read as a str with surrogateescape,
    or given as bytes) names the file it names on disk."""
    if not isinstance(value, (str, bytes, os.PathLike)):
        raise TypeError("%s must be a path (str, bytes or os.PathLike), not %s" % (name, type(value).__name__))
    try:
        raw = os.fspath(value)
    except TypeError as e:      # a PathLike whose __fspath__ returns something else
        raise TypeError("%s: %s" % (name, e)) from None
    if not isinstance(raw, (str, bytes)):
        raise TypeError("%s must be a path, and its __fspath__ gave %s" % (name, type(raw).__name__))
    try:
        encoded = os.fsencode(raw)
    except UnicodeEncodeError:
        raise InputError("%s %r cannot be a file name on this system" % (name, raw[:80])) from None
    if b"\0" in encoded:
        raise InputError("%s contains a NUL character" % name)
    if not encoded:
        raise InputError("%s is empty" % name)
    return encoded


def optional_path(value: Any, name: str) -> Optional[bytes]:
    return None if value is None else path(value, name)
