"""The switch between compiled and plain-Python kernels, and the arrays they work on.

With numba installed (``pip install 'sosgame[fast]'``) every kernel function is compiled once
and cached on disk; without it, or with ``NUMBA_DISABLE_JIT=1``, the same source runs as plain
Python over lists, only slower.

Compiling every kernel takes a minute or more of CPU, once per install and source, and no
one should wait for it: where the compiled code is kept and how it gets built is
:mod:`sosgame.kernel_cache`. A process whose cache is ready runs compiled kernels
(:data:`MODE` ``"compiled"``); one that finds it incomplete runs the same source as plain
Python (``"pending"``) and, at its first warm-up, starts the build in the background.

A process told to compile for itself (``SOSGAME_KERNELS=compiled``, or with no cache folder
anywhere) runs each warm-up (:func:`sosgame.kernel.warm_up` and the search's, the solver's
and the players') inside :func:`compiling`, which shows, the first time, the notice a program
set with :func:`sosgame.first_compile.announcing`, so that a person knows why it is slow.
"""

from __future__ import annotations

import contextlib
import importlib
import os
import sys
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator
from functools import cache
from pathlib import Path
from typing import Any, Final, Protocol, TypeVar

from sosgame import first_compile, kernel_cache
from sosgame.kernel_cache import (
    CachePlan,
    choose_mode,
    forget_other_digests,
    plan,
    plan_cache,
    source_digest,
)

__all__ = [
    "HAVE_NUMBA",
    "INSTALL_HINT",
    "JIT",
    "MODE",
    "PENDING",
    "CachePlan",
    "IntArray",
    "compiled_before",
    "compiling",
    "jit",
    "jit_borrowed",
    "jit_inline",
    "new_array",
    "notice_if_slow",
    "plan_cache",
    "source_digest",
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


class IntArray(Protocol):
    """A flat array of integers: a numpy array under numba, a list or array otherwise."""

    def __getitem__(self, index: int, /) -> int: ...

    def __setitem__(self, index: int, value: int, /) -> None: ...

    def __len__(self) -> int: ...

    def copy(self) -> IntArray: ...


F = TypeVar("F", bound=Callable[..., Any])

_CACHE: Final = plan() if numba else CachePlan(False, None)
MODE: Final = choose_mode(
    numba is not None and numpy is not None and not numba.config.DISABLE_JIT, _CACHE, os.environ
)
"""How this process runs its kernels (:data:`sosgame.kernel_cache.Mode`)."""
JIT: Final = MODE == "compiled"
"""Whether kernel functions are compiled: numba present and not disabled, and either the disk
cache holds them or this process was told to compile them (``SOSGAME_KERNELS=compiled``)."""
PENDING: Final = MODE == "pending"
"""Whether the kernels run as plain Python only until a background build has compiled them."""
if JIT and _CACHE.folder is not None:
    # Read by numba when each function is decorated, so set before any kernel module loads.
    numba.config.CACHE_DIR = _CACHE.folder
    if not os.environ.get("NUMBA_CACHE_DIR"):
        forget_other_digests(Path(_CACHE.folder))


def _compile(function: F, **options: object) -> F:
    if not JIT:
        return function
    compiled: F = numba.njit(cache=_CACHE.enabled, nogil=True, **options)(function)
    return compiled


def jit(function: F) -> F:
    """Compile ``function`` with numba (cached on disk, releasing the GIL) when it is present.

    Without numba the function is returned as it is, so it runs as plain Python.
    """
    return _compile(function)


def jit_borrowed(function: F) -> F:
    """Like :func:`jit`, for a function that only works on the arrays it is given.

    It is compiled without reference counting, which would cost a pair of atomic operations
    on every array handed from function to function; it cannot make an array.
    """
    return _compile(function, _nrt=False)


def jit_inline(function: F) -> F:
    """Like :func:`jit_borrowed`, but compiled into each caller rather than called.

    A caller passing a constant flag so gets a copy specialised for it, with the other branch
    gone: one source serves callers that want different code paths at full speed.
    """
    return _compile(function, _nrt=False, inline="always")


# Compact element types: "q" is a 64-bit integer, "i" a 32-bit one, "b" an 8-bit one.
_NUMPY_TYPES: Final = {"q": "int64", "i": "int32", "b": "int8"}


class _CompactArray(array):  # type: ignore[type-arg]
    """A standard-library array with the ``copy`` method kernels expect."""

    def copy(self) -> _CompactArray:
        return _CompactArray(self.typecode, self)


def new_array(length: int, typecode: str = "q") -> IntArray:
    """A zeroed array of ``length`` integers of the kernels' kind (``typecode`` "q", "i" or "b")."""
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


_compiling = threading.local()


def _mark(what: str) -> Path | None:
    return None if _CACHE.folder is None else Path(_CACHE.folder) / f"{what}.warm"


def compiled_before(what: str) -> bool:
    """Whether the kernels of the warm-up ``what`` are in the disk cache already (or need no
    compiling: numba is absent or disabled). Without a cache they compile in every process,
    which no notice of a first run would describe, so that counts as compiled too."""
    mark = _mark(what)
    return not JIT or mark is None or mark.exists()


@contextlib.contextmanager
def compiling(what: str) -> Iterator[None]:
    """Run the warm-up ``what`` in the block: the first time, under the program's notice
    (once, however the warm-ups nest), and leaving the mark that says its kernels are cached.
    While the kernels run as plain Python until built (:data:`PENDING`), it starts the build."""
    if PENDING:
        kernel_cache.start_build()
    fresh = not compiled_before(what)
    outer = not getattr(_compiling, "active", False)
    notice = first_compile.notice() if fresh and outer else None
    _compiling.active = True
    try:
        with notice() if notice is not None else contextlib.nullcontext():
            yield
    finally:
        _compiling.active = not outer
    mark = _mark(what)
    if fresh and JIT and mark is not None:
        with contextlib.suppress(OSError):  # the kernels are cached all the same
            mark.touch()
