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

from sosgame.web.guards.fairqueue import FairQueue
from sosgame.web.guards.ratelimit import RateLimit

__all__ = ["Admission", "BusyError"]


class BusyError(Exception):
    """The queue of sessions waiting to be admitted is already ``max_wait`` seconds long."""


class Admission:
    """A token bucket of ``rate`` sessions a second holding up to ``burst``, whose waiting
    sessions are served round robin by client address."""

    def __init__(self, rate: float, burst: int, max_wait: float) -> None:
        if rate <= 0 or burst < 1 or max_wait <= 0:
            raise ValueError("rate and max_wait must be above 0 and burst at least 1")
        self.rate = rate
        self.burst = burst
        self.max_wait = max_wait
        self._bucket = RateLimit(rate, burst)
        self._waiting: FairQueue[asyncio.Future[None]] = FairQueue(lambda waiter: not waiter.done())
        self._pacer: asyncio.Task[None] | None = None

    def queued(self) -> int:
        """Sessions waiting to be admitted."""
        return len(self._waiting)

    async def enter(self, address: str) -> None:
        """Return once a session from ``address`` may start; raise :class:`BusyError` if
        the queue is too long to wait in."""
        queued = len(self._waiting)
        if queued == 0 and self._bucket.allow():
            return
        if queued + 1 > self.rate * self.max_wait:
            raise BusyError(
                f"the server is taking in {queued} other connections: try again in a few seconds"
            )
        waiter: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._waiting.push(address, waiter)
        if self._pacer is None or self._pacer.done():
            self._pacer = asyncio.get_running_loop().create_task(self._pace())
        try:
            await waiter
        except asyncio.CancelledError:
            # The client went away while it waited: its place is given up (if it was let in
            # just before, it is no longer queued and there is nothing to give up).
            self._waiting.remove(address, waiter)
            raise

    async def _pace(self) -> None:
        while len(self._waiting):
            wait = self._bucket.wait()
            if wait > 0:
                await asyncio.sleep(wait)
                continue
            waiter = self._waiting.pop()
            if waiter is not None and self._bucket.allow():
                waiter.set_result(None)
