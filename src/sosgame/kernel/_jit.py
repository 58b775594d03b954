"""The switch between compiled and plain-Python kernels, and the arrays they work on.

With numba installed (``pip install 'sosgame[fast]'``) every kernel function is compiled once
and cached on disk; without it, or with ``NUMBA_DISABLE_JIT=1``, the same source runs as plain
Python over lists, only slower.
"""

from __future__ import annotations

import importlib
import sys
from array import array
from collections.abc import Callable, Iterable
from functools import cache
from typing import Any, Final, Protocol, TypeVar

__all__ = [
    "HAVE_NUMBA",
    "INSTALL_HINT",
    "JIT",
    "IntArray",
    "jit",
    "new_array",
    "notice_if_slow",
    "to_array",
]

INSTALL_HINT: Final = (
    "sosgame: numba is not installed, so search runs as plain Python and is much slower;"
    " install it with: pip install 'sosgame[fast]'"
)


def _optional(name: str) -> Any:
    # The base install has no dependencies: numba and numpy come with the "fast" extra.
    try:
        return importlib.import_module(name)
    except ImportError:
        return None


numba: Any = _optional("numba")
numpy: Any = _optional("numpy")

HAVE_NUMBA: Final = numba is not None
JIT: Final = HAVE_NUMBA and numpy is not None and not numba.config.DISABLE_JIT
"""Whether kernel functions are compiled (numba present and not disabled)."""


class IntArray(Protocol):
    """A flat array of integers: a numpy array under numba, a list or array otherwise."""

    def __getitem__(self, index: int, /) -> int: ...

    def __setitem__(self, index: int, value: int, /) -> None: ...

    def __len__(self) -> int: ...

    def copy(self) -> IntArray: ...


F = TypeVar("F", bound=Callable[..., Any])


def jit(function: F) -> F:
    """Compile ``function`` with numba (cached on disk, releasing the GIL) when it is present.

    Without numba the function is returned as it is, so it runs as plain Python.
    """
    if numba is None:
        return function
    compiled: F = numba.njit(cache=True, nogil=True)(function)
    return compiled


# Compact element types: "q" is a 64-bit integer, "b" an 8-bit one.
_NUMPY_TYPES: Final = {"q": "int64", "b": "int8"}


class _CompactArray(array):  # type: ignore[type-arg]
    """A standard-library array with the ``copy`` method kernels expect."""

    def copy(self) -> _CompactArray:
        return _CompactArray(self.typecode, self)


def new_array(length: int, typecode: str = "q") -> IntArray:
    """A zeroed array of ``length`` integers of the kernels' kind (``typecode`` "q" or "b")."""
    if JIT:
        result: IntArray = numpy.zeros(length, dtype=_NUMPY_TYPES[typecode])
        return result
    if length > 1 << 16:
        # Big tables (the solver's) as compact machine integers rather than a list.
        # Grown in chunks, so memory never holds a second copy of it.
        result = _CompactArray(typecode)
        chunk = _CompactArray(typecode, [0]) * (1 << 16)
        while len(result) + len(chunk) <= length:
            result.extend(chunk)
        result.extend(_CompactArray(typecode, [0]) * (length - len(result)))
        return result
    return [0] * length


def to_array(values: Iterable[int]) -> IntArray:
    """The kernels' kind of 64-bit integer array holding ``values``."""
    if JIT:
        result: IntArray = numpy.array(list(values), dtype=numpy.int64)
        return result
    return list(values)


@cache
def notice_if_slow() -> None:
    """Say once per process, on standard error, how to get the fast kernel if it is missing."""
    if not HAVE_NUMBA:
        print(INSTALL_HINT, file=sys.stderr)
