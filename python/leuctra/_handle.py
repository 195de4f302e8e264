"""A C handle's life, shared by the package's classes that hold one (Game, VecGame): a lock that
makes the object's calls take turns between threads, close() and `with`, the handle freed when
the object is collected, and a clear LeuctraError on a closed one; such objects are not pickled."""
import threading
from typing import Any, Callable, Optional

from ._errors import LeuctraError


class Handle:
    """Base of the classes over a C handle: set _free (the library's free function) and _what (the
    name in messages, e.g. "leuctra.Game") on the subclass, and call _start_handle() first."""

    _free: Callable[[int], None]
    _what: str = "leuctra object"

    def _start_handle(self) -> None:
        self._h: Optional[int] = None
        self._lock = threading.RLock()

    def close(self) -> None:
        """Frees the C handle now.  Later calls raise LeuctraError; closing twice is harmless."""
        with self._lock:
            handle, self._h = self._h, None
            if handle:
                type(self)._free(handle)

    @property
    def closed(self) -> bool:
        """Whether close() has been called."""
        return self._h is None

    def __enter__(self) -> Any:
        self._live()
        return self

    def __exit__(self, *exc: Any) -> None:
        self.close()

    def __del__(self) -> None:
        # Nothing else refers to the object now, so no lock; the library's functions may already
        # be gone when the interpreter shuts down.
        handle = getattr(self, "_h", None)
        free = getattr(type(self), "_free", None)
        if handle and free is not None:
            self._h = None
            free(handle)

    def _live(self) -> int:
        if self._h is None:
            raise LeuctraError("this %s is closed" % self._what)
        return self._h

    def __reduce__(self) -> Any:
        raise TypeError("a %s cannot be pickled; make a new one from its arguments" % self._what)
