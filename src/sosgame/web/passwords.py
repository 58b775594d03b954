"""Password hashing in a lane of its own: argon2 runs on a few threads that do nothing else,
never on the default executor that replays and other work share, and past a bound of waiting
hashes a login, claim or password change is refused at once (429 ``login_busy``) instead of
queueing without end.

Each argon2 hash takes its memory cost (64 MiB with ``argon2-cffi``'s defaults) while it
runs, so the threads bound the memory it takes too: ``password_threads`` times that.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Final, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from sosgame.web.protocol import ProtocolError

__all__ = ["PasswordLane"]

_T = TypeVar("_T")
_HASHER: Final = PasswordHasher()
# A hash to check against when the name is unknown, so both answers take as long.
_NOBODY: Final = _HASHER.hash("no such player here")


class PasswordLane:
    """Argon2 hashes and checks on ``threads`` threads of their own, with at most ``queue``
    more waiting; past that a call raises :class:`ProtocolError` ``login_busy``."""

    def __init__(self, threads: int, queue: int) -> None:
        self._pool = ThreadPoolExecutor(max_workers=threads, thread_name_prefix="sosgame-passwords")
        self._most = threads + queue
        self._taken = 0
        self._lock = threading.Lock()

    @property
    def taken(self) -> int:
        """Hashes running or waiting now."""
        return self._taken

    async def _run(self, function: Callable[..., _T], *args: str) -> _T:
        with self._lock:
            if self._taken >= self._most:
                raise ProtocolError(
                    "login_busy",
                    "the server is checking too many passwords now; try again in a moment",
                )
            self._taken += 1
        # Counted until the thread is done with it (or it is dropped unstarted): a client
        # that hangs up while its hash waits frees no place that is still taken.
        job = self._pool.submit(function, *args)
        job.add_done_callback(self._release)
        return await asyncio.wrap_future(job)

    def _release(self, _job: object) -> None:
        with self._lock:
            self._taken -= 1

    async def hash(self, password: str) -> str:
        """The argon2 hash of ``password``, to store."""
        return await self._run(_HASHER.hash, password)

    async def verify(self, digest: str | None, password: str) -> bool:
        """Whether ``password`` matches the stored hash ``digest`` (``None``: an unknown
        name, checked against a hash of nothing so that it takes as long)."""
        try:
            await self._run(_HASHER.verify, _NOBODY if digest is None else digest, password)
        except (VerificationError, InvalidHashError):
            return False
        return digest is not None

    def close(self) -> None:
        """Stop the threads (hashes under way finish first)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
