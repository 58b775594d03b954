"""Compile every kernel into the disk cache: ``python -m sosgame.ai.build [--wait]``.

Started in the background by :func:`sosgame.kernel_cache.start_build` (low priority; gives
way at once to a build already under way) or run with ``--wait`` by a program that needs
the compiled kernels before it goes on (it waits for a build under way instead). Leaves the
mark of :func:`sosgame.kernel_cache.ready_mark` once everything is compiled.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Iterator, Sequence
from pathlib import Path

from sosgame import kernel_cache
from sosgame.kernel import JIT, MODE

__all__ = ["build", "main"]

_LOW_PRIORITY = 10
"""How much nicer than its parent a background build runs: a person's game goes first."""


@contextlib.contextmanager
def _locked(folder: Path, wait: bool) -> Iterator[bool]:
    """Hold the build lock of cache ``folder``; yields whether it was had (always when
    ``wait``, after any build under way has ended)."""
    try:
        import fcntl
    except ImportError:  # no advisory locks here: builds may overlap, which only wastes time
        yield True
        return
    with open(folder / "build.lock", "a+b") as lock:
        try:
            fcntl.flock(lock, fcntl.LOCK_EX | (0 if wait else fcntl.LOCK_NB))
        except BlockingIOError:
            yield False
            return
        try:
            yield True
        finally:
            fcntl.flock(lock, fcntl.LOCK_UN)


def build() -> None:
    """Compile (or load) every kernel in this process: the moves', the search's, the solver's.

    The process must have been started with ``SOSGAME_KERNELS=compiled``
    (:func:`sosgame.kernel_cache.start_build` starts it so), else it only runs plain Python.
    """
    from sosgame.ai.alphabeta import warm_up as search_warm_up
    from sosgame.solver import warm_up as solver_warm_up

    search_warm_up()  # the move kernels and playouts too
    solver_warm_up()


def main(argv: Sequence[str] | None = None) -> int:
    """Build the kernels unless they are ready; 0 once they are (or cannot be cached)."""
    parser = argparse.ArgumentParser(prog="python -m sosgame.ai.build", description=__doc__)
    parser.add_argument("--wait", action="store_true", help="wait for a build under way")
    wait = parser.parse_args(argv).wait
    if not JIT and MODE != "plain":
        # Started by hand: the kernels of this process chose plain Python before main ran.
        if wait:
            return kernel_cache.build_now()
        kernel_cache.start_build()
        return 0
    cache = kernel_cache.plan()
    if kernel_cache.ready() or not cache.enabled or cache.folder is None:
        return 0
    folder = Path(cache.folder)
    try:
        folder.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        print(f"sosgame: cannot keep compiled kernels in {folder}: {error}", file=sys.stderr)
        return 1
    with _locked(folder, wait) as mine:
        if not mine or kernel_cache.ready():
            return 0
        if not wait:
            with contextlib.suppress(OSError, AttributeError):
                os.nice(_LOW_PRIORITY)
        build()
        kernel_cache.ready_mark(folder).touch()
    return 0


if __name__ == "__main__":
    sys.exit(main())
