"""Password hashing in a lane of its own: argon2 runs on a few threads that do nothing else,
never on the default executor that replays and other work share. Hashes wait their turn
round robin by client address, each address with at most a few at once, and past a bound
of waiting hashes a login, claim or password change is refused at once (429 ``login_busy``)
instead of queueing without end: a crowd of addresses flooding the lane with wrong logins
delays an honest newcomer by about one hash per address, never by the whole flood.

Each argon2 hash takes its memory cost (64 MiB with ``argon2-cffi``'s defaults) while it
runs, so the threads bound the memory it takes too: ``password_threads`` times that.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import threading
from collections import Counter
from collections.abc import Callable
from concurrent.futures import Future, ThreadPoolExecutor
from dataclasses import dataclass, field
from functools import cached_property, partial
from typing import Any, Final

from argon2 import DEFAULT_MEMORY_COST, DEFAULT_TIME_COST, PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from sosgame.web.guards.fairqueue import FairQueue
from sosgame.web.live.protocol import ProtocolError

__all__ = ["PasswordLane"]


NICENESS: Final = 10
"""How much lower than the server's other threads the hashing threads are scheduled."""
LOWEST_PRIORITY: Final = 19
"""The highest niceness Linux gives a thread."""


def _give_way() -> None:
    """Lower the calling thread's scheduling priority (Linux schedules each thread on its
    own): with every core busy hashing, the event loop's thread still runs first, so a flood
    of logins delays logins, not moves."""
    with contextlib.suppress(AttributeError, OSError):
        thread = threading.get_native_id()
        # Lower than the thread that started it (the server may itself run under `nice`).
        below = os.getpriority(os.PRIO_PROCESS, thread) + NICENESS
        os.setpriority(os.PRIO_PROCESS, thread, min(LOWEST_PRIORITY, below))


def _busy() -> ProtocolError:
    return ProtocolError("login_busy")


@dataclass(eq=False)
class _Job:
    """One hash or check: who asked, the work, and the answer awaited."""

    address: str
    work: Callable[[], Any]
    answer: asyncio.Future[Any]
    started: bool = field(default=False)


class PasswordLane:
    """Argon2 hashes and checks on ``threads`` threads of their own, served round robin by
    client address, with at most ``per_address`` of one address's at once (running or
    waiting) and ``queue`` waiting in all; past those a call raises :class:`ProtocolError`
    ``login_busy``. A full queue still takes an address whose hashes have waited or run less
    than another's, in place of that one's newest: a crowd of addresses that keep the lane
    busy cannot shut out one that comes for the first time. New hashes take ``time_cost``
    passes over ``memory_kib`` KiB (argon2-cffi's defaults unless given)."""

    def __init__(
        self,
        threads: int,
        queue: int,
        per_address: int = 2,
        *,
        time_cost: int = DEFAULT_TIME_COST,
        memory_kib: int = DEFAULT_MEMORY_COST,
    ) -> None:
        self._hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib)
        """Makes new hashes at that cost; a stored hash is checked at the cost it was made at."""
        self._pool = ThreadPoolExecutor(
            max_workers=threads,
            thread_name_prefix="sosgame-passwords",
            initializer=_give_way,
        )
        self._threads = threads
        self._queue = queue
        self._per_address = per_address
        self._running = 0
        self._waiting: FairQueue[_Job] = FairQueue(lambda job: not job.answer.done())
        self._waiting_of: Counter[str] = Counter()
        self._held_by: Counter[str] = Counter()
        self._served: Counter[str] = Counter()
        """Hashes started for each address since the lane was last idle."""

    @property
    def taken(self) -> int:
        """Hashes running or waiting now."""
        return self._running + self._waiting_of.total()

    async def _run(self, address: str, work: Callable[[], Any]) -> Any:
        if self._held_by[address] >= self._per_address:
            raise _busy()
        if self._waiting_of.total() >= self._queue and (not self._make_room(address)):
            raise _busy()
        job = _Job(address, work, asyncio.get_running_loop().create_future())
        self._waiting.push(address, job)
        self._waiting_of[address] += 1
        self._held_by[address] += 1
        self._start()
        try:
            return await job.answer
        except asyncio.CancelledError:
            # The client went away while its hash waited: its place is given up (a hash
            # already running holds its thread, and its place, until it is done).
            if not job.started:
                self._waiting.remove(address, job)
                self._forget(job)
            raise

    def _make_room(self, newcomer: str) -> bool:
        """Refuse a waiting hash to make room for ``newcomer``'s: the newest of the address
        with the most waiting and, among those, the most served lately, if that is more than
        the newcomer would have; whether one was refused."""
        if not self._waiting_of:
            return False

        def weight(address: str) -> tuple[int, int]:
            return self._waiting_of[address], self._served[address]

        victim = max(self._waiting_of, key=weight)
        if weight(victim) <= (self._waiting_of[newcomer] + 1, self._served[newcomer]):
            return False
        job = self._waiting.drop_newest(victim)
        if job is None:
            return False
        self._forget(job)
        if not job.answer.done():
            job.answer.set_exception(_busy())
        return True

    def _forget(self, job: _Job) -> None:
        """``job`` waits no more and holds no place."""
        self._waiting_of[job.address] -= 1
        if self._waiting_of[job.address] <= 0:
            del self._waiting_of[job.address]
        self._release(job)

    def _release(self, job: _Job) -> None:
        self._held_by[job.address] -= 1
        if self._held_by[job.address] <= 0:
            del self._held_by[job.address]

    def _start(self) -> None:
        """Hand waiting hashes to free threads, in turn by address."""
        loop = asyncio.get_running_loop()
        while self._running < self._threads:
            job = self._waiting.pop()
            if job is None:
                return
            self._waiting_of[job.address] -= 1
            if self._waiting_of[job.address] <= 0:
                del self._waiting_of[job.address]
            job.started = True
            self._served[job.address] += 1
            self._running += 1
            running = self._pool.submit(job.work)
            running.add_done_callback(partial(self._done_in_thread, loop, job))

    def _done_in_thread(
        self, loop: asyncio.AbstractEventLoop, job: _Job, done: Future[Any]
    ) -> None:
        # Called in the hashing thread: the lane's state is the event loop's to change.
        loop.call_soon_threadsafe(self._finished, job, done)

    def _finished(self, job: _Job, done: Future[Any]) -> None:
        self._running -= 1
        self._release(job)
        if not job.answer.done():
            error = done.exception()
            if error is not None:
                job.answer.set_exception(error)
            else:
                job.answer.set_result(done.result())
        self._start()
        if not self._running and not self._waiting_of:
            self._served.clear()  # idle: the flood, if any, is over

    async def hash(self, password: str, address: str = "") -> str:
        """The argon2 hash of ``password``, to store (``address``: whose turn it takes)."""
        digest: str = await self._run(address, partial(self._hasher.hash, password))
        return digest

    async def verify(self, digest: str | None, password: str, address: str = "") -> bool:
        """Whether ``password`` matches the stored hash ``digest`` (``None``: an unknown
        name, checked against a hash of nothing so that it takes as long)."""
        try:
            await self._run(address, partial(self._check, digest, password))
        except (VerificationError, InvalidHashError):
            return False
        return digest is not None

    def _check(self, digest: str | None, password: str) -> bool:
        return self._hasher.verify(self._nobody if digest is None else digest, password)

    @cached_property
    def _nobody(self) -> str:
        """A hash to check against when the name is unknown, so both answers take as long
        (made at the first such check, in the hashing lane, not when the server starts)."""
        return self._hasher.hash("no such player here")

    def close(self) -> None:
        """Stop the threads (hashes under way finish first)."""
        self._pool.shutdown(wait=False, cancel_futures=True)
