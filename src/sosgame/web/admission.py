"""Pacing new WebSocket sessions, so that a crowd arriving at once cannot stall the games
already under way.

Each new session costs the server far more than a move (the upgrade, the hello, the state
it is sent). Admitted as fast as they arrive, a thousand of them fill the event loop for a
second and every other game's moves wait behind them. :class:`Admission` lets a burst in at
once and the rest at a steady rate, taking turns between client addresses, so that one
client's crowd does not keep a newcomer from elsewhere waiting; past ``max_wait`` seconds of
queue a session is refused with a reason (WebSocket close code 1013, "try again later").
"""

from __future__ import annotations

import asyncio
import time
from collections import OrderedDict, deque
from collections.abc import Callable

__all__ = ["Admission", "BusyError"]


class BusyError(Exception):
    """The queue of sessions waiting to be admitted is already ``max_wait`` seconds long."""


class Admission:
    """A token bucket of ``rate`` sessions a second holding up to ``burst``, whose waiting
    sessions are served round robin by client address."""

    def __init__(
        self,
        rate: float,
        burst: int,
        max_wait: float,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if rate <= 0 or burst < 1 or max_wait <= 0:
            raise ValueError("rate and max_wait must be above 0 and burst at least 1")
        self.rate = rate
        self.burst = burst
        self.max_wait = max_wait
        self._clock = clock
        self._tokens = float(burst)
        self._filled = clock()
        self._waiting: OrderedDict[str, deque[asyncio.Future[None]]] = OrderedDict()
        self._queued = 0
        self._pacer: asyncio.Task[None] | None = None

    def queued(self) -> int:
        """Sessions waiting to be admitted."""
        return self._queued

    async def enter(self, address: str) -> None:
        """Return once a session from ``address`` may start; raise :class:`BusyError` if
        the queue is too long to wait in."""
        self._refill()
        if self._queued == 0 and self._tokens >= 1:
            self._tokens -= 1
            return
        if self._queued + 1 > self.rate * self.max_wait:
            raise BusyError(
                f"the server is taking in {self._queued} other connections:"
                " try again in a few seconds"
            )
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.setdefault(address, deque()).append(waiter)
        self._queued += 1
        if self._pacer is None or self._pacer.done():
            self._pacer = asyncio.get_running_loop().create_task(self._pace())
        try:
            await waiter
        except asyncio.CancelledError:
            # The client went away while it waited: its place is given up (if it was let in
            # just before, it is no longer queued and there is nothing to give up).
            self._forget(address, waiter)
            raise

    def _forget(self, address: str, waiter: asyncio.Future[None]) -> None:
        queue = self._waiting.get(address)
        if queue is not None and waiter in queue:
            queue.remove(waiter)
            self._queued -= 1
            if not queue:
                del self._waiting[address]

    def _refill(self) -> None:
        now = self._clock()
        self._tokens = min(float(self.burst), self._tokens + (now - self._filled) * self.rate)
        self._filled = now

    def _next(self) -> asyncio.Future[None] | None:
        """The first waiter of the address whose turn it is; that address goes to the back."""
        while self._waiting:
            address, queue = next(iter(self._waiting.items()))
            waiter = queue.popleft()
            self._queued -= 1
            if queue:
                self._waiting.move_to_end(address)
            else:
                del self._waiting[address]
            if not waiter.done():
                return waiter
        return None

    async def _pace(self) -> None:
        while self._queued:
            self._refill()
            if self._tokens < 1:
                await asyncio.sleep((1 - self._tokens) / self.rate)
                continue
            waiter = self._next()
            if waiter is not None:
                self._tokens -= 1
                waiter.set_result(None)
