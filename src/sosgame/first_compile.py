"""What a program shows while the compiled kernels are made for the first time.

The first search after an install compiles the kernels (:mod:`sosgame.kernel`), which takes a
minute or more, once; each warm-up says so through the notice set here. Kept apart from the
kernel so that a command sets its notice without loading numba.
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager

__all__ = ["Notice", "announcing", "notice", "quiet"]

Notice = Callable[[], AbstractContextManager[object]]
"""Makes the context manager within which kernels compile for the first time: shown on
entering, taken away on leaving."""

_notice: list[Notice | None] = [None]


@contextlib.contextmanager
def announcing(shown: Notice | None) -> Iterator[None]:
    """Within the block, show ``shown`` while kernels compile for the first time (``None``:
    show nothing, as a full-screen program must)."""
    before = _notice[0]
    _notice[0] = shown
    try:
        yield
    finally:
        _notice[0] = before


def notice() -> Notice | None:
    """The notice set now, if any."""
    return _notice[0]


def quiet() -> None:
    """Show no notice in this process from now on (a worker, whose command reports for it)."""
    _notice[0] = None
