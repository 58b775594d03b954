"""A one-line progress report on standard error while a long command works.

On a terminal the line is redrawn in place (at most ten times a second) and wiped when the
work ends, so that what the command prints afterwards starts on a clean line. When standard
error is not a terminal (a pipe, a file, a test's capture) nothing is written at all: no
``\\r`` frames in logs, and standard output, ``--json`` or not, is never touched.
"""

from __future__ import annotations

import shutil
import sys
import threading
import time
from collections.abc import Callable
from types import TracebackType
from typing import Final, TextIO

__all__ = ["INTERRUPTED_STATUS", "Progress"]

INTERRUPTED_STATUS: Final = 130
"""What a command returns when Ctrl-C stops it, as a shell reports it (128 + SIGINT's 2)."""
_INTERVAL: Final = 0.1
"""The shortest time between two frames, in seconds."""


class Progress:
    """Where a command reports how far it has come: ``show(text)`` as often as it likes."""

    def __init__(
        self,
        stream: TextIO | None = None,
        *,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.stream = sys.stderr if stream is None else stream
        self.shown = _is_terminal(self.stream)
        self._clock = clock
        self._last = -_INTERVAL
        self._width = 0
        self._lock = threading.Lock()  # the solver reports from several threads

    def show(self, text: str, *, now: bool = False) -> None:
        """Draw ``text`` as the progress line (unless a frame was drawn a moment ago and
        ``now`` is false)."""
        if not self.shown:
            return
        with self._lock:
            moment = self._clock()
            if not now and moment - self._last < _INTERVAL:
                return
            self._last = moment
            room = max(shutil.get_terminal_size().columns - 1, 10)
            line = text[:room]
            self.stream.write("\r" + line + " " * max(self._width - len(line), 0))
            self.stream.flush()
            self._width = len(line)

    def close(self) -> None:
        """Wipe the progress line."""
        if not self.shown or not self._width:
            return
        with self._lock:
            self.stream.write("\r" + " " * self._width + "\r")
            self.stream.flush()
            self._width = 0

    def __enter__(self) -> Progress:
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        traceback: TracebackType | None,
    ) -> None:
        self.close()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return stream.isatty()
    except (AttributeError, ValueError):  # no such method, or a closed stream
        return False
