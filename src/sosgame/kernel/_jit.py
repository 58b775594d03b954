"""The switch between compiled and plain-Python kernels, and the arrays they work on.

With numba installed (``pip install 'sosgame[fast]'``) every kernel function is compiled once
and cached on disk; without it, or with ``NUMBA_DISABLE_JIT=1``, the same source runs as plain
Python over lists, only slower.

The compiled code is kept in ``NUMBA_CACHE_DIR`` when that is set; otherwise in the package's
``__pycache__/numba`` when the package folder is writable, else in the user's cache folder
(``$XDG_CACHE_HOME/sosgame/numba``, by default ``~/.cache/sosgame/numba``). Where nothing is
writable, kernels are compiled afresh in each process, without a word. Within that folder the
code sits under a digest of the compiled modules' source (:func:`source_digest`), so a change
to any of them compiles every kernel afresh.

Compiling takes a minute or more, once: each warm-up (:func:`sosgame.kernel.warm_up` and the
search's, the solver's and the players') runs inside :func:`compiling`, which leaves a mark in
that folder when it is done and, while no mark is there, shows the notice a program set with
:func:`sosgame.first_compile.announcing`, so that a person knows why the first search is slow.
"""

from __future__ import annotations

import contextlib
import hashlib
import importlib
import os
import shutil
import sys
import tempfile
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Mapping
from functools import cache
from pathlib import Path
from typing import Any, Final, NamedTuple, Protocol, TypeVar

from sosgame import first_compile

__all__ = [
    "HAVE_NUMBA",
    "INSTALL_HINT",
    "JIT",
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
JIT: Final = HAVE_NUMBA and numpy is not None and not numba.config.DISABLE_JIT
"""Whether kernel functions are compiled (numba present and not disabled)."""


class CachePlan(NamedTuple):
    """Whether numba caches compiled kernels, and the folder to tell it (None: its own choice)."""

    enabled: bool
    folder: str | None


def _writable(folder: Path) -> bool:
    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryFile(dir=folder):
            return True
    except OSError:
        return False


COMPILED_FOLDERS: Final = ("kernel", "search")
"""The package's folders whose modules hold compiled functions."""


def source_digest(package: Path) -> str:
    """A short digest of the source of every module in :data:`COMPILED_FOLDERS` of ``package``.

    numba keys a cached function on its own file alone, so an edit to a helper that it inlines
    from another file would leave the old machine code in use; caching under this digest
    compiles every kernel afresh after any change to any of those files.
    """
    digest = hashlib.sha256()
    for folder in COMPILED_FOLDERS:
        for path in sorted((package / folder).glob("*.py")):
            digest.update(f"{folder}/{path.name}\0".encode())
            digest.update(path.read_bytes())
    return digest.hexdigest()[:16]


def plan_cache(package: Path, environ: Mapping[str, str]) -> CachePlan:
    """Where kernels compiled from the modules of folder ``package`` are cached.

    ``NUMBA_CACHE_DIR`` when set; else the package's ``__pycache__/numba`` when it is
    writable; else the user cache folder; else no cache at all, so a system-wide, read-only
    install never fails or warns. The folder named is a subfolder of that one, named by
    :func:`source_digest`.
    """
    digest = source_digest(package)
    chosen = environ.get("NUMBA_CACHE_DIR")
    if chosen:
        return CachePlan(True, str(Path(chosen) / f"sosgame-{digest}"))
    user_cache = environ.get("XDG_CACHE_HOME")
    if user_cache:
        user_base = Path(user_cache)
    else:
        user_base = Path(environ.get("HOME") or "~").expanduser() / ".cache"
    for base in (package / "__pycache__" / "numba", user_base / "sosgame" / "numba"):
        if _writable(base / digest):
            return CachePlan(True, str(base / digest))
    return CachePlan(False, None)


def forget_other_digests(folder: Path) -> None:
    """Delete the caches of earlier source beside ``folder`` (what :func:`plan_cache` named).

    Only in the package's or the user's cache folder, whose subfolders are all digests; a
    cache another process is still reading is simply compiled again there.
    """
    for other in folder.parent.iterdir():
        if other != folder and other.is_dir() and len(other.name) == len(folder.name):
            shutil.rmtree(other, ignore_errors=True)


class IntArray(Protocol):
    """A flat array of integers: a numpy array under numba, a list or array otherwise."""

    def __getitem__(self, index: int, /) -> int: ...

    def __setitem__(self, index: int, value: int, /) -> None: ...

    def __len__(self) -> int: ...

    def copy(self) -> IntArray: ...


F = TypeVar("F", bound=Callable[..., Any])

_PACKAGE: Final = Path(__file__).parent.parent
_CACHE: Final = plan_cache(_PACKAGE, os.environ) if numba else CachePlan(False, None)
if _CACHE.folder is not None:
    # Read by numba when each function is decorated, so set before any kernel module loads.
    numba.config.CACHE_DIR = _CACHE.folder
    if not os.environ.get("NUMBA_CACHE_DIR"):
        forget_other_digests(Path(_CACHE.folder))


def _compile(function: F, **options: object) -> F:
    if numba is None:
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
    (once, however the warm-ups nest), and leaving the mark that says its kernels are cached."""
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
