"""Worker processes that end with the process that started them, however it ends.

:func:`process_pool` is a :class:`~concurrent.futures.ProcessPoolExecutor` whose workers

* ignore Ctrl-C, which a terminal sends to every process of the command: the parent alone
  decides what it means (it stops them itself, at once, and says so once);
* are killed by the system when the parent dies, even by ``kill -9`` (Linux's parent-death
  signal; elsewhere each worker watches its parent and leaves when it is gone);
* are killed, not waited for, when the block ends by an exception or Ctrl-C.
"""

from __future__ import annotations

import contextlib
import ctypes
import os
import signal
import sys
import threading
import time
from collections.abc import Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Final

from sosgame import first_compile
from sosgame.errors import InvalidSettingsError

__all__ = [
    "MOST_WORKERS",
    "check_workers",
    "process_pool",
    "stop_workers",
    "tie_to_parent",
    "watch_parent",
]

MOST_WORKERS: Final = 256
"""The most worker processes (or search threads) one command may start."""

_PR_SET_PDEATHSIG: Final = 1
"""``prctl``'s option for the signal a process gets when its parent dies (linux/prctl.h)."""
_WATCH_SECONDS: Final = 0.25
"""How often a worker watching its parent looks for it."""


def check_workers(count: int | None, name: str) -> None:
    """Refuse a ``count`` of processes or threads (the option ``name``) over
    :data:`MOST_WORKERS`, which would only exhaust the machine.

    :raises InvalidSettingsError: naming ``name``.
    """
    if count is not None and count > MOST_WORKERS:
        raise InvalidSettingsError(
            f"{name} must be at most {MOST_WORKERS}, not {count}",
            code="too_many",
            values={"name": name, "most": MOST_WORKERS, "value": count},
        )


def tie_to_parent(parent: int) -> None:
    """Make the calling process (a worker of ``parent``) ignore Ctrl-C and die with ``parent``.

    Meant as a pool's ``initializer``, with the parent's process id.
    """
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    # A forked worker inherits its command's notice of a first compile; the command reports
    # on the one line it owns, so the workers compile without a word.
    first_compile.quiet()
    if not _kill_me_with_my_parent():
        watch_parent(parent)
    if os.getppid() != parent:  # the parent died before the signal was set up
        os._exit(0)


def watch_parent(parent: int) -> None:
    """In a worker process: quit as soon as process ``parent`` is gone (a thread looks for
    it a few times a second)."""
    threading.Thread(target=_watch, args=(parent,), name="parent-watch", daemon=True).start()


def _kill_me_with_my_parent() -> bool:
    if not sys.platform.startswith("linux"):
        return False
    try:
        libc = ctypes.CDLL(None, use_errno=True)
        return int(libc.prctl(_PR_SET_PDEATHSIG, int(signal.SIGKILL), 0, 0, 0)) == 0
    except (OSError, AttributeError):
        return False


def _watch(parent: int) -> None:
    while os.getppid() == parent:
        time.sleep(_WATCH_SECONDS)
    os._exit(0)


@contextlib.contextmanager
def process_pool(workers: int | None = None) -> Iterator[ProcessPoolExecutor]:
    """A pool of ``workers`` processes (by default one per core) tied to this process.

    Leaving the block normally waits for the work handed out; leaving it by an exception
    (Ctrl-C too) kills the workers at once.
    """
    pool = ProcessPoolExecutor(
        max_workers=workers, initializer=tie_to_parent, initargs=(os.getpid(),)
    )
    try:
        yield pool
    except BaseException:
        stop_workers(pool)
        raise
    pool.shutdown(wait=True)


def stop_workers(pool: ProcessPoolExecutor) -> None:
    """Drop the work not started and kill the pool's worker processes now."""
    # Python 3.14 has ProcessPoolExecutor.kill_workers(); before it the processes are only
    # reachable through this attribute.
    processes = list((getattr(pool, "_processes", None) or {}).values())
    pool.shutdown(wait=False, cancel_futures=True)
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.kill()
    for process in processes:
        with contextlib.suppress(OSError, ValueError, AttributeError):
            process.join(timeout=5)
